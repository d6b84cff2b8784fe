import Foundation
import Testing

import MetaController
import MetaControllerCore
import MetaControllerTestSupport
import MetaControllerTesting

// The products of the graphs below, each with a type of its own, so that a
// node or an edge naming one can only come from where it was planted.

private final class Database: Sendable {}
private final class Repository: Sendable {}
private final class Session: Sendable {}
private final class Analytics: Sendable {}
private final class PrefetchedCache: Sendable {}
private final class Cart: Sendable {}
private enum CartKey: MetaControllerKey {
    typealias Value = Cart
}
private enum BrokenNameKey: MetaControllerKey {
    typealias Value = Cart
    static var name: String { "slot\r\nwith\u{2028}breaks" }
}
private enum TrackerKey: MetaControllerKey {
    typealias Value = any MetaControllerConsumer & Sendable
}
/// A product that is a consumer: its requirements are the registration's.
private final class DetailScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.api, .log, .custom(CartKey.self)]
    var metaController: MetaController?
}
/// A listed consumer no registration makes.
private final class FeedScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.log, .location]
    var metaController: MetaController?
}
/// A listed consumer that a registration makes.
private final class HomeScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.log]
    var metaController: MetaController?
}

// The broken graph: a missing registration two levels down, a circle of three,
// a throwing factory, a main-actor factory asked off the main actor, a read of
// an empty slot while made.
private final class Top: Sendable {}
private final class Middle: Sendable {}
private final class Unregistered: Sendable {}
private final class Rock: Sendable {}
private final class Paper: Sendable {}
private final class Scissors: Sendable {}
private final class Flaky: Sendable {}
private struct FlakyFailed: Error {}
private final class Tracker: Sendable {}
@MainActor private final class Banner {
    nonisolated init() {}
}
private final class EagerScreen: MetaControllerConsumer {
    var metaController: MetaController?
    func metaControllerDidArrive() { _ = apiController }
}
private final class CheckoutScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.api, .log]
    var metaController: MetaController?
}

private final class Node: Sendable {}
private final class Link: Sendable {}

@Suite("MetaControllerGraph: graph(consumers:samples:), its queries and its pictures")
@MainActor
struct MetaControllerGraphTests {
    typealias ID = MetaControllerGraph.Node.ID

    /// Two scopes, every kind of node and edge.
    private func showcase() throws -> MetaController {
        let parent = MetaController()
        parent.logController = FakeLogController()
        parent[CartKey.self] = Cart()
        parent.registerShared(Database.self) { _ in Database() }
        parent.registerShared(PrefetchedCache.self) { _ in PrefetchedCache() }
        _ = try parent.make(PrefetchedCache.self)   // made before the graph is drawn

        let child = MetaController(parent: parent)
        child.apiController = FakeApiController()
        child.register(Repository.self) {
            _ = try $0.make(Database.self) as Database
            return Repository()
        }
        child.register(Repository.self, name: "cached") { _ in Repository() }
        child.registerShared(Session.self) {
            _ = try $0.make(Repository.self) as Repository
            _ = try? $0.make(Analytics.self) as Analytics   // optional: no registration, no problem
            return Session()
        }
        child.register(DetailScreen.self, argument: Item.self, sample: Item(id: 1)) { metaController, _ in
            _ = try metaController.make(Repository.self, name: "cached") as Repository
            return DetailScreen()
        }
        child.register(HomeScreen.self) { _ in HomeScreen() }
        return child
    }

    private func brokenGraph() -> MetaController {
        let metaController = MetaController()
        metaController.logController = FakeLogController()
        metaController.register(Top.self) {
            _ = try $0.make(Middle.self) as Middle
            return Top()
        }
        metaController.register(Middle.self) {
            _ = try $0.make(Unregistered.self) as Unregistered
            return Middle()
        }
        metaController.registerShared(Rock.self) {
            _ = try $0.make(Paper.self) as Paper
            return Rock()
        }
        metaController.register(Paper.self) {
            _ = try $0.make(Scissors.self) as Scissors
            return Paper()
        }
        metaController.registerShared(Scissors.self) {
            _ = try $0.make(Rock.self) as Rock
            return Scissors()
        }
        metaController.register(Flaky.self) { _ in throw FlakyFailed() }
        metaController.registerShared(Tracker.self) {
            _ = try $0.make(Banner.self) as Banner
            return Tracker()
        }
        metaController.register(Banner.self) { @MainActor _ in Banner() }
        metaController.register(EagerScreen.self) { _ in EagerScreen() }
        return metaController
    }

