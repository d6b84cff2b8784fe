// swift-tools-version: 6.2
import PackageDescription

// The server of Docs/Server.md: a notes service on Hummingbird 2 with an app-wide
// MetaController and a scoped child per request. The article's examples are regions of these
// sources (python3 .ci/check-examples checks they match), so they compile and are tested here.
// From the repository root:
//   swift test --package-path Examples/NotesServer
//   swift run --package-path Examples/NotesServer notes-server   # then curl localhost:8080/notes -H 'user: ada'
let package = Package(
    name: "NotesServer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "MetaController", path: "../.."),
        .package(name: "MetaControllerIntegrations", path: "../../Integrations"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "NotesServer",
            dependencies: [
                .product(name: "MetaController", package: "MetaController"),
                .product(name: "MetaControllerSwiftLog", package: "MetaControllerIntegrations"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "notes-server",
            dependencies: [
                "NotesServer",
                .product(name: "MetaController", package: "MetaController"),
                .product(name: "MetaControllerSwiftLog", package: "MetaControllerIntegrations"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "NotesServerTests",
            dependencies: [
                "NotesServer",
                .product(name: "MetaControllerTesting", package: "MetaController"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
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
