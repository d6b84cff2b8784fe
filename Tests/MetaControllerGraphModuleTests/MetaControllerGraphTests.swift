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
/// Two keys of one slot name, kept apart as two slots.
private enum FirstCartKey: MetaControllerKey {
    typealias Value = Cart
    static var name: String { "cart" }
}
private enum SecondCartKey: MetaControllerKey {
    typealias Value = Cart
    static var name: String { "cart" }
}
private enum ThirdCartKey: MetaControllerKey {
    typealias Value = Cart
    static var name: String { "cart" }
}
private enum NumberedCartKey: MetaControllerKey {
    typealias Value = Cart
    static var name: String { "cart #2" }
}
/// A private type named as one in Support/GraphTwin.swift, and a type whose raw identifier looks
/// like the name the graph gives the second of them.
private final class Twin: Sendable {}
private final class `Twin #2`: Sendable {}
/// Requesters of a product whose factory throws and of one that reads an empty slot.
private final class OrderForm: Sendable {}
private final class CheckoutFlow: Sendable {}
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
private final class Chicken: Sendable {}

// Types of one name: nested in two screens, and in two modules
// (MetaControllerTestSupport has an `ImageCache` too).
private enum Feed {
    final class ViewModel: Sendable {}
    final class Item: Sendable {}
    final class Screen: MetaControllerConsumer {
        static let requiredControllers: [MetaControllerSlot] = [.log]
        var metaController: MetaController?
    }
}
private enum Profile {
    final class ViewModel: Sendable {}
    final class Item: Sendable {}
    final class Screen: MetaControllerConsumer {
        static let requiredControllers: [MetaControllerSlot] = [.api]
        var metaController: MetaController?
    }
}
private enum Settings {
    final class ViewModel: Sendable {}
}
private enum Remote {
    enum A { final class Thing: Sendable {} }
    enum B { final class Thing: Sendable {} }
}
private final class ImageCache: Sendable {}
private enum DirectiveKey: MetaControllerKey {
    typealias Value = Cart
    static var name: String { "%%{init: {'theme':'forest'}}%%" }
}
/// A slot whose label starts with a backtick, as a Markdown string would.
private enum BacktickKey: MetaControllerKey {
    typealias Value = Cart
    static var name: String { "`cart`" }
}

/// The identifier a node of a plain name (letters and digits) has in both pictures.
private func pictureID(_ kind: MetaControllerGraph.Node.Kind, _ name: String) -> String { "\(kind)_\(name)" }