    @Test("each kind of node and edge appears, with its scope, type, name, argument and lifetime")
    func everyKindAppears() throws {
        let graph = try showcase().graph(consumers: [FeedScreen.self, HomeScreen.self])
        #expect(graph.scopes == ["MetaController", "parent 1"])
        #expect(Set(graph.nodes.map(\.kind)) == [.slot, .registration, .consumer, .missingProduct, .missingSlot])
        #expect(Set(graph.edges.map(\.kind)) == [.requests, .requires])

        let log = try #require(graph.node(ID(.slot, "logController")))
        #expect(log.scope == 1)
        #expect(log.typeName == "FakeLogController")
        #expect(graph.node(ID(.slot, "apiController"))?.scope == 0)
        #expect(graph.node(ID(.slot, "apiController"))?.typeName == "FakeApiController")
        #expect(graph.node(ID(.slot, "cart"))?.typeName == "Cart")

        let database = try #require(graph.node(ID(.registration, "Database")))
        #expect(database.scope == 1)
        #expect(database.lifetime == .shared)
        #expect(database.typeName == "Database")
        #expect(!database.wasMadeBefore)
        let cached = try #require(graph.node(ID(.registration, "Repository named \"cached\"")))
        #expect(cached.factoryName == "cached")
        #expect(cached.lifetime == .perRequest)
        #expect(cached.scope == 0)
        let detail = try #require(graph.node(ID(.registration, "DetailScreen from Item")))
        #expect(detail.argumentType == "Item")
        #expect(detail.typeName == "DetailScreen")
        let prefetched = try #require(graph.node(ID(.registration, "PrefetchedCache")))
        #expect(prefetched.wasMadeBefore)
        #expect(prefetched.scope == 1)

        #expect(graph.node(ID(.consumer, "FeedScreen")) != nil)
        #expect(graph.node(ID(.consumer, "HomeScreen")) == nil, "a listed type a registration makes is that registration")
        #expect(graph.node(ID(.missingProduct, "Analytics"))?.problems == [], "an optional request is no problem")
        #expect(graph.node(ID(.missingSlot, "locationController")) != nil)

        let edges = Set(graph.edges.map { "\($0)" })
        for expected in [
            "registration:Repository requests registration:Database",
            "registration:Session requests registration:Repository",
            "registration:Session requests missingProduct:Analytics",
            "registration:DetailScreen from Item requests registration:Repository named \"cached\"",
            "registration:DetailScreen from Item requires slot:apiController",
            "registration:DetailScreen from Item requires slot:logController",
            "registration:DetailScreen from Item requires slot:cart",
            "registration:HomeScreen requires slot:logController",
            "consumer:FeedScreen requires slot:logController",
            "consumer:FeedScreen requires missingSlot:locationController",
        ] {
            #expect(edges.contains(expected), "\(expected) in \(graph)")
        }
        #expect(graph.verification.consumerTypesChecked == 3)
    }

    @Test("a controller in a slot that is a consumer requires slots of the scope that holds it")
    func controllersInSlots() throws {
        final class Tracker: MetaControllerConsumer, Sendable {
            static let requiredControllers: [MetaControllerSlot] = [.log, .location]
            var metaController: MetaController? {
                get { nil }
                set {}
            }
        }
        let parent = MetaController()
        parent.logController = FakeLogController()
        parent[TrackerKey.self] = Tracker()
        let child = MetaController(parent: parent)
        child.locationController = FakeLocationController()   // the child's: not the parent's, where the tracker is
        let graph = child.graph()
        let tracker = ID(.slot, "tracker")
        #expect(graph.dependencies(of: tracker).map(\.id) == [ID(.slot, "logController"), ID(.missingSlot, "locationController")])
        #expect(graph.node(ID(.missingSlot, "locationController"))?.problems == [], "a verification does not check controllers")
        #expect(graph.verification.isSatisfied)
    }

