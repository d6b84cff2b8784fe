// swift-tools-version: 6.2
import PackageDescription

// Benchmarks live in their own package so the root package stays free of
// dependencies. Run from the repository root:
//   swift run -c release --package-path Benchmarks metacontroller-benchmarks
let package = Package(
    name: "MetaControllerBenchmarks",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "metacontroller-benchmarks", targets: ["Benchmarks"]),
    ],
    dependencies: [
        .package(name: "MetaController", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                .product(name: "MetaController", package: "MetaController"),
                .product(name: "MetaControllerTesting", package: "MetaController"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
