// swift-tools-version: 6.2
import PackageDescription

// Benchmarks live in their own package so the root package stays free of
// dependencies. Run everything and rewrite the table in Docs/Performance.md
// from the repository root with:
//   Benchmarks/run
// or run the harness alone:
//   swift package --package-path Benchmarks benchmark
let package = Package(
    name: "MetaControllerBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "MetaController", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1", traits: []),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "MetaControllerBenchmarks",
            dependencies: [
                .product(name: "MetaController", package: "MetaController"),
                .product(name: "MetaControllerTesting", package: "MetaController"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/MetaControllerBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