    @Test("a slot or a registration in two scopes is drawn once, in the nearer, as a read or a request finds it")
    func nearestScopeWins() throws {
        let parent = MetaController()
        parent[CartKey.self] = Cart()
        parent.registerShared(Database.self) { _ in Database() }
        let child = MetaController(parent: parent)
        child[CartKey.self] = Cart()
        child.register(Database.self) { _ in Database() }
        let graph = child.graph()
        #expect(graph.nodes.filter { $0.name == "cart" }.map(\.scope) == [0])
        #expect(graph.nodes.filter { $0.name == "Database" }.map(\.scope) == [0])
        #expect(graph.node(ID(.registration, "Database"))?.lifetime == .perRequest)
        #expect(graph.scopes == ["MetaController", "parent 1"])
    }

    @Test("each problem sits on the node or the edges where it arose")
    func problemsSitWhereTheyArose() throws {
        let graph = brokenGraph().graph(consumers: [CheckoutScreen.self])
        func edge(_ from: String, _ to: ID) -> MetaControllerGraph.Edge? {
            graph.edges.first { $0.from == ID(.registration, from) && $0.to == to }
        }
        #expect(graph.verification.problems.count == 6, "\(graph.verification)")

        let missing = try #require(graph.node(ID(.missingProduct, "Unregistered")))
        #expect(missing.problems.map(\.kind) == [.missingFactory])
        #expect(edge("Middle", ID(.missingProduct, "Unregistered"))?.problems.map(\.kind) == [.missingFactory])
        #expect(edge("Top", ID(.registration, "Middle"))?.problems == [], "only the edge that failed is marked")

        for (from, to) in [("Paper", "Scissors"), ("Scissors", "Rock"), ("Rock", "Paper")] {
            #expect(edge(from, ID(.registration, to))?.problems.map(\.kind) == [.circularFactories], "\(from) -> \(to)")
        }
        #expect(graph.node(ID(.registration, "Flaky"))?.problems.map(\.kind) == [.factoryThrew])
        #expect(edge("Tracker", ID(.registration, "Banner"))?.problems.map(\.kind) == [.notOnMainActor])
        #expect(graph.node(ID(.registration, "EagerScreen"))?.problems.map(\.kind) == [.unfilledRead])
        let checkout = try #require(graph.node(ID(.consumer, "CheckoutScreen")))
        #expect(checkout.problems.map(\.kind) == [.unfilledRequirement])
        #expect(
            graph.edges.first { $0.from == checkout.id && $0.to == ID(.missingSlot, "apiController") }?.problems.map(\.kind)
                == [.unfilledRequirement])
        #expect(graph.edges.first { $0.from == checkout.id && $0.to == ID(.slot, "logController") }?.problems == [])

