// swift-tools-version: 6.2
import PackageDescription

// The app of Docs/FeatureModules.md: the composition root, the one module that imports the
// features' live modules and installs their assemblies. Its tests build the app's MetaController
// with the features' fakes. From the repository root:
//   swift test --package-path Examples/FeatureModules/App
let package = Package(
    name: "App",
    platforms: [
        .iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
    ],
    // docs:begin app
    dependencies: [
        .package(name: "MetaController", path: "../../.."),
        .package(name: "Profile", path: "../Profile"),
        .package(name: "Checkout", path: "../Checkout"),
    ],
    targets: [
        // The app's module; an Xcode app target lists the same products.
        .target(
            name: "ShopApp",
            dependencies: [
                .product(name: "MetaController", package: "MetaController"),
                .product(name: "ProfileLive", package: "Profile"),
                .product(name: "CheckoutLive", package: "Checkout"),
            ]
        ),
        // The fakes are linked into the tests only.
        .testTarget(
            name: "ShopAppTests",
            dependencies: [
                "ShopApp",
                .product(name: "MetaController", package: "MetaController"),
                .product(name: "MetaControllerTesting", package: "MetaController"),
                .product(name: "ProfileInterface", package: "Profile"),
                .product(name: "ProfileLive", package: "Profile"),
                .product(name: "ProfileTesting", package: "Profile"),
                .product(name: "CheckoutInterface", package: "Checkout"),
                .product(name: "CheckoutLive", package: "Checkout"),
                .product(name: "CheckoutTesting", package: "Checkout"),
            ]
        ),
    ],
    // docs:end app
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
