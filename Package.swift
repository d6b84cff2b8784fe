// swift-tools-version: 6.2
import PackageDescription

// The folders under Sources/ are the modules, and the dependencies below are the only
// edges between them: the core knows no controller and depends on nothing; each family knows
// only the core, and MetaControllerSupport holds the internals the families share and the core
// does not need (`package` access, no product). The core's own internals that the families
// also use (its lock, a file writer) are `package` declarations of the core.
let support = "MetaControllerSupport"
let core = "MetaControllerCore"
let families = [
    "MetaControllerLogging", "MetaControllerNetworking", "MetaControllerStorage",
    "MetaControllerLocation", "MetaControllerNotifications",
]
let configuration = "MetaControllerConfiguration"
// The graph of a MetaController (`graph(consumers:samples:)`, its pictures and queries): named apart
// from its main type, `MetaControllerGraph`, as swift-collections' DequeModule holds Deque.
let graph = "MetaControllerGraphModule"
let libraries = [core, graph] + families + [configuration]

/// The tests of `module`: they import it `@testable`, and the umbrella as an app does.
func testTarget(_ module: String, extra: [Target.Dependency] = [], exclude: [String] = []) -> Target {
    let names = [module, support, "MetaController", "MetaControllerTesting", "MetaControllerTestSupport"]
    let dependencies = names.enumerated().filter { !names[..<$0.offset].contains($0.element) }.map { Target.Dependency.target(name: $0.element) }
    return .testTarget(name: module + "Tests", dependencies: dependencies + extra, exclude: exclude)
}

let package = Package(
    name: "MetaController",
    platforms: [
        .iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
    ],
    products: [
        // Everything, through one `import MetaController`.
        .library(name: "MetaController", targets: ["MetaController"])
        // The container alone, or the container with the families an app picks.
    ] + libraries.map { .library(name: $0, targets: [$0]) } + [
        .library(name: "MetaControllerTesting", targets: ["MetaControllerTesting"]),
        .executable(name: "metacontroller-demo", targets: ["MetaControllerDemo"]),
    ],
    // The root package has no dependencies, now or later. Comparisons with
    // other libraries live in the separate package under Benchmarks/.
    dependencies: [],
    targets: [
        .target(name: support),
        .target(name: core),
        // The core records what a verification saw (`package` access); this module draws it.
        .target(name: graph, dependencies: [.target(name: core)]),
    ] + families.map { .target(name: $0, dependencies: [.target(name: core), .target(name: support)]) } + [
        .target(
            name: configuration,
            dependencies: [core, support, "MetaControllerLogging", "MetaControllerNetworking", "MetaControllerStorage"]
                .map { .target(name: $0) }
        ),
        // The umbrella: re-exports every library module, so apps keep one `import MetaController`.
        .target(name: "MetaController", dependencies: libraries.map { .target(name: $0) }),
        // Fakes for every built-in slot, strict mode and the loopback MockAPIServer.
        .target(name: "MetaControllerTesting", dependencies: ([support] + libraries).map { .target(name: $0) }),
        // The demo runs its backend on MockAPIServer; an app's own target would not link MetaControllerTesting.
        // Graph.mmd: what `metacontroller-demo --graph` prints, shown in Docs/SeeingTheGraph.md; .ci/run compares them.
        .executableTarget(
            name: "MetaControllerDemo", dependencies: ["MetaController", "MetaControllerTesting"], exclude: ["Graph.mmd"]),
        // Helpers the test targets share (consumers, recorders, a raw socket client, small stacks).
        .target(name: "MetaControllerTestSupport", dependencies: ["MetaController", "MetaControllerTesting"], path: "Tests/MetaControllerTestSupport"),
        // A test target per module, named after it; MetaControllerTests tests the modules together.
        testTarget(support),
        testTarget(core),
        // Snapshots of graphs (Docs/SeeingTheGraph.md), read by path.
        testTarget(graph, exclude: ["Snapshots"]),
        // The test of two processes rotating one log file runs DataCrashWriter twice.
        testTarget("MetaControllerLogging", extra: ["DataCrashWriter"]),
        testTarget("MetaControllerNetworking"),
        // The crash-safety test runs DataCrashWriter as a child process.
        testTarget("MetaControllerStorage", extra: ["DataCrashWriter"]),
        // Files the tests read by path: GeographicLib's distances, GPX files and what gpxpy read, and the scripts that wrote them.
        testTarget("MetaControllerLocation", exclude: ["Fixtures"]),
        testTarget("MetaControllerNotifications"),
        testTarget(configuration),
        testTarget("MetaControllerTesting"),
        testTarget("MetaController"),
        // An app that depends on the core product alone.
        .testTarget(name: "CoreOnlyTests", dependencies: [.target(name: core)]),
        // An app's module with its own `Location`, `AppEnvironment`, ...: the package's are `MetaControllerLocation.Location`.
        .testTarget(name: "NameCollisionTests", dependencies: ["MetaController"]),
        // A child process the crash-safety test kills in the middle of saves.
        .executableTarget(name: "DataCrashWriter", dependencies: ["MetaController"], path: "Tests/DataCrashWriter"),
        // Acceptance tests written from the docs and the public API alone, by someone who did not read
        // the code: they import the umbrella and the testing module as an app does, never `@testable`.
        // A failure there is a defect of the code or of the docs, not a test to loosen (CONTRIBUTING.md).
        // LogProbe is a dependency so that it is built beside them: the child process they run for what
        // a test must not do to its own process (close standard error's reader, measure its memory alone).
        .testTarget(name: "AcceptanceTests", dependencies: ["MetaController", "MetaControllerTesting", "LogProbe"]),
        .executableTarget(name: "LogProbe", dependencies: ["MetaController"], path: "Tests/LogProbe"),
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