        // Every problem of the verification is placed somewhere.
        let placed = graph.nodes.flatMap(\.problems) + graph.edges.flatMap(\.problems)
        for problem in graph.verification.problems {
            #expect(placed.contains(problem), "\(problem) is not placed")
        }
        // And the nodes without a problem carry none.
        #expect(graph.node(ID(.registration, "Top"))?.problems == [])
    }

    @Test("the order is stable: registrations made in any order give the same text, Mermaid and DOT")
    func theOrderIsStable() throws {
        var generator = SeededGenerator(seed: 40)
        var texts: Set<String> = []
        for _ in 0..<8 {
            let metaController = MetaController()
            metaController.logController = FakeLogController()
            var steps: [(MetaController) -> Void] = (0..<30).map { index in
                { registerService(index, of: 30, in: $0) }
            }
            steps.shuffle(using: &generator)
            for step in steps { step(metaController) }
            let graph = metaController.graph(consumers: [FeedScreen.self])
            texts.insert(graph.description + "\n" + graph.mermaid + "\n" + graph.dot)
        }
        #expect(texts.count == 1)
    }

    @Test("unused registrations, reverse edges and the longest chain on a planted graph")
    func reviewersQuestions() throws {
        // A -> B, A -> C, C -> B, C -> D -> E; F alone; HomeScreen listed; G made before.
        let metaController = MetaController()
        metaController.logController = FakeLogController()
        let names = ["A", "B", "C", "D", "E", "F"]
        let requests = ["A": ["B", "C"], "C": ["B", "D"], "D": ["E"]]
        for name in names {
            metaController.register(Node.self, name: name) { metaController in
                for other in requests[name] ?? [] { _ = try metaController.make(Node.self, name: other) as Node }
                return Node()
            }
        }
        metaController.register(HomeScreen.self) { _ in HomeScreen() }
        metaController.registerShared(PrefetchedCache.self) { _ in PrefetchedCache() }
        _ = try metaController.make(PrefetchedCache.self)
        let graph = metaController.graph(consumers: [HomeScreen.self])
        func id(_ name: String) -> ID { ID(.registration, "Node named \"\(name)\"") }

        #expect(graph.unusedRegistrations.map(\.id) == [id("A"), id("F")])
        #expect(graph.dependents(of: id("B")).map(\.id) == [id("A"), id("C")])
        #expect(graph.dependents(of: id("A")).isEmpty)
        #expect(graph.dependencies(of: id("C")).map(\.id) == [id("B"), id("D")])
        #expect(graph.dependents(of: ID(.slot, "logController")).map(\.id) == [ID(.registration, "HomeScreen")])
        #expect(graph.longestChain.map(\.id) == [id("A"), id("C"), id("D"), id("E")])
    }

    @Test("the longest chain agrees with a recursive walk and an exhaustive search on 200 seeded random graphs, circles included")
    func longestChainAgreesWithAnOracle() throws {
        var generator = SeededGenerator(seed: 7)
        for round in 0..<200 {
            let count = Int.random(in: 1...9, using: &generator)
            var planted: [Int: [Int]] = [:]
            for from in 0..<count {
                for to in 0..<count where from != to && Int.random(in: 0..<4, using: &generator) == 0 {
                    planted[from, default: []].append(to)
                }
            }
            let metaController = MetaController()
            for index in 0..<count {
                let asks = planted[index] ?? []
                metaController.register(Link.self, name: "n\(index)") { metaController in
                    for other in asks { _ = try? metaController.make(Link.self, name: "n\(other)") as Link }
                    return Link()
                }
            }
            let graph = metaController.graph()
            // The oracle: the requests back round a circle found by a recursive walk in the
            // documented order, then every path over the rest, by exhaustive search.
            let ids = graph.nodes.map(\.id)
            let requests = graph.edges.filter { $0.kind == .requests }
            let requested = Set(requests.map(\.to))
            func targets(_ id: ID) -> [ID] {
                requests.filter { $0.from == id }.map(\.to).sorted { ids.firstIndex(of: $0)! < ids.firstIndex(of: $1)! }
            }
            var visited: Set<ID> = []
            var onPath: Set<ID> = []
            var back: Set<[ID]> = []
            func walk(_ id: ID) {
                visited.insert(id)
                onPath.insert(id)
                for target in targets(id) {
                    if onPath.contains(target) {
                        back.insert([id, target])
                    } else if !visited.contains(target) {
                        walk(target)
                    }
                }
                onPath.remove(id)
            }
            for id in ids.filter({ !requested.contains($0) }) + ids.filter({ requested.contains($0) })
            where !visited.contains(id) {
                walk(id)
            }
            var longest = 0
            var stack: [[ID]] = ids.map { [$0] }
            while let path = stack.popLast() {
                longest = max(longest, path.count)
                for next in targets(path[path.count - 1]) where !back.contains([path[path.count - 1], next]) {
                    #expect(!path.contains(next), "round \(round): the edges left are not acyclic")
                    if !path.contains(next) { stack.append(path + [next]) }
                }
            }
            let chain = graph.longestChain
            #expect(chain.count == (longest > 1 ? longest : 0), "round \(round): \(graph)")
            for pair in zip(chain, chain.dropFirst()) {
                #expect(requests.contains { $0.from == pair.0.id && $0.to == pair.1.id }, "round \(round)")
                #expect(!back.contains([pair.0.id, pair.1.id]), "round \(round)")
            }
        }
    }

    @Test("the DOT text reads back, with an independent reader, as the graph: nodes, edges, clusters, labels, marks")
    func dotReadsBack() throws {
        let graph = try showcase().graph(consumers: [FeedScreen.self, HomeScreen.self])
        let document = try DOTDocument(graph.dot)
        #expect(Set(document.nodes.keys) == Set(graph.nodes.map(\.id.description)))
        #expect(
            Set(document.edges.map { "\($0.from) \($0.to)" })
                == Set(graph.edges.map { "\($0.from) \($0.to)" }))
        #expect(document.edges.count == graph.edges.count)
        for (index, scope) in graph.scopes.enumerated() {
            let cluster = try #require(document.subgraphs["cluster_\(index)"])
            #expect(cluster.attributes["label"] == scope)
            #expect(Set(cluster.nodes) == Set(graph.nodes.filter { $0.scope == index }.map(\.id.description)))
        }
        #expect(document.nodes["missingSlot:locationController"]?.attributes["style"] == "dashed")
        #expect(document.nodes["slot:logController"]?.attributes["label"] == "logController\\nFakeLogController")
        let requirement = document.edges.first { $0.from == "consumer:FeedScreen" && $0.to == "slot:logController" }
        #expect(requirement?.attributes["style"] == "dotted")
    }

    @Test("problems are marked red in DOT, with the problem's kind on the edge")
    func dotMarksProblems() throws {
        let graph = brokenGraph().graph(consumers: [CheckoutScreen.self])
        let document = try DOTDocument(graph.dot)
        let circle = document.edges.first { $0.from == "registration:Rock" && $0.to == "registration:Paper" }
        #expect(circle?.attributes["color"] == "red")
        #expect(circle?.attributes["label"] == "circularFactories")
        #expect(document.nodes["registration:Flaky"]?.attributes["color"] == "red")
        #expect(document.nodes["missingProduct:Unregistered"]?.attributes["style"] == "dashed")
        let plain = document.edges.first { $0.from == "registration:Top" && $0.to == "registration:Middle" }
        #expect(plain?.attributes["color"] == nil)
    }

    @Test("the Mermaid text follows the flowchart grammar, and names every node, edge and mark of the graph")
    func mermaidFollowsTheGrammar() throws {
        for graph in [
            try showcase().graph(consumers: [FeedScreen.self, HomeScreen.self]),
            brokenGraph().graph(consumers: [CheckoutScreen.self]),
        ] {
            let chart = try MermaidFlowchart(graph.mermaid)
            #expect(chart.nodes.count == graph.nodes.count)
            #expect(Set(chart.nodes.values.map { $0.label.components(separatedBy: "\n")[0] }) == Set(graph.nodes.map(\.name)))
            #expect(chart.edges.count == graph.edges.count)
            #expect(chart.edges.filter(\.dotted).count == graph.edges.filter { $0.kind == .requires }.count)
            let marked = graph.edges.indices.filter { !graph.edges[$0].problems.isEmpty }
            #expect(chart.styledLinks == marked)
            #expect(chart.edges.filter { $0.label != nil }.count == marked.count)
            let missing = graph.nodes.filter { $0.kind == .missingProduct || $0.kind == .missingSlot }
            #expect(chart.classes["missing", default: []].count == missing.count)
            #expect(Set(chart.subgraphLabels.values) == Set(graph.scopes))
            for node in graph.nodes.filter({ $0.scope != nil }) {
                let declared = chart.nodes.values.first { $0.label.hasPrefix(node.name + "\n") || $0.label == node.name }
                #expect(declared?.subgraph == "scope_\(node.scope ?? -1)", "\(node)")
            }
        }
    }

    @Test("names with quotes, backslashes, angle brackets, # and line breaks survive Mermaid, DOT and the text")
    func awkwardNames() throws {
        let metaController = MetaController()
        let names = [
            "say \"hi\"", "back\\slash", "<b>bold</b>", "#35; not a code", "two\nlines", "crlf\r\nline",
            "separated\u{2028}line", "café", "end", "o", "x --> y", "trailing\\",
        ]
        for name in names {
            metaController.register(Node.self, name: name) { _ in Node() }
        }
        // A slot's name is its key's, with no quotes around it.
        metaController[BrokenNameKey.self] = Cart()
        let graph = metaController.graph()
        #expect(graph.node(ID(.slot, "slot\r\nwith\u{2028}breaks")) != nil)
        let chart = try MermaidFlowchart(graph.mermaid)
        let labels = Set(chart.nodes.values.map { $0.label.components(separatedBy: "\n")[0] })
        for name in names {
            let expected = "Node named \"" + String(name.map { $0.isNewline ? " " : $0 }) + "\""
            #expect(labels.contains(expected), "\(expected) in \(labels)")
        }
        #expect(labels.contains("slot with breaks"), "\(labels)")   // "\r\n" is one character
        let document = try DOTDocument(graph.dot)
        #expect(Set(document.nodes.keys) == Set(graph.nodes.map { String($0.id.description.map { $0.isNewline ? " " : $0 }) }))
        #expect(graph.description.components(separatedBy: "\n").count == 3 + names.count)
    }

    @Test("the text is the documented shape: a summary, then each scope's nodes with their edges, then what is missing")
    func theTextSnapshot() throws {
        final class PaymentClient: Sendable {}
        final class TokenStore: Sendable {}
        final class Checkout: MetaControllerConsumer {
            static let requiredControllers: [MetaControllerSlot] = [.api]
            var metaController: MetaController?
        }
        let metaController = MetaController()
        metaController.apiController = FakeApiController()
        metaController.register(Checkout.self) {
            _ = try $0.make(PaymentClient.self) as PaymentClient
            return Checkout()
        }
        metaController.registerShared(PaymentClient.self) {
            _ = try $0.make(TokenStore.self) as TokenStore
            return PaymentClient()
        }
        let graph = metaController.graph()
        #expect(
            graph.description == """
                graph: 1 scope, 1 slot, 2 registrations, 0 consumer types, 1 problem
                scope 0: MetaController
                  slot apiController: FakeApiController
                  registration Checkout (per request)
                    requests PaymentClient
                  registration PaymentClient (shared)
                    requests TokenStore [missingFactory]
                missing
                  product TokenStore
                    problem: Checkout -> PaymentClient -> TokenStore: no factory makes TokenStore; register one with register(_:name:factory:)
                """, "\(graph)")
    }

    @Test("a snapshot kept in the repository matches, as Docs/SeeingTheGraph.md shows")
    func theSnapshotInTheRepository() throws {
        let graph = try showcase().graph(consumers: [FeedScreen.self, HomeScreen.self])
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Snapshots/showcase-graph.txt")
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] != nil {
            try (graph.description + "\n").write(to: file, atomically: true, encoding: .utf8)
        }
        let kept = try String(contentsOf: file, encoding: .utf8)
        #expect(graph.description + "\n" == kept, "the graph moved; run with UPDATE_SNAPSHOTS=1 and review the diff")
    }

    @Test("the graph holds the verification's report, and a strict MetaController reports its problems as verify does")
    func theReportIsVerifys() throws {
        let reported = Inbox<String>()
        let strict = MetaController.strict { reported.record("\($0)") }
        strict.register(Middle.self) {
            _ = try $0.make(Unregistered.self) as Unregistered
            return Middle()
        }
        let graph = strict.graph()
        #expect(graph.verification == strict.verify())
        #expect(reported.values.count == 2)
        #expect(graph.verification.problems.map(\.kind) == [.missingFactory])
    }

    @Test("a graph asked for by a factory while the graph is verified verifies nothing, and says so")
    func aGraphFromAFactory() throws {
        let inner = Inbox<MetaControllerGraph>()
        let metaController = MetaController()
        metaController.register(Top.self) { metaController in
            MainActor.assumeIsolated { inner.record(metaController.graph()) }
            return Top()
        }
        let outer = metaController.graph()
        #expect(inner.values.first?.verification.problems.map(\.kind) == [.verifyCalledWhileVerifying])
        #expect(outer.verification.problems.map(\.kind) == [.verifyCalledWhileVerifying])
        #expect(outer.node(ID(.registration, "Top"))?.problems.map(\.kind) == [.verifyCalledWhileVerifying])
    }

    @Test("a chain of 1,000 factories: its chain, Mermaid, DOT and text are made on a 512 KB stack")
    func deepChainsOnASmallStack() async throws {
        let metaController = MetaController()
        let depth = 1_000
        for index in 0..<depth {
            metaController.register(Link.self, name: "\(index)") { metaController in
                if index + 1 < depth { _ = try metaController.make(Link.self, name: "\(index + 1)") as Link }
                return Link()
            }
        }
        let graph = metaController.graph()
        #expect(graph.edges.count == depth - 1)
        let figures = await onSmallStack { [graph] in
            (
                graph.longestChain.count, graph.mermaid.count, graph.dot.count, graph.description.count,
                graph.unusedRegistrations.count
            )
        }
        #expect(figures.0 == depth)
        #expect(figures.1 > 0 && figures.2 > 0 && figures.3 > 0)
        #expect(figures.4 == 1)
    }

    @Test("a request a factory makes on another thread, or to a captured MetaController, is not recorded; the product is still made")
    func unrecordedRequests() throws {
        let metaController = MetaController()
        metaController.registerShared(Database.self) { _ in Database() }
        metaController.register(Repository.self) { [unowned metaController] _ in
            _ = try metaController.make(Database.self) as Database   // the app's own MetaController, captured
            return Repository()
        }
        let graph = metaController.graph()
        #expect(graph.verification.isSatisfied)
        #expect(graph.edges.isEmpty)
        #expect(graph.unusedRegistrations.map(\.name) == ["Database", "Repository"])
    }

    @Test("a request a product makes when it gets the MetaController, after its factory returned, is its registration's")
    func requestsOnArrival() throws {
        final class Screen: MetaControllerConsumer {
            var metaController: MetaController?
            func metaControllerDidArrive() { _ = try? metaController?.make(Database.self) as Database? }
        }
        let metaController = MetaController()
        metaController.registerShared(Database.self) { _ in Database() }
        metaController.register(Screen.self) { _ in Screen() }
        metaController.register(Repository.self) { _ in Repository() }
        let graph = metaController.graph()
        #expect(graph.edges.map(\.description) == ["registration:Screen requests registration:Database"])
        #expect(graph.unusedRegistrations.map(\.name) == ["Repository", "Screen"])
    }

    @Test("a request a factory makes on another thread through the MetaController it is given draws no edge, and makes its product for real")
    func requestsOnAnotherThread() throws {
        let metaController = MetaController()
        let runs = Counter()
        metaController.registerShared(Database.self) { _ in
            runs.increment()
            return Database()
        }
        metaController.register(Repository.self) { given in
            // A thread of its own (a `sync` onto a queue would run the block on this thread).
            let made = onThread(stackBytes: 1 << 20) { (try? given.make(Database.self)) != nil }
            precondition(made)
            return Repository()
        }
        let graph = metaController.graph()
        #expect(graph.verification.isSatisfied)
        #expect(graph.dependencies(of: ID(.registration, "Repository")).isEmpty)
        // Once for the verification, once for real on the other thread; then kept.
        #expect(runs.value == 2)
        #expect(try metaController.make(Database.self) === metaController.make(Database.self))
        #expect(runs.value == 2)
    }
}

/// Service `index` of `count`: requests up to three earlier ones, by name.
private func registerService(_ index: Int, of count: Int, in metaController: MetaController) {
    let dependencies = [index - 1, index - 3, index - 7].filter { $0 >= 0 }
    if index % 3 == 0 {
        metaController.registerShared(Node.self, name: "s\(index)") { metaController in
            for other in dependencies { _ = try metaController.make(Node.self, name: "s\(other)") as Node }
            return Node()
        }
    } else {
        metaController.register(Node.self, name: "s\(index)") { metaController in
            for other in dependencies { _ = try metaController.make(Node.self, name: "s\(other)") as Node }
            return Node()
        }
    }
}
