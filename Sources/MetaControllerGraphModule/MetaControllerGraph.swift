public import MetaControllerCore

/// What a MetaController holds, makes and needs, as a value: its slots, its
/// registrations and what each requested while it was made, the consumer types
/// checked and the slots each requires, and every problem where it arose.
///
/// Made by ``MetaController/graph(consumers:samples:)``, which verifies the
/// graph as ``MetaController/verify(consumers:samples:)`` does and keeps what
/// it saw. Draw it with ``mermaid`` or ``dot``, read it as text
/// (``description``), or ask it what a reviewer asks: ``unusedRegistrations``,
/// ``dependents(of:)`` and ``longestChain``. Draw a part of a big one
/// (``filter(_:)``, ``neighborhood(of:within:)``): a Mermaid viewer draws at
/// most 50,000 characters and 500 edges with its default settings.
///
/// ```swift
/// let graph = AppGraph.make().graph(consumers: [FeedScreen.self, CheckoutScreen.self])
/// print(graph.mermaid)   // paste into a Markdown file: GitHub draws it
/// ```
///
/// Everything is in a stable order (nodes by kind, then name; edges by their
/// ends), so two graphs of the same MetaController print the same text, and a
/// test can compare ``description`` with a file kept in the repository
/// (Docs/SeeingTheGraph.md shows the pattern).
public struct MetaControllerGraph: Sendable, Equatable, CustomStringConvertible {
    /// One thing in the graph: a slot, a registration, a consumer type, or a
    /// product or slot that something needed and nothing provides.
    public struct Node: Sendable, Equatable, Identifiable, CustomStringConvertible {
        /// What a node stands for.
        public struct Kind: Hashable, Sendable, Comparable, CustomStringConvertible {
            private let rank: Int
            private let name: String

            private init(_ rank: Int, _ name: String) {
                self.rank = rank
                self.name = name
            }

            /// A filled slot: a built-in controller or a custom key's value.
            public static let slot = Kind(0, "slot")
            /// A registered factory, shared or per request.
            public static let registration = Kind(1, "registration")
            /// A consumer type listed in `consumers` that no registration makes.
            public static let consumer = Kind(2, "consumer")
            /// A product a factory requested and no factory makes.
            public static let missingProduct = Kind(3, "missingProduct")
            /// A slot a consumer requires and the MetaController does not fill.
            public static let missingSlot = Kind(4, "missingSlot")

            /// The kind's name, such as `registration`.
            public var description: String { name }

            /// Slots first, then registrations, consumers, missing products and missing slots.
            public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rank < rhs.rank }

            /// Whether the two are the same kind (each kind has a rank of its own).
            public static func == (lhs: Kind, rhs: Kind) -> Bool { lhs.rank == rhs.rank }

            /// Hashes the kind's rank.
            public func hash(into hasher: inout Hasher) { hasher.combine(rank) }
        }

        /// A node's identity: its kind and its name.
        ///
        /// No two nodes of one kind in a graph share a name: a node stands for
        /// a slot's key, a registration's type, name and argument type, or a
        /// consumer type, and two of those are never one node because their
        /// names are equal. A type is named as Swift writes it (`ViewModel`)
        /// where no other type of the graph has that name, and with just
        /// enough of its qualified name to tell them apart where one does
        /// (`FeedScreen.ViewModel` and `ProfileScreen.ViewModel`, or
        /// `FeatureA.ViewModel` and `FeatureB.ViewModel` for one name in two
        /// modules); two slots' keys of one name are `cart` and `cart #2`.
        public struct ID: Hashable, Sendable, Comparable, CustomStringConvertible {
            /// What the node stands for.
            public let kind: Kind
            /// The slot's name (`apiController`), or the registration's key as
            /// problems name it (`DetailScreen named "B" from Item`), or the
            /// consumer's type, each type with enough of its qualified name to
            /// tell it from another type of the same name in the graph.
            public let name: String

