import Benchmark
import Dependencies
import MetaController
import Swinject

/// Scenario 7: a whole graph of services, the shape of
/// TizianoCoroneo/dependency-injection-performance-in-swift, built and resolved by
/// hand, by Swinject, by swift-dependencies and by MetaController (custom slots,
/// and factories made shared).
///
/// GraphServices.swift, written by Benchmarks/generate-graph, declares the services
/// and, per variant, the code that builds and resolves them with concrete types.
/// Before anything is timed, every variant is checked to build the same graph, with
/// each service made once and shared by all that hold it.
enum GraphBenchmarks {
    static func register() {
        register(Graph100.self, size: 100)
        register(Graph500.self, size: 500)
    }

    /// Every service of a graph, in number order, whatever built it.
    static func check<Graph: ServiceGraph>(_: Graph.Type, _ variant: String, _ resolve: (inout Collector) -> Void) {
        var collector = Collector()
        resolve(&collector)
        let found = collector.checksum(Graph.self)
        precondition(found == expected(Graph.self), "graph benchmark: \(variant) built another graph")
    }

    /// The checksum of the graph as generated.
    static func expected<Graph: ServiceGraph>(_: Graph.Type) -> Int {
        var checksum = Graph.types.count
        for (service, dependencies) in Graph.dependencies.enumerated() {
            for dependency in dependencies { checksum = checksum &* 31 &+ service &* 1_000 &+ dependency }
        }
        return checksum
    }

    static func register<Graph: ServiceGraph>(_: Graph.Type, size: Int) {
        // Correctness first: the same graph from every variant, shared services shared.
        check(Graph.self, "the dictionary") { Graph.resolveAllDictionary(Graph.makeDictionary(), into: &$0) }
        check(Graph.self, "stored properties") { Graph.resolveAllStored(Graph.Stored(), into: &$0) }
        check(Graph.self, "Swinject") { Graph.resolveAllContainer(Graph.makeContainer(), into: &$0) }
        check(Graph.self, "swift-dependencies") { Graph.resolveAllLiveValues(into: &$0) }
        check(Graph.self, "custom slots") { Graph.resolveAllSlots(Graph.makeSlots(), into: &$0) }
        check(Graph.self, "factories") { Graph.resolveAllFactories(Graph.makeFactories(), into: &$0) }

        let name = "graph-\(size)"
        let single = Workload.single(maxDuration: .seconds(1))

        // Build the container.
        Benchmark("\(name)-build-dictionary", configuration: single) { _ in blackHole(Graph.makeDictionary()) }
        Benchmark("\(name)-build-stored", configuration: single) { _ in blackHole(Graph.Stored()) }
        Benchmark("\(name)-build-swinject", configuration: single) { _ in blackHole(Graph.makeContainer()) }
        Benchmark("\(name)-build-dependencies", configuration: single) { _ in blackHole(Graph.touchLiveValues()) }
        Benchmark("\(name)-build-slots", configuration: single) { _ in blackHole(Graph.makeSlots()) }
        Benchmark("\(name)-build-factories", configuration: single) { _ in blackHole(Graph.makeFactories()) }

        // Build it, then resolve every service once.
        var sink = BlackHoleSink()
        Benchmark("\(name)-build-resolve-dictionary", configuration: single) { _ in
            Graph.resolveAllDictionary(Graph.makeDictionary(), into: &sink)
        }
        Benchmark("\(name)-build-resolve-stored", configuration: single) { _ in
            Graph.resolveAllStored(Graph.Stored(), into: &sink)
        }
        Benchmark("\(name)-build-resolve-swinject", configuration: single) { _ in
            Graph.resolveAllContainer(Graph.makeContainer(), into: &sink)
        }
        Benchmark("\(name)-build-resolve-dependencies", configuration: single) { _ in
            blackHole(Graph.touchLiveValues())
            Graph.resolveAllLiveValues(into: &sink)
        }
        Benchmark("\(name)-build-resolve-slots", configuration: single) { _ in
            Graph.resolveAllSlots(Graph.makeSlots(), into: &sink)
        }
        Benchmark("\(name)-build-resolve-factories", configuration: single) { _ in
            Graph.resolveAllFactories(Graph.makeFactories(), into: &sink)
        }
        // Build it, then verify it (Docs/TestingWithFakes.md, "Verifying the graph"): every
        // registration made once in a scratch scope, nothing kept. Compare with the row above.
        Benchmark("\(name)-build-verify-factories", configuration: single) { _ async in
            let report = await Graph.makeFactories().verify()
            precondition(report.isSatisfied && report.factoriesMade == size, "graph benchmark: \(report)")
            blackHole(report)
        }
        // Build it, then draw its graph (Docs/SeeingTheGraph.md): the same verification,
        // the requests recorded, and the Mermaid and DOT texts. Compare with the row above.
        Benchmark("\(name)-build-draw-factories", configuration: single) { _ async in
            let graph = await Graph.makeFactories().graph()
            let pictures = (graph.mermaid, graph.dot)
            precondition(
                graph.verification.isSatisfied && graph.nodes.count == size && graph.edges.count > size,
                "graph benchmark: \(graph.verification)")
            blackHole(pictures)
        }

        // Resolve every service once, in a container built (and resolved once) beforehand.
        let dictionary = Graph.makeDictionary()
        let stored = Graph.Stored()
        let container = Graph.makeContainer()
        Graph.resolveAllContainer(container, into: &sink)
        let slots = Graph.makeSlots()
        let factories = Graph.makeFactories()
        Graph.resolveAllFactories(factories, into: &sink)
        Benchmark("\(name)-resolve-dictionary", configuration: single) { _ in
            Graph.resolveAllDictionary(dictionary, into: &sink)
        }
        Benchmark("\(name)-resolve-stored", configuration: single) { _ in Graph.resolveAllStored(stored, into: &sink) }
        Benchmark("\(name)-resolve-swinject", configuration: single) { _ in
            Graph.resolveAllContainer(container, into: &sink)
        }
        Benchmark("\(name)-resolve-dependencies", configuration: single) { _ in Graph.resolveAllLiveValues(into: &sink) }
        Benchmark("\(name)-resolve-slots", configuration: single) { _ in Graph.resolveAllSlots(slots, into: &sink) }
        Benchmark("\(name)-resolve-factories", configuration: single) { _ in
            Graph.resolveAllFactories(factories, into: &sink)
        }

        // Resolve the service with the deepest graph below it, over and over.
        Benchmark("\(name)-deep-dictionary", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Graph.resolveDeepDictionary(dictionary)) }
        }
        Benchmark("\(name)-deep-stored", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Graph.resolveDeepStored(stored)) }
        }
        Benchmark("\(name)-deep-swinject", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Graph.resolveDeepContainer(container)) }
        }
        Benchmark("\(name)-deep-dependencies", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Graph.resolveDeepLiveValues()) }
        }
        Benchmark("\(name)-deep-slots", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Graph.resolveDeepSlots(slots)) }
        }
        Benchmark("\(name)-deep-factories", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Graph.resolveDeepFactories(factories)) }
        }
    }
}

