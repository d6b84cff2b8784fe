// swift-tools-version: 6.2
import PackageDescription

// Bridges between MetaController and other libraries live in their own
// package so the root package stays free of dependencies. Each bridge is a
// library product of its own, so an app links only the ones it uses.
// Build and test from the repository root with:
//   swift test --package-path Integrations
let package = Package(
    name: "MetaControllerIntegrations",
    platforms: [
        .iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
    ],
    products: [
        .library(name: "MetaControllerSwiftLog", targets: ["MetaControllerSwiftLog"])
    ],
    dependencies: [
        .package(name: "MetaController", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // apple/swift-log: a LogController that writes to a Logger, and a LogHandler that writes to a LogController.
        .target(
            name: "MetaControllerSwiftLog",
            dependencies: [
                .product(name: "MetaController", package: "MetaController"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "MetaControllerSwiftLogTests",
            dependencies: [
                "MetaControllerSwiftLog",
                .product(name: "MetaControllerTesting", package: "MetaController"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
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
