// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "MetaController",
    platforms: [
        .iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
    ],
    products: [
        .library(name: "MetaController", targets: ["MetaController"]),
        .library(name: "MetaControllerTesting", targets: ["MetaControllerTesting"]),
        .executable(name: "metacontroller-demo", targets: ["MetaControllerDemo"]),
    ],
    // The root package has no dependencies, now or later. Comparisons with
    // other libraries live in the separate package under Benchmarks/.
    dependencies: [],
    targets: [
        .target(name: "MetaController"),
        .target(name: "MetaControllerTesting", dependencies: ["MetaController"]),
        // The demo runs its backend on MockAPIServer; an app's own target would not link MetaControllerTesting.
        .executableTarget(name: "MetaControllerDemo", dependencies: ["MetaController", "MetaControllerTesting"]),
        .testTarget(
            name: "MetaControllerTests",
            dependencies: ["MetaController", "MetaControllerTesting", "DataCrashWriter"],
            // Files the tests read by path: GeographicLib's distances, GPX files and what gpxpy read, and the scripts that wrote them.
            exclude: ["Fixtures"]
        ),
        // An app's module with its own `Location`, `AppEnvironment`, ...: the package's are `MetaController.Location`.
        .testTarget(name: "NameCollisionTests", dependencies: ["MetaController"]),
        // A child process the crash-safety test kills in the middle of saves.
        .executableTarget(name: "DataCrashWriter", dependencies: ["MetaController"], path: "Tests/DataCrashWriter"),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