            /// The identity of the node of kind `kind` named `name`.
            public init(_ kind: Kind, _ name: String) {
                self.kind = kind
                self.name = name
            }

            /// `kind:name`, such as `slot:apiController`, on one line: a line break
            /// in the name is a space and a control character its escape, `\u{1B}`.
            public var description: String { MetaControllerGraph.shown(kind.description + ":" + name) }

            /// By kind, then by name.
            public static func < (lhs: ID, rhs: ID) -> Bool {
                lhs.kind != rhs.kind ? lhs.kind < rhs.kind : lhs.name < rhs.name
            }
        }

        /// How long a registration's product lives.
        public enum Lifetime: String, Sendable, Equatable {
            /// One product, made on the first request and kept (`registerShared`).
            case shared
            /// A new product on every request (`register`).
            case perRequest
        }

        /// The node's identity.
        public let id: ID
        /// The index in ``MetaControllerGraph/scopes`` of the MetaController
        /// that fills the slot or holds the registration; `nil` for consumers
        /// and missing nodes.
        public let scope: Int?
        /// For a slot, the concrete type of the value it holds; for a
        /// registration or a missing product, the product type (`Analytics`
        /// for `Analytics named "remote"`); for a consumer, its type; `nil`
        /// for a missing slot. Named as ``ID/name`` names types.
        public let typeName: String?
        /// A registration's name (`register(_:name:factory:)`), when it has one;
        /// `nil` for other kinds.
        public let factoryName: String?
        /// The type of a registration's argument, when it takes one; `nil` for other kinds.
        public let argumentType: String?
        /// A registration's lifetime; `nil` for other kinds.
        public let lifetime: Lifetime?
        /// Whether a shared registration's product was made before the graph
        /// was drawn: it is not made again, so it is not verified, and the
        /// products it requested are not known.
        public let wasMadeBefore: Bool
        /// Whether a registration's factory is async (`register` or
        /// `registerShared` with an `async` factory, whose product
        /// ``MetaController/product(_:name:isolation:)`` requests): the
        /// pictures and the text say `async` after its lifetime. `false` for other kinds.
        public let isAsync: Bool
        /// The problems that arose at this node: a factory that threw, a
        /// missing product, a consumer's unfilled requirements.
        public let problems: [MetaControllerVerification.Problem]

        /// The node's kind.
        public var kind: Kind { id.kind }
        /// The node's name.
        public var name: String { id.name }