/// What GraphServices.swift declares for each graph.
protocol ServiceGraph {
    associatedtype Stored: StoredServices
    /// The services each service holds, by number.
    static var dependencies: [[Int]] { get }
    /// The service classes, by number.
    static var types: [AnyObject.Type] { get }

    static func makeDictionary() -> [ObjectIdentifier: Any]
    static func makeContainer() -> Container
    static func touchLiveValues() -> [AnyObject]
    static func makeSlots() -> MetaController
    static func makeFactories() -> MetaController

    static func resolveAllDictionary<Sink: GraphSink>(_ d: [ObjectIdentifier: Any], into sink: inout Sink)
    static func resolveAllStored<Sink: GraphSink>(_ s: Stored, into sink: inout Sink)
    static func resolveAllContainer<Sink: GraphSink>(_ c: Container, into sink: inout Sink)
    static func resolveAllLiveValues<Sink: GraphSink>(into sink: inout Sink)
    static func resolveAllSlots<Sink: GraphSink>(_ m: MetaController, into sink: inout Sink)
    static func resolveAllFactories<Sink: GraphSink>(_ m: MetaController, into sink: inout Sink)

    static func resolveDeepDictionary(_ d: [ObjectIdentifier: Any]) -> AnyObject
    static func resolveDeepStored(_ s: Stored) -> AnyObject
    static func resolveDeepContainer(_ c: Container) -> AnyObject
    static func resolveDeepLiveValues() -> AnyObject
    static func resolveDeepSlots(_ m: MetaController) -> AnyObject
    static func resolveDeepFactories(_ m: MetaController) -> AnyObject
}

/// The stored-properties baseline: every service in a property, built by its initializer.
protocol StoredServices: Sendable {
    init()
}

/// Takes each resolved service.
protocol GraphSink {
    mutating func take(_ service: AnyObject)
}

/// Keeps the optimizer from dropping a resolution, and nothing else: what the timed runs use.
struct BlackHoleSink: GraphSink {
    @inline(__always)
    mutating func take(_ service: AnyObject) { blackHole(service) }
}

/// Keeps every resolved service, in the order resolved (number order), to check the graph.
struct Collector: GraphSink {
    var services: [AnyObject] = []

    mutating func take(_ service: AnyObject) { services.append(service) }

    /// The graph the services form, as a checksum comparable with ``GraphBenchmarks/expected(_:)``:
    /// each service must be of its class and hold, in its stored properties, the very
    /// instances resolved for its dependencies.
    func checksum<Graph: ServiceGraph>(_: Graph.Type) -> Int {
        guard services.count == Graph.types.count else { return -1 }
        let numbers = Dictionary(
            uniqueKeysWithValues: services.enumerated().map { (ObjectIdentifier($1), $0) })
        guard numbers.count == services.count else { return -2 }   // one instance per service
        var checksum = services.count
        for (service, object) in services.enumerated() {
            guard type(of: object) == Graph.types[service] else { return -3 }
            for child in Mirror(reflecting: object).children {
                // The dependency must be the instance resolved for its service: shared, not a copy.
                guard let held = numbers[ObjectIdentifier(child.value as AnyObject)] else { return -4 }
                checksum = checksum &* 31 &+ service &* 1_000 &+ held
            }
        }
        return checksum
    }
}