/// A name as the pictures show it: a line break a space, a control character
/// or U+FFFE, U+FFFF its escape (`\u{1B}`).
private func shown(_ name: String) -> String {
    var text = ""
    for character in name {
        if character.isNewline {
            text += " "
            continue
        }
        for scalar in character.unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
    }
    return text
}

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

    @Test("the longest chain agrees with a recursive walk and an exhaustive search on 200 seeded random graphs, circles and self-requests included")
    func longestChainAgreesWithAnOracle() throws {
        var generator = SeededGenerator(seed: 7)
        for round in 0..<200 {
            let count = Int.random(in: 1...9, using: &generator)
            var planted: [Int: [Int]] = [:]
            for from in 0..<count {
                for to in 0..<count where Int.random(in: 0..<4, using: &generator) == 0 {
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
            // The longest path over the rest; of those, the first in the nodes' order.
            func precedes(_ lhs: [ID], _ rhs: [ID]) -> Bool {
                lhs.map { ids.firstIndex(of: $0)! }.lexicographicallyPrecedes(rhs.map { ids.firstIndex(of: $0)! })
            }
            var best: [ID] = []
            var stack: [[ID]] = ids.map { [$0] }
            while let path = stack.popLast() {
                if path.count > best.count || (path.count == best.count && precedes(path, best)) { best = path }
                for next in targets(path[path.count - 1]) where !back.contains([path[path.count - 1], next]) {
                    #expect(!path.contains(next), "round \(round): the edges left are not acyclic")
                    if !path.contains(next) { stack.append(path + [next]) }
                }
            }
            // And the longest path that holds no node twice, every request counted: no chain is longer.
            var simplest = 0
            stack = ids.map { [$0] }
            while let path = stack.popLast() {
                simplest = max(simplest, path.count)
                for next in targets(path[path.count - 1]) where !path.contains(next) { stack.append(path + [next]) }
            }
            let chain = graph.longestChain
            #expect(chain.map(\.id) == (best.count > 1 ? best : []), "round \(round): \(graph)")
            #expect(chain.count <= simplest)
            #expect(Set(chain.map(\.id)).count == chain.count, "round \(round): a node twice")
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
        // Each node's identifier reads back as its kind and name.
        func node(_ identifier: String) -> String {
            MermaidFlowchart.node(of: identifier).map { "\($0.kind):\($0.name)" } ?? "unreadable \(identifier)"
        }
        #expect(Set(document.nodes.keys.map(node)) == Set(graph.nodes.map(\.id.description)))
        #expect(document.nodes.count == graph.nodes.count)
        #expect(
            Set(document.edges.map { "\(node($0.from)) \(node($0.to))" })
                == Set(graph.edges.map { "\($0.from) \($0.to)" }))
        #expect(document.edges.count == graph.edges.count)
        for (index, scope) in graph.scopes.enumerated() {
            let cluster = try #require(document.subgraphs["cluster_\(index)"])
            #expect(cluster.attributes["label"] == scope)
            #expect(Set(cluster.nodes.map(node)) == Set(graph.nodes.filter { $0.scope == index }.map(\.id.description)))
        }
        for (identifier, declared) in document.nodes {
            let name = try #require(MermaidFlowchart.node(of: identifier)?.name)
            #expect(try DOTDocument.shown(declared.attributes["label"] ?? "").components(separatedBy: "\n").first == name)
        }
        #expect(document.nodes["missingSlot_locationController"]?.attributes["style"] == "dashed")
        #expect(document.nodes["slot_logController"]?.attributes["label"] == "logController\\nFakeLogController")
        let requirement = document.edges.first { $0.from == "consumer_FeedScreen" && $0.to == "slot_logController" }
        #expect(requirement?.attributes["style"] == "dotted")
    }

    @Test("problems are marked red in DOT, with the problem's kind on the edge")
    func dotMarksProblems() throws {
        let graph = brokenGraph().graph(consumers: [CheckoutScreen.self])
        let document = try DOTDocument(graph.dot)
        let circle = document.edges.first { $0.from == "registration_Rock" && $0.to == "registration_Paper" }
        #expect(circle?.attributes["color"] == "red")
        #expect(circle?.attributes["label"] == "circularFactories")
        #expect(document.nodes["registration_Flaky"]?.attributes["color"] == "red")
        #expect(document.nodes["missingProduct_Unregistered"]?.attributes["style"] == "dashed")
        let plain = document.edges.first { $0.from == "registration_Top" && $0.to == "registration_Middle" }
        #expect(plain != nil)
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
        #expect(
            Set(document.nodes.keys.compactMap { MermaidFlowchart.node(of: $0).map { "\($0.kind):\($0.name)" } })
                == Set(graph.nodes.map { "\($0.id.kind):\($0.id.name)" }))
        let dotLabels = try Set(document.nodes.values.map { try DOTDocument.shown($0.attributes["label"] ?? "").components(separatedBy: "\n")[0] })
        for name in names {
            #expect(dotLabels.contains("Node named \"" + String(name.map { $0.isNewline ? " " : $0 }) + "\""), "\(dotLabels)")
        }
        #expect(graph.description.components(separatedBy: "\n").count == 3 + names.count)
    }

    @Test("the text and the descriptions of nodes, edges and identities hold no line break and no control character of a name, which they show as its escape")
    func theTextShowsControlCharactersAsEscapes() {
        let metaController = MetaController()
        let names = ["nul\u{0}", "tab\tname", "esc\u{1B}[2J", "del\u{7F}", "bel\u{7}", "c1\u{85}x", "two\nlines", "sep\u{2028}x"]
        for name in names {
            metaController.register(Node.self, name: name) { resolver in
                _ = try? resolver.make(Cart.self, name: name) as Cart
                return Node()
            }
        }
        let graph = metaController.graph()
        func controls(_ text: String) -> [String] {
            text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 }
                .map { "U+\(String($0.value, radix: 16))" }
        }
        #expect(controls(graph.description).isEmpty, "\(controls(graph.description))")
        // One line per node and edge: the summary, the scope, 8 registrations, their 8 requests
        // (a failure the factory handled, `try?`, is no problem), "missing" and 8 products.
        #expect(graph.description.components(separatedBy: "\n").count == 2 + 8 + 8 + 1 + 8, "\(graph)")
        for text in graph.nodes.map(\.description) + graph.nodes.map(\.id.description) + graph.edges.map(\.description) {
            #expect(controls(text).isEmpty && !text.contains("\n"), "\(text.debugDescription)")
        }
        #expect(graph.description.contains("registration Node named \"esc\\u{1B}[2J\""))
        #expect(graph.description.contains("registration Node named \"tab\\u{9}name\""))
        #expect(graph.description.contains("registration Node named \"two lines\""))
        #expect(graph.node(ID(.registration, "Node named \"nul\u{0}\""))?.description == "registration Node named \"nul\\u{0}\" (per request, scope 0)")
        // The identity keeps the name as it is: only its description shows it.
        #expect(graph.node(ID(.registration, "Node named \"del\u{7F}\""))?.name == "Node named \"del\u{7F}\"")
    }

    @Test("two private types of one name in two files are told apart by a number; a raw identifier keeps its backticks")
    func privateTypesOfOneNameAreNumbered() {
        let metaController = MetaController()
        metaController.register(Twin.self) { _ in Twin() }
        registerTheOtherFilesTwin(in: metaController)
        metaController.register(`Twin #2`.self) { _ in `Twin #2`() }
        let graph = metaController.graph()
        let names = graph.nodes.filter { $0.kind == .registration }.map(\.name)
        #expect(graph.verification.factoriesChecked == 3)
        // Their qualified names differ only in the file: the module's name is shown, then a number.
        // The runtime writes a raw identifier's space as U+00A0.
        #expect(names.sorted() == ["MetaControllerGraphModuleTests.Twin", "MetaControllerGraphModuleTests.Twin #2", "`Twin\u{A0}#2`"], "\(names)")
    }

    @Test("a throw in a factory reached through another sits on the factory that threw; a read on a product's arrival, on the factory still running")
    func aProblemDeepInAChainSitsWhereItArose() throws {
        let metaController = MetaController()
        metaController.register(Flaky.self) { _ in throw FlakyFailed() }
        metaController.register(EagerScreen.self) { _ in EagerScreen() }
        metaController.register(OrderForm.self) {
            _ = try $0.make(Flaky.self) as Flaky
            return OrderForm()
        }
        metaController.register(CheckoutFlow.self) {
            _ = try $0.make(EagerScreen.self) as EagerScreen
            return CheckoutFlow()
        }
        let graph = metaController.graph()
        let threw = try #require(graph.verification.problems.first { $0.kind == .factoryThrew })
        #expect(threw.chain.count == 2, "\(threw.chain)")
        #expect(graph.node(ID(.registration, "Flaky"))?.problems.map(\.kind) == [.factoryThrew])
        #expect(graph.node(ID(.registration, "OrderForm"))?.problems == [])
        // EagerScreen reads on its arrival, while CheckoutFlow's factory still runs: the read is
        // that factory's, as a request on arrival is (SeeingTheGraph.md, "Whose request a
        // product's arrival makes"), and the message names the product that read.
        let read = try #require(graph.verification.problems.first { $0.kind == .unfilledRead })
        #expect(read.message.hasPrefix("EagerScreen read apiController"), "\(read.message)")
        #expect(graph.node(ID(.registration, "CheckoutFlow"))?.problems.map(\.kind) == [.unfilledRead])
        #expect(graph.node(ID(.registration, "EagerScreen"))?.problems == [])
    }

    @Test("slots of three keys that share a name are three nodes, named with the name, then #2 and #3; a key named like a number is a fourth")
    func slotsOfOneNameAreKeptApartAndNumbered() {
        let metaController = MetaController()
        metaController[FirstCartKey.self] = Cart()
        metaController[SecondCartKey.self] = Cart()
        metaController[ThirdCartKey.self] = Cart()
        #expect(metaController.graph().nodes.filter { $0.kind == .slot }.map(\.name).sorted() == ["cart", "cart #2", "cart #3"])
        // A key whose own name is "cart #2" is a slot of its own, never merged with a numbered one.
        metaController[NumberedCartKey.self] = Cart()
        let slots = metaController.graph().nodes.filter { $0.kind == .slot }
        #expect(slots.count == 4)
        #expect(Set(slots.map(\.id)).count == 4, "\(slots.map(\.name))")
        #expect(slots.map(\.name).contains("cart"))
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
    // MARK: Issue 45

    @Test("a factory that requests its own product: the longest chain leaves that request out, alone, at a chain's end and in its middle")
    func selfRequests() throws {
        func graph(_ requests: [String: [String]]) -> MetaControllerGraph {
            let metaController = MetaController()
            for name in requests.keys {
                metaController.register(Chicken.self, name: name) { metaController in
                    for other in requests[name] ?? [] { _ = try metaController.make(Chicken.self, name: other) as Chicken }
                    return Chicken()
                }
            }
            return metaController.graph()
        }
        func names(_ chain: [MetaControllerGraph.Node]) -> [String] {
            chain.map { $0.factoryName ?? "?" }
        }
        let alone = graph(["c": ["c"]])
        #expect(alone.verification.problems.map(\.message) == [#"circular factories: Chicken named "c" -> Chicken named "c""#])
        #expect(alone.edges.map(\.description) == [#"registration:Chicken named "c" requests registration:Chicken named "c""#])
        #expect(alone.edges.first?.problems.map(\.kind) == [.circularFactories])
        #expect(alone.longestChain.isEmpty)
        #expect(names(graph(["a": ["b"], "b": ["b"]]).longestChain) == ["a", "b"])
        #expect(names(graph(["a": ["b"], "b": ["c", "b"], "c": ["d"], "d": []]).longestChain) == ["a", "b", "c", "d"])
        #expect(names(graph(["a": ["b", "a"], "b": []]).longestChain) == ["a", "b"])
        // Every node requesting itself, in a chain.
        #expect(names(graph(["a": ["b", "a"], "b": ["c", "b"], "c": ["c"]]).longestChain) == ["a", "b", "c"])
    }

    @Test("the longest chain is the longest path, by exhaustive search, on 300 seeded random graphs whose circles are factories requesting their own products")
    func longestChainAgreesWithExhaustiveSearch() throws {
        var generator = SeededGenerator(seed: 45)
        for round in 0..<300 {
            let count = Int.random(in: 1...8, using: &generator)
            // Requests go from a lower rank to a higher one, or back to the node itself; the
            // ranks are not the nodes' order, and each factory makes its requests in a random order.
            let ranks = Array(0..<count).shuffled(using: &generator)
            var planted: [Int: [Int]] = [:]
            for from in 0..<count {
                for to in 0..<count where ranks[from] < ranks[to] && Int.random(in: 0..<3, using: &generator) == 0 {
                    planted[from, default: []].append(to)
                }
                if Int.random(in: 0..<3, using: &generator) == 0 { planted[from, default: []].append(from) }
                planted[from]?.shuffle(using: &generator)
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
            let ids = graph.nodes.map(\.id)
            let position = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
            var targets = [[Int]](repeating: [], count: ids.count)
            for edge in graph.edges where edge.kind == .requests {
                targets[position[edge.from]!].append(position[edge.to]!)
            }
            // Every path that holds no node twice; the longest, and of those the first in the
            // nodes' order (by its first node, then its second...).
            var best: [Int] = []
            var stack: [[Int]] = ids.indices.map { [$0] }
            while let path = stack.popLast() {
                if path.count > best.count || (path.count == best.count && path.lexicographicallyPrecedes(best)) {
                    best = path
                }
                for next in targets[path[path.count - 1]] where !path.contains(next) { stack.append(path + [next]) }
            }
            let expected = best.count > 1 ? best.map { ids[$0] } : []
            #expect(graph.longestChain.map(\.id) == expected, "round \(round): \(graph)")
        }
    }

    @Test(
        "of chains equally long, the longest chain starts at the first node in the graph's order, then goes on to the first next node, whatever the order of the requests"
    )
    func longestChainTieBreak() throws {
        let metaController = MetaController()
        // a -> e, a -> c; b -> e, b -> d: four chains of two. The factories ask for e first.
        let requests = ["a": ["e", "c"], "b": ["e", "d"], "c": [], "d": [], "e": []]
        for (name, asks) in requests {
            metaController.register(Link.self, name: name) { metaController in
                for other in asks { _ = try metaController.make(Link.self, name: other) as Link }
                return Link()
            }
        }
        #expect(metaController.graph().longestChain.map(\.factoryName) == ["a", "c"])
        // Without a's requests: b's chains, b -> d first.
        metaController.register(Link.self, name: "a") { _ in Link() }
        #expect(metaController.graph().longestChain.map(\.factoryName) == ["b", "d"])
    }

    @Test("two types of one name are two nodes, each named with just enough of its qualified name; the counts agree with verify")
    func typesOfOneNameStayApart() throws {
        let metaController = MetaController()
        metaController.logController = FakeLogController()
        metaController.register(Feed.ViewModel.self) { _ in Feed.ViewModel() }
        metaController.register(Profile.ViewModel.self) {
            _ = try $0.make(Settings.ViewModel.self) as Settings.ViewModel
            _ = try? $0.make(Remote.A.Thing.self) as Remote.A.Thing
            _ = try? $0.make(Remote.B.Thing.self) as Remote.B.Thing
            return Profile.ViewModel()
        }
        metaController.register(Settings.ViewModel.self) { _ in Settings.ViewModel() }
        metaController.register(ImageCache.self) { _ in ImageCache() }
        metaController.register(MetaControllerTestSupport.ImageCache.self) { _ in MetaControllerTestSupport.ImageCache() }
        metaController.register(Database.self, argument: Feed.Item.self, sample: Feed.Item()) { _, _ in Database() }
        metaController.register(Database.self, argument: Profile.Item.self, sample: Profile.Item()) { _, _ in Database() }
        let graph = metaController.graph(consumers: [Feed.Screen.self, Profile.Screen.self])

        #expect(graph.verification.factoriesChecked == 7)
        #expect(
            graph.nodes.filter { $0.kind == .registration }.map(\.name) == [
                "Database from Feed.Item", "Database from Profile.Item", "Feed.ViewModel",
                "MetaControllerGraphModuleTests.ImageCache", "MetaControllerTestSupport.ImageCache", "Profile.ViewModel",
                "Settings.ViewModel",
            ])
        #expect(graph.description.hasPrefix("graph: 1 scope, 1 slot, 7 registrations, 2 consumer types, 1 problem\n"), "\(graph)")
        let fromFeed = try #require(graph.node(ID(.registration, "Database from Feed.Item")))
        #expect(fromFeed.typeName == "Database")
        #expect(fromFeed.argumentType == "Feed.Item")
        #expect(graph.node(ID(.registration, "Feed.ViewModel"))?.typeName == "Feed.ViewModel")
        #expect(
            graph.unusedRegistrations.map(\.name) == [
                "Database from Feed.Item", "Database from Profile.Item", "Feed.ViewModel",
                "MetaControllerGraphModuleTests.ImageCache", "MetaControllerTestSupport.ImageCache", "Profile.ViewModel",
            ])
        #expect(graph.dependents(of: ID(.registration, "Settings.ViewModel")).map(\.name) == ["Profile.ViewModel"])
        #expect(
            graph.dependencies(of: ID(.registration, "Profile.ViewModel")).map(\.id) == [
                ID(.registration, "Settings.ViewModel"), ID(.missingProduct, "A.Thing"), ID(.missingProduct, "B.Thing"),
            ])
        #expect(graph.node(ID(.missingProduct, "A.Thing"))?.typeName == "A.Thing")
        // Two consumer types of one name, each with its requirements and its problem.
        #expect(graph.dependencies(of: ID(.consumer, "Feed.Screen")).map(\.id) == [ID(.slot, "logController")])
        #expect(graph.dependencies(of: ID(.consumer, "Profile.Screen")).map(\.id) == [ID(.missingSlot, "apiController")])
        #expect(graph.node(ID(.consumer, "Feed.Screen"))?.problems == [])
        #expect(graph.node(ID(.consumer, "Profile.Screen"))?.problems.map(\.kind) == [.unfilledRequirement])
        // And in both pictures, a node each.
        #expect(try MermaidFlowchart(graph.mermaid).nodes.count == graph.nodes.count)
        #expect(try DOTDocument(graph.dot).nodes.count == graph.nodes.count)
    }

    @Test("two factories of one name that ask for a main-actor product off the main actor are two problems of verify, each on its own edge")
    func mainActorRequestsFromTypesOfOneName() {
        let metaController = MetaController()
        metaController.register(Banner.self) { @MainActor _ in Banner() }
        metaController.register(Feed.ViewModel.self) {
            _ = try $0.make(Banner.self) as Banner
            return Feed.ViewModel()
        }
        metaController.register(Profile.ViewModel.self) {
            _ = try $0.make(Banner.self) as Banner
            return Profile.ViewModel()
        }
        let graph = metaController.graph()
        let problems = graph.verification.problems.filter { $0.kind == .notOnMainActor }
        #expect(problems.count == 2, "\(graph.verification)")
        for name in ["Feed.ViewModel", "Profile.ViewModel"] {
            let edge = graph.edges.first { $0.from == ID(.registration, name) && $0.to == ID(.registration, "Banner") }
            #expect(edge?.problems.map(\.kind) == [.notOnMainActor], "\(name)")
        }
    }

    @Test("two missing products of one name are two problems of verify, each on its own node")
    func missingTypesOfOneName() throws {
        let metaController = MetaController()
        metaController.register(Top.self) {
            _ = try $0.make(Remote.A.Thing.self) as Remote.A.Thing
            return Top()
        }
        metaController.register(Middle.self) {
            _ = try $0.make(Remote.B.Thing.self) as Remote.B.Thing
            return Middle()
        }
        let graph = metaController.graph()
        #expect(graph.verification.problems.map(\.chain) == [["Middle", "Thing"], ["Top", "Thing"]])
        #expect(graph.node(ID(.missingProduct, "A.Thing"))?.problems.map(\.chain) == [["Top", "Thing"]])
        #expect(graph.node(ID(.missingProduct, "B.Thing"))?.problems.map(\.chain) == [["Middle", "Thing"]])
        #expect(graph.dependents(of: ID(.missingProduct, "A.Thing")).map(\.name) == ["Top"])
    }

    @Test("a parent's shared factory that requests a product only a child registers is drawn as the failed request alone")
    func aFailedRequestIsNotAlsoASuccessfulOne() throws {
        let parent = MetaController()
        parent.registerShared(Repository.self) {
            _ = try $0.make(Database.self) as Database
            return Repository()
        }
        let child = MetaController(parent: parent)
        child.register(Database.self) { _ in Database() }
        child.register(Session.self) {
            _ = try $0.make(Database.self) as Database
            return Session()
        }
        let graph = child.graph()
        #expect(
            graph.verification.problems.map(\.description) == [
                "Repository -> Database: no factory makes Database; register one with register(_:name:factory:)"
            ])
        let repository = ID(.registration, "Repository")
        let requests = graph.edges.filter { $0.from == repository }
        #expect(requests.map(\.description) == ["registration:Repository requests missingProduct:Database"])
        #expect(requests.first?.problems.map(\.kind) == [.missingFactory])
        #expect(graph.dependents(of: ID(.registration, "Database")).map(\.name) == ["Session"])
        #expect(graph.dependents(of: ID(.missingProduct, "Database")).map(\.id) == [repository])
        let chart = try MermaidFlowchart(graph.mermaid)
        #expect(chart.edges.filter { $0.from == pictureID(.registration, "Repository") }.map(\.to) == [pictureID(.missingProduct, "Database")])
    }

    @Test("a name may hold anything: Mermaid meets no directive, entity, Markdown string or style in a label, and GraphViz no control character")
    func hostileNames() throws {
        let names = [
            "%%{init: {'theme':'dark'}}%%", "%%{ unclosed", "100%", "&lt;b&gt;", "fish & chips", "`raw`", "tick`",
            "nul\u{0}byte", "esc\u{1B}[31m", "bell\u{7}", "del\u{7F}", "c1\u{9B}", "nonchar\u{FFFE}\u{FFFF}",
            "style:x#y;z", "classDef:#quot;", "\\N and \\G", "tab\there", "#quot;", "&#37;", "back\\", "a\\\"b",
            String(repeating: "long\\", count: 5_000),
        ]
        let metaController = MetaController()
        for name in names {
            metaController.register(Node.self, name: name) { _ in Node() }
        }
        metaController[DirectiveKey.self] = Cart()
        metaController[BacktickKey.self] = Cart()
        let graph = metaController.graph()
        let expected = Set(names.map { "Node named \"" + shown($0) + "\"" } + ["%%{init: {'theme':'forest'}}%%", "`cart`"])

        let chart = try MermaidFlowchart(graph.mermaid)
        #expect(Set(chart.nodes.values.map { $0.label.components(separatedBy: "\n")[0] }) == expected)
        #expect(!graph.mermaid.contains("%"), "a % outside an entity code")
        for (identifier, node) in chart.nodes {
            let name = try #require(MermaidFlowchart.node(of: identifier)?.name)
            #expect(node.label.components(separatedBy: "\n")[0] == shown(name))
        }

        let document = try DOTDocument(graph.dot)
        let labels = try Set(document.nodes.values.map { try DOTDocument.shown($0.attributes["label"] ?? "").components(separatedBy: "\n")[0] })
        #expect(labels == expected)
        #expect(document.nodes.count == names.count + 2)
    }

    @Test("names that differ only by a line break are different nodes in DOT and in Mermaid, drawn alike")
    func namesThatDifferByALineBreak() throws {
        let names = ["a\nb", "a b", "a\r\nb", "a\u{2028}b", "a\u{85}b", "a\rb"]
        let metaController = MetaController()
        for name in names {
            metaController.register(Node.self, name: name) { _ in Node() }
        }
        let graph = metaController.graph()
        #expect(graph.nodes.count == names.count)
        let document = try DOTDocument(graph.dot)
        #expect(document.nodes.count == names.count)
        #expect(Set(document.nodes.keys.compactMap { MermaidFlowchart.node(of: $0)?.name }) == Set(names.map { "Node named \"\($0)\"" }))
        #expect(try Set(document.nodes.values.map { try DOTDocument.shown($0.attributes["label"] ?? "") }) == ["Node named \"a b\"\nper request"])
        let chart = try MermaidFlowchart(graph.mermaid)
        #expect(chart.nodes.count == names.count)
        #expect(Set(chart.nodes.keys.compactMap { MermaidFlowchart.node(of: $0)?.name }) == Set(names.map { "Node named \"\($0)\"" }))
    }

    @Test(
        "a node's identifier in the pictures is its own: adding a node changes only the lines that name it, among names that differ only in punctuation or are written in other scripts"
    )
    func identifiersAreStable() throws {
        func graph(_ names: [String], asking requests: [String: String]) -> MetaControllerGraph {
            let metaController = MetaController()
            metaController.logController = FakeLogController()
            for name in names {
                let asks = requests[name]
                metaController.register(Node.self, name: name) { metaController in
                    if let asks { _ = try metaController.make(Node.self, name: asks) as Node }
                    return Node()
                }
            }
            return metaController.graph()
        }
        let names = ["api-v1", "api.v1", "api_v1", "api v1", "api  v1", "设置", "設定", "設定 2", "кэш", "x"]
        let requests = ["api-v1": "api.v1", "设置": "設定", "x": "missing"]
        let before = graph(names, asking: requests)
        for added in ["api:v1", "缓存", "api v1 ", "api_v1_"] {
            let after = graph(names + [added], asking: requests.merging([added: "api_v1"]) { $1 })
            for picture in [\MetaControllerGraph.mermaid, \MetaControllerGraph.dot] {
                let old = before[keyPath: picture].components(separatedBy: "\n")
                let new = after[keyPath: picture].components(separatedBy: "\n")
                let identifier = try #require(
                    try MermaidFlowchart(after.mermaid).nodes.keys.first { MermaidFlowchart.node(of: $0)?.name == "Node named \"\(added)\"" })
                #expect(Set(old).subtracting(new).filter { !$0.hasPrefix("  linkStyle") }.isEmpty, "\(added)")
                for line in Set(new).subtracting(old) where !line.hasPrefix("  linkStyle") {
                    #expect(line.contains(identifier), "\(added): \(line)")
                }
            }
        }
        // Every identifier reads back as its node.
        let chart = try MermaidFlowchart(before.mermaid)
        #expect(Set(chart.nodes.keys.compactMap { MermaidFlowchart.node(of: $0).map { "\($0.kind):\($0.name)" } }) == Set(before.nodes.map(\.id.description)))
    }

    @Test("each kind of node has its documented shape in both pictures, and a node where a problem arose is red in both")
    func shapesAndTheProblemClass() throws {
        let metaController = brokenGraph()
        metaController.registerShared(Database.self) { _ in Database() }
        let graph = metaController.graph(consumers: [CheckoutScreen.self, FeedScreen.self])
        let chart = try MermaidFlowchart(graph.mermaid)
        let document = try DOTDocument(graph.dot)
        let expected: [(ID, String, [String: String])] = [
            (ID(.slot, "logController"), "[()]", ["shape": "cylinder"]),
            (ID(.registration, "Database"), "[]", [:]),
            (ID(.registration, "Top"), "()", ["style": "rounded"]),
            (ID(.registration, "Flaky"), "()", ["style": "rounded", "color": "red", "penwidth": "2"]),
            (ID(.registration, "Rock"), "[]", [:]),
            (ID(.consumer, "FeedScreen"), "([])", ["shape": "oval", "color": "red", "penwidth": "2"]),
            (ID(.missingProduct, "Unregistered"), "[]", ["style": "dashed", "color": "red"]),
            (ID(.missingSlot, "locationController"), "[]", ["style": "dashed", "color": "red"]),
        ]
        for (id, shape, attributes) in expected {
            let identifier = pictureID(id.kind, id.name)
            #expect(chart.nodes[identifier]?.shape == shape, "\(id)")
            var declared = document.nodes[identifier]?.attributes ?? [:]
            declared["label"] = nil
            #expect(declared == attributes, "\(id)")
        }
        let problems = Set(
            graph.nodes.filter { !$0.problems.isEmpty && $0.kind != .missingProduct && $0.kind != .missingSlot }.map { pictureID($0.kind, $0.name) })
        #expect(problems.count == 4)   // Flaky, EagerScreen, CheckoutScreen, FeedScreen
        #expect(chart.classes["problem"] == problems)
        #expect(
            chart.classes["missing"] == Set(graph.nodes.filter { $0.kind == .missingProduct || $0.kind == .missingSlot }.map { pictureID($0.kind, $0.name) }))
        #expect(graph.mermaid.contains("\n  classDef problem stroke:#d22,stroke-width:3px\n"))
        for identifier in problems {
            #expect(document.nodes[identifier]?.attributes["color"] == "red", "\(identifier)")
        }
    }

    @Test("an edge where a problem arose is marked with the problem's kind in the text, Mermaid and DOT, and red in both pictures; other edges are not")
    func theMarksOnEdges() throws {
        let graph = brokenGraph().graph(consumers: [CheckoutScreen.self])
        let chart = try MermaidFlowchart(graph.mermaid)
        let document = try DOTDocument(graph.dot)
        let text = graph.description.components(separatedBy: "\n")
        for (index, edge) in graph.edges.enumerated() {
            let from = pictureID(edge.from.kind, edge.from.name)
            let to = pictureID(edge.to.kind, edge.to.name)
            let drawn = try #require(chart.edges.indices.first { chart.edges[$0].from == from && chart.edges[$0].to == to })
            #expect(drawn == index)
            let dotEdge = try #require(document.edges.first { $0.from == from && $0.to == to })
            let kinds = edge.problems.map(\.kind.description)
            if kinds.isEmpty {
                #expect(chart.edges[drawn].label == nil)
                #expect(dotEdge.attributes["label"] == nil && dotEdge.attributes["color"] == nil)
                #expect(!chart.styledLinks.contains(index))
            } else {
                var seen: Set<String> = []
                let mark = kinds.filter { seen.insert($0).inserted }.joined(separator: ", ")
                #expect(chart.edges[drawn].label == mark)
                #expect(dotEdge.attributes["label"] == mark)
                #expect(dotEdge.attributes["color"] == "red" && dotEdge.attributes["penwidth"] == "2")
                #expect(chart.styledLinks.contains(index))
                #expect(text.contains("    \(edge.kind) \(edge.to.name) [\(mark)]"), "\(edge)")
            }
        }
        #expect(graph.edges.filter { !$0.problems.isEmpty }.count == 6)   // the circle's three, the missing, the main actor's, the requirement
    }

    @Test("a request a product makes on its arrival belongs to its registration when the verification made it, to the factory that asked for it otherwise")
    func requestsOnArrivalBelongToTheirRegistration() throws {
        final class Alpha: MetaControllerConsumer {
            var metaController: MetaController?
            func metaControllerDidArrive() { _ = try? metaController?.make(Database.self) as Database? }
        }
        final class Omega: MetaControllerConsumer {
            var metaController: MetaController?
            func metaControllerDidArrive() {
                _ = try? metaController?.make(Session.self) as Session?
                _ = try? metaController?.make(Analytics.self) as Analytics?
            }
        }
        final class Zeta: MetaControllerConsumer {
            var metaController: MetaController?
            func metaControllerDidArrive() { _ = try? metaController?.make(Database.self) as Database? }
        }
        let metaController = MetaController()
        metaController.register(Alpha.self) { _ in Alpha() }
        metaController.registerShared(Database.self) { _ in Database() }
        // Made by Link's factory, which is still running when Zeta arrives.
        metaController.register(Link.self) {
            _ = try $0.make(Zeta.self) as Zeta
            return Link()
        }
        metaController.register(Middle.self) { _ in Middle() }
        metaController.register(Omega.self) { _ in Omega() }
        metaController.register(Session.self) { _ in Session() }
        metaController.register(Zeta.self) { _ in Zeta() }
        let graph = metaController.graph()
        #expect(
            graph.edges.map(\.description) == [
                "registration:Alpha requests registration:Database",
                "registration:Link requests registration:Database",
                "registration:Link requests registration:Zeta",
                "registration:Omega requests registration:Session",
                "registration:Omega requests missingProduct:Analytics",
            ])
    }

    @Test("a slot filled in two scopes is the nearer scope's: its value's type, its scope and its requirements")
    func theNearestScopeFillsASlot() throws {
        final class FarTracker: MetaControllerConsumer, Sendable {
            static let requiredControllers: [MetaControllerSlot] = [.api]
            var metaController: MetaController? {
                get { nil }
                set {}
            }
        }
        final class NearTracker: MetaControllerConsumer, Sendable {
            static let requiredControllers: [MetaControllerSlot] = [.location]
            var metaController: MetaController? {
                get { nil }
                set {}
            }
        }
        let parent = MetaController()
        parent[TrackerKey.self] = FarTracker()
        parent.locationController = FakeLocationController()
        let child = MetaController(parent: parent)
        child[TrackerKey.self] = NearTracker()
        let graph = child.graph()
        let trackers = graph.nodes.filter { $0.kind == .slot && $0.name.hasPrefix("tracker") }
        #expect(trackers.map(\.name) == ["tracker"])
        #expect(trackers.map(\.typeName) == ["NearTracker"])
        #expect(trackers.map(\.scope) == [0])
        #expect(graph.dependencies(of: ID(.slot, "tracker")).map(\.id) == [ID(.slot, "locationController")])
        #expect(graph.node(ID(.slot, "locationController"))?.scope == 1)
    }

    @Test("each node's description and typeName are the documented ones, for every kind")
    func nodeDescriptionsAndTypeNames() throws {
        final class TwiceEager: MetaControllerConsumer {
            var metaController: MetaController?
            func metaControllerDidArrive() {
                _ = locationController
                _ = dataController
            }
        }
        let metaController = try showcase()
        metaController.register(TwiceEager.self) { _ in TwiceEager() }
        metaController.register(Top.self) {
            _ = try? $0.make(Analytics.self, name: "remote") as Analytics
            return Top()
        }
        let graph = metaController.graph(consumers: [FeedScreen.self, HomeScreen.self])
        let expected: [(ID, String, String?)] = [
            (ID(.slot, "logController"), "slot logController (FakeLogController, scope 1)", "FakeLogController"),
            (ID(.slot, "cart"), "slot cart (Cart, scope 1)", "Cart"),
            (ID(.registration, "Database"), "registration Database (shared, scope 1)", "Database"),
            (ID(.registration, "PrefetchedCache"), "registration PrefetchedCache (shared, made before, scope 1)", "PrefetchedCache"),
            (ID(.registration, "Repository named \"cached\""), "registration Repository named \"cached\" (per request, scope 0)", "Repository"),
            (ID(.registration, "DetailScreen from Item"), "registration DetailScreen from Item (per request, scope 0)", "DetailScreen"),
            (ID(.registration, "TwiceEager"), "registration TwiceEager (per request, scope 0, 2 problems)", "TwiceEager"),
            (ID(.consumer, "FeedScreen"), "consumer FeedScreen (1 problem)", "FeedScreen"),
            (ID(.missingProduct, "Analytics"), "missingProduct Analytics", "Analytics"),
            (ID(.missingProduct, "Analytics named \"remote\""), "missingProduct Analytics named \"remote\"", "Analytics"),
            (ID(.missingSlot, "locationController"), "missingSlot locationController", nil),
        ]
        for (id, description, typeName) in expected {
            let node = try #require(graph.node(id), "\(id) in \(graph)")
            #expect(node.description == description)
            #expect(node.typeName == typeName, "\(id)")
        }
        #expect(graph.node(ID(.registration, "Repository named \"cached\""))?.factoryName == "cached")
        #expect(graph.node(ID(.registration, "Database"))?.factoryName == nil)
        #expect(graph.node(ID(.missingProduct, "Analytics named \"remote\""))?.factoryName == nil)
        #expect(graph.node(ID(.missingProduct, "Analytics named \"remote\""))?.argumentType == nil)
        #expect(graph.node(ID(.consumer, "FeedScreen"))?.lifetime == nil)
    }

    @Test("node identities are ordered by kind, then by name, and no identity comes before itself")
    func nodeIdentitiesAreOrderedByKindThenName() {
        let registration = ID(.registration, "Database")
        #expect(!(registration < registration))
        #expect(!(ID(.slot, "a") < ID(.slot, "a")))
        #expect(ID(.slot, "b") < ID(.slot, "c") && !(ID(.slot, "c") < ID(.slot, "b")))
        // Kind first: every slot before every registration, whatever the names.
        #expect(ID(.slot, "z") < ID(.registration, "a"))
        #expect(
            [ID(.registration, "b"), ID(.slot, "b"), ID(.registration, "a"), ID(.slot, "a")].sorted()
                == [ID(.slot, "a"), ID(.slot, "b"), ID(.registration, "a"), ID(.registration, "b")])
    }

    // MARK: Parts of a graph

    @Test("a part of the graph is the nodes a predicate keeps and the edges between them, counted and drawn on its own")
    func filterMakesAPart() throws {
        let graph = try showcase().graph(consumers: [FeedScreen.self, HomeScreen.self])
        let whole = graph.filter { _ in true }
        #expect(whole.nodes == graph.nodes && whole.edges == graph.edges)
        #expect(whole.description == graph.description)
        #expect(whole.mermaid == graph.mermaid && whole.dot == graph.dot)

        let parent = graph.filter { $0.scope == 1 }
        #expect(parent.nodes.map(\.id) == graph.nodes.filter { $0.scope == 1 }.map(\.id))
        #expect(parent.verification == graph.verification)
        #expect(
            parent.description == """
                graph: 1 scope, 2 slots, 2 registrations, 0 consumer types, 0 problems
                scope 1: parent 1
                  slot cart: Cart
                  slot logController: FakeLogController
                  registration Database (shared)
                  registration PrefetchedCache (shared, made before)
                """, "\(parent)")
        let chart = try MermaidFlowchart(parent.mermaid)
        #expect(Set(chart.subgraphLabels.keys) == ["scope_1"])
        #expect(chart.nodes.count == 4)
        #expect(chart.edges.isEmpty)
        let document = try DOTDocument(parent.dot)
        #expect(Set(document.subgraphs.keys) == ["cluster_1"])
        #expect(document.nodes.count == 4)
        // In the part, nothing asks for the database: the repository that does is outside it.
        #expect(parent.unusedRegistrations.map(\.name) == ["Database"])

        // A feature's registrations, with the problems on them and the edges among them.
        let feature = graph.filter { $0.name.hasPrefix("Repository") || $0.name == "Session" || $0.name == "Analytics" }
        #expect(
            feature.nodes.map(\.id.description) == [
                "registration:Repository", "registration:Repository named \"cached\"", "registration:Session",
                "missingProduct:Analytics",
            ])
        #expect(
            feature.edges.map(\.description) == [
                "registration:Session requests registration:Repository",
                "registration:Session requests missingProduct:Analytics",
            ])
        #expect(feature.longestChain.map(\.name) == ["Session", "Repository"])
        #expect(
            try MermaidFlowchart(feature.mermaid).edges.map(\.to) == [
                pictureID(.registration, "Repository"), pictureID(.missingProduct, "Analytics"),
            ])
        let broken = brokenGraph().graph(consumers: [CheckoutScreen.self])
        let circle = broken.filter { ["Rock", "Paper", "Scissors"].contains($0.name) }
        #expect(circle.description.hasPrefix("graph: 1 scope, 0 slots, 3 registrations, 0 consumer types, 1 problem\n"), "\(circle)")
        #expect(try MermaidFlowchart(circle.mermaid).styledLinks == [0, 1, 2])
        #expect(broken.filter { $0.kind == .consumer }.description.hasPrefix("graph: 0 scopes, 0 slots, 0 registrations, 1 consumer type, 1 problem\n"))
        #expect(broken.filter { _ in false }.nodes.isEmpty)
        #expect(try MermaidFlowchart(broken.filter { _ in false }.mermaid).nodes.isEmpty)
    }

    @Test("the neighbourhood of a node is every node within so many edges of it, whichever way they point, and the edges between them")
    func neighborhoodOfANode() throws {
        // A -> B -> C -> D -> E, F -> C.
        let metaController = MetaController()
        let requests = ["A": ["B"], "B": ["C"], "C": ["D"], "D": ["E"], "E": [], "F": ["C"]]
        for (name, asks) in requests {
            metaController.register(Link.self, name: name) { metaController in
                for other in asks { _ = try metaController.make(Link.self, name: other) as Link }
                return Link()
            }
        }
        let graph = metaController.graph()
        func id(_ name: String) -> ID { ID(.registration, "Link named \"\(name)\"") }
        func names(_ part: MetaControllerGraph) -> [String] { part.nodes.map { $0.factoryName ?? $0.name } }
        #expect(names(graph.neighborhood(of: id("C"), within: 0)) == ["C"])
        #expect(names(graph.neighborhood(of: id("C"))) == ["B", "C", "D", "F"])
        #expect(graph.neighborhood(of: id("C")).edges.count == 3)
        #expect(names(graph.neighborhood(of: id("C"), within: 2)) == ["A", "B", "C", "D", "E", "F"])
        #expect(names(graph.neighborhood(of: id("A"), within: 2)) == ["A", "B", "C"])
        #expect(names(graph.neighborhood(of: id("C"), within: -3)) == ["C"])
        #expect(graph.neighborhood(of: id("nobody"), within: 5).nodes.isEmpty)
        #expect(graph.neighborhood(of: id("C"), within: 9).nodes == graph.nodes)

        // Against distances counted by an independent search, on seeded random graphs.
        var generator = SeededGenerator(seed: 8)
        for round in 0..<60 {
            let count = Int.random(in: 1...9, using: &generator)
            let random = MetaController()
            for index in 0..<count {
                let asks = (0..<count).filter { _ in Int.random(in: 0..<4, using: &generator) == 0 }
                random.register(Link.self, name: "n\(index)") { metaController in
                    for other in asks { _ = try? metaController.make(Link.self, name: "n\(other)") as Link }
                    return Link()
                }
            }
            let randomGraph = random.graph()
            let ids = randomGraph.nodes.map(\.id)
            let start = ids[Int.random(in: 0..<ids.count, using: &generator)]
            let distance = Int.random(in: 0...3, using: &generator)
            var within: Set<ID> = [start]
            for _ in 0..<distance {
                let ring = within
                for edge in randomGraph.edges where ring.contains(edge.from) || ring.contains(edge.to) {
                    within.formUnion([edge.from, edge.to])
                }
            }
            let part = randomGraph.neighborhood(of: start, within: distance)
            #expect(Set(part.nodes.map(\.id)) == within, "round \(round)")
            #expect(part.edges.count == randomGraph.edges.filter { within.contains($0.from) && within.contains($0.to) }.count, "round \(round)")
        }
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