        /// One line: the kind, the name and what is known of it, such as
        /// `registration CheckoutScreen (per request, scope 0)`: the lifetime,
        /// `async`, `made before`, a slot's value's type, the scope and the number of
        /// problems, those that apply, in that order (`slot logController
        /// (StandardLogController, scope 1)`, `consumer FeedScreen (1 problem)`).
        /// A line break in a name is a space, and a control character its
        /// escape, `\u{1B}`, as in ``MetaControllerGraph/description``.
        public var description: String {
            var facts: [String] = []
            if let lifetime { facts.append(lifetime == .shared ? "shared" : "per request") }
            if isAsync { facts.append("async") }
            if wasMadeBefore { facts.append("made before") }
            if kind == .slot, let typeName { facts.append(typeName) }
            if let scope { facts.append("scope \(scope)") }
            if !problems.isEmpty { facts.append(problems.count == 1 ? "1 problem" : "\(problems.count) problems") }
            return MetaControllerGraph.shown(kind.description + " " + name + (facts.isEmpty ? "" : " (\(facts.joined(separator: ", ")))"))
        }
    }

    /// What one node needed of another.
    public struct Edge: Sendable, Equatable, CustomStringConvertible {
        /// What an edge stands for.
        public struct Kind: Hashable, Sendable, Comparable, CustomStringConvertible {
            private let rank: Int
            private let name: String

            private init(_ rank: Int, _ name: String) {
                self.rank = rank
                self.name = name
            }

            /// A registration's factory requested a product while it was made.
            public static let requests = Kind(0, "requests")
            /// A consumer, a registration whose product is a consumer, or a
            /// controller in a slot that is a consumer requires a slot
            /// (``MetaControllerConsumer/requiredControllers``).
            public static let requires = Kind(1, "requires")

            /// The kind's name, such as `requests`.
            public var description: String { name }

            /// Requests first, then requirements.
            public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rank < rhs.rank }

            /// Whether the two are the same kind (each kind has a rank of its own).
            public static func == (lhs: Kind, rhs: Kind) -> Bool { lhs.rank == rhs.rank }

            /// Hashes the kind's rank.
            public func hash(into hasher: inout Hasher) { hasher.combine(rank) }
        }

        /// The node that needed.
        public let from: Node.ID
        /// The node it needed.
        public let to: Node.ID
        /// What the need was.
        public let kind: Kind
        /// The problems that arose on this edge: factories requesting each
        /// other in a circle, a missing product, a main-actor factory
        /// requested off the main actor, a required slot left empty.
        public let problems: [MetaControllerVerification.Problem]

        /// `from kind to`, such as `registration:Checkout requests registration:Payment`.
        public var description: String { from.description + " " + kind.description + " " + to.description }
    }

    /// The MetaControllers the graph was drawn from, the one asked first
    /// (`MetaController`), then its parents (`parent 1`, `parent 2`, ...).
    public let scopes: [String]
    /// Every node, by kind, then by name.
    public let nodes: [Node]
    /// Every edge, by the node it leaves, then by kind (requests first), then by the node it reaches.
    public let edges: [Edge]
    /// The verification the graph was drawn from: its problems, one per cause, and its counts.
    public let verification: MetaControllerVerification
    /// The registrations whose product type is one of the consumer types listed.
    let listedRegistrations: Set<Node.ID>
    /// Each edge's ends as positions in ``nodes``, in the order of ``edges``:
    /// the pictures look nodes up by position, not by hashing their names.
    let ends: [Ends]
    /// For each node, in the order of ``nodes``, the consumer type whose
    /// requirements were checked there: what a part counts as its consumer types.
    let consumerTypes: [ObjectIdentifier?]
    /// Whether this is a part of a graph (``filter(_:)``, ``neighborhood(of:within:)``):
    /// its text counts what it shows, and its pictures leave out the scopes it holds no node of.
    let isPart: Bool

    init(
        scopes: [String], nodes: [Node], edges: [Edge], verification: MetaControllerVerification,
        listedRegistrations: Set<Node.ID>, ends: [Ends], consumerTypes: [ObjectIdentifier?], isPart: Bool = false
    ) {
        self.scopes = scopes
        self.nodes = nodes
        self.edges = edges
        self.verification = verification
        self.listedRegistrations = listedRegistrations
        self.ends = ends
        self.consumerTypes = consumerTypes
        self.isPart = isPart
    }

    /// The positions in ``nodes`` of an edge's ends.
    struct Ends: Sendable, Equatable {
        let from: Int
        let to: Int
    }

    /// The node with identity `id`, if the graph has one.
    public func node(_ id: Node.ID) -> Node? {
        nodes.first { $0.id == id }
    }

    /// The nodes that need the node `id`: the registrations that requested
    /// its product, or the consumers that require its slot. The reverse of
    /// ``dependencies(of:)``, in the order of ``nodes``.
    public func dependents(of id: Node.ID) -> [Node] {
        let from = Set(edges.lazy.filter { $0.to == id }.map(\.from))
        return nodes.filter { from.contains($0.id) }
    }

    /// The nodes the node `id` needs: the products its factory requested and
    /// the slots it requires, in the order of ``nodes``.
    public func dependencies(of id: Node.ID) -> [Node] {
        let to = Set(edges.lazy.filter { $0.from == id }.map(\.to))
        return nodes.filter { to.contains($0.id) }
    }

    /// The registrations nothing verified asked for: no factory requested
    /// their product, and their product type is not one of the consumer types
    /// listed. An entry point the app makes itself (a root screen) shows here
    /// unless it is listed in `consumers`. A shared product made before the
    /// graph was drawn is left out: something asked for it.
    public var unusedRegistrations: [Node] {
        let requested = Set(edges.lazy.filter { $0.kind == .requests }.map(\.to))
        return nodes.filter {
            $0.kind == .registration && !$0.wasMadeBefore && !requested.contains($0.id)
                && !listedRegistrations.contains($0.id)
        }
    }

    /// The longest chain of requests: each node's factory requested the next
    /// one's product. Of chains equally long, the one that starts first in
    /// ``nodes``, and then goes on to the first next node in ``nodes``
    /// (whatever the order the factory made its requests in).
    ///
    /// A chain does not go round a circle, and never holds a node twice: the
    /// nodes are walked depth first, from those nothing requested, in the
    /// order of ``nodes`` (then from any left, in that order), and a request
    /// back to a node on the walk's current path is left out, a factory's
    /// request for its own product first of all. With no circle, this is the
    /// longest path of requests in the graph. Empty when no factory requested
    /// another's product.
    ///
    /// The walk keeps a stack of its own, so a chain of any length takes no
    /// more of the thread's stack than a short one, and visits each node and
    /// each request once: its time grows with the graph, circles or not.
    /// (The longest chain that avoids every circle whatever the walk's order
    /// is the longest simple path, a problem no known method solves in less
    /// than exponential time.)
    public var longestChain: [Node] {
        let ids = nodes.map(\.id)
        let position = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        var outgoing = [[Int]](repeating: [], count: ids.count)
        var requested = [Bool](repeating: false, count: ids.count)
        for edge in edges where edge.kind == .requests {
            guard let from = position[edge.from], let to = position[edge.to] else { continue }
            outgoing[from].append(to)
            requested[to] = true
        }
        // ``edges`` are in the order of the nodes they reach, so each node's
        // targets are too: the first next node of equal chains is the first here.
        // An iterative depth-first walk (nothing recurses per node): the
        // nodes finish children first, so each one's longest chain below is
        // known when it finishes.
        enum Mark { case unvisited, onPath, finished }
        var marks = [Mark](repeating: .unvisited, count: ids.count)
        var length = [Int](repeating: 0, count: ids.count)
        var next = [Int?](repeating: nil, count: ids.count)
        let starts = ids.indices.filter { !requested[$0] } + ids.indices.filter { requested[$0] }
        for start in starts where marks[start] == .unvisited {
            var path: [(node: Int, child: Int)] = [(start, 0)]
            marks[start] = .onPath
            while let (node, child) = path.last {
                if child < outgoing[node].count {
                    path[path.count - 1].child += 1
                    let target = outgoing[node][child]
                    if marks[target] == .unvisited {
                        marks[target] = .onPath
                        path.append((target, 0))
                    }
                    continue
                }
                path.removeLast()
                length[node] = 1
                for target in outgoing[node] where marks[target] == .finished && length[target] + 1 > length[node] {
                    // A target on the path (a request back round a circle, the
                    // node itself among them: it is finished only below) is left out.
                    length[node] = length[target] + 1
                    next[node] = target
                }
                marks[node] = .finished
            }
        }
        // `max(by:)` keeps the first of equal elements: the chain that starts first.
        guard let first = ids.indices.max(by: { length[$0] < length[$1] }),
            length[first] > 1
        else { return [] }
        // Each next node's chain is one shorter, so this ends; the bound makes
        // sure of it (a node's own request once made it point at itself).
        var chain: [Node] = []
        var current: Int? = first
        while let index = current, chain.count < nodes.count {
            chain.append(nodes[index])
            current = next[index]
        }
        return chain
    }
}
