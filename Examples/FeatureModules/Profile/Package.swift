// swift-tools-version: 6.2
import PackageDescription

// The profile feature of Docs/FeatureModules.md, split in three modules: its interface (what
// other features may know), its live implementation (what the app ships) and its fakes (what
// tests install instead). The article's examples are regions of these sources
// (python3 .ci/check-examples checks they match). From the repository root:
//   swift test --package-path Examples/FeatureModules/Profile
let core = Target.Dependency.product(name: "MetaControllerCore", package: "MetaController")
let storage = Target.Dependency.product(name: "MetaControllerStorage", package: "MetaController")
let testing = Target.Dependency.product(name: "MetaControllerTesting", package: "MetaController")

let package = Package(
    name: "Profile",
    platforms: [
        .iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
    ],
    // docs:begin manifest
    products: [
        .library(name: "ProfileInterface", targets: ["ProfileInterface"]),
        .library(name: "ProfileLive", targets: ["ProfileLive"]),
        .library(name: "ProfileTesting", targets: ["ProfileTesting"]),
    ],
    dependencies: [
        // Every package of the app names MetaController the same way (here the same path; a
        // URL for a released version), so SwiftPM resolves one package and builds it once.
        .package(name: "MetaController", path: "../../..")
    ],
    targets: [
        // The protocol, its key and its accessor: the container alone, cheap to depend on.
        .target(name: "ProfileInterface", dependencies: [core]),
        // The live controller and the assembly; it stores through the data controller.
        .target(name: "ProfileLive", dependencies: ["ProfileInterface", core, storage]),
        // The fake, for any package's tests; never linked into the app.
        .target(name: "ProfileTesting", dependencies: ["ProfileInterface", core, testing]),
        .testTarget(name: "ProfileTests", dependencies: ["ProfileInterface", "ProfileLive", "ProfileTesting", core, testing]),
    ],
    // docs:end manifest
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
