// swift-tools-version: 6.2
import PackageDescription

// The checkout feature of Docs/FeatureModules.md: an interface, a live implementation and fakes,
// like the profile's. Its live module needs the profile, and depends on the profile's interface
// product alone: ProfileLive is no dependency of this package, so nothing here can import it.
// From the repository root:
//   swift test --package-path Examples/FeatureModules/Checkout
let core = Target.Dependency.product(name: "MetaControllerCore", package: "MetaController")
let testing = Target.Dependency.product(name: "MetaControllerTesting", package: "MetaController")
let profileInterface = Target.Dependency.product(name: "ProfileInterface", package: "Profile")
let profileTesting = Target.Dependency.product(name: "ProfileTesting", package: "Profile")

let package = Package(
    name: "Checkout",
    platforms: [
        .iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
    ],
    products: [
        .library(name: "CheckoutInterface", targets: ["CheckoutInterface"]),
        .library(name: "CheckoutLive", targets: ["CheckoutLive"]),
        .library(name: "CheckoutTesting", targets: ["CheckoutTesting"]),
    ],
    // docs:begin targets
    dependencies: [
        .package(name: "MetaController", path: "../../.."),
        .package(name: "Profile", path: "../Profile"),
    ],
    targets: [
        .target(name: "CheckoutInterface", dependencies: [core]),
        // The profile's interface, never its live module.
        .target(name: "CheckoutLive", dependencies: ["CheckoutInterface", profileInterface, core]),
        .target(name: "CheckoutTesting", dependencies: ["CheckoutInterface", core, testing]),
        // The live checkout, tested against the profile's fake.
        .testTarget(
            name: "CheckoutTests",
            dependencies: ["CheckoutInterface", "CheckoutLive", "CheckoutTesting", profileInterface, profileTesting, core, testing]
        ),
    ],
    // docs:end targets
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
