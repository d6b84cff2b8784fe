import MetaControllerCore

/// Puts a ``MetaControllerGraph`` together: nodes interned as numbers under
/// their identities (a slot's key, a registration's ``FactoryKey``, a
/// consumer's type), edges between numbers, then named and sorted once.
/// (Keyed and sorted by their names, a graph of 500 services spent most of
/// its time copying and comparing strings.)
///
/// A node is what it stands for, never its name: two types of one name
/// (`FeedScreen.ViewModel`, `ProfileScreen.ViewModel`) are two nodes, which
/// ``GraphTypeNames`` then names apart.
struct GraphBuilder {
    typealias Node = MetaControllerGraph.Node
    typealias Edge = MetaControllerGraph.Edge
    typealias PlacedProblem = MetaController.PlacedProblem

    /// What a node stands for.
    enum Identity: Hashable {
        case slot(ObjectIdentifier)
        case registration(FactoryKey)
        case consumer(ObjectIdentifier)
        case missingProduct(FactoryKey)
        case missingSlot(ObjectIdentifier)

        var kind: Node.Kind {
            switch self {
            case .slot: .slot
            case .registration: .registration
            case .consumer: .consumer
            case .missingProduct: .missingProduct
            case .missingSlot: .missingSlot
            }
        }
    }

    private struct EdgeKey: Hashable {
        let from: Int
        let to: Int
        /// 0 for a request, 1 for a requirement: the order of ``MetaControllerGraph/Edge/Kind``.
        let kind: Int
    }

    private struct NodeFacts {
        var scope: Int?
        /// A slot's name, or a missing slot's; the others are named from their types.
        var name: String?
        /// A slot's value's type, or a consumer's type.
        var type: (any Any.Type)?
        var lifetime: Node.Lifetime?
        var wasMadeBefore = false
        var isAsync = false
        /// The consumer type whose requirements were checked at this node.
        var consumerType: ObjectIdentifier?
        var problems: [MetaControllerVerification.Problem] = []
    }

    let report: MetaControllerVerification
    private var identities: [Identity] = []
    private var facts: [NodeFacts] = []
    private var numbers: [Identity: Int] = [:]
    private var edges: [EdgeKey: [MetaControllerVerification.Problem]] = [:]
    private var slotNames: Set<String> = []
    private var listedRegistrations: Set<Int> = []
    /// The registration of each type alone verified: the one a listed consumer type is drawn as.
    var registrationsByType: [ObjectIdentifier: FactoryKey] = [:]
    private var lastRequester: (key: FactoryKey, node: Int)?

    init(report: MetaControllerVerification) {
        self.report = report
    }

    mutating func reserve(nodes: Int, edges: Int) {
        numbers.reserveCapacity(nodes)
        identities.reserveCapacity(nodes)
        facts.reserveCapacity(nodes)
        self.edges.reserveCapacity(edges)
    }

    /// The number of the node that stands for `identity`, added with `new` facts when it is not there yet.
    @discardableResult
    private mutating func intern(_ identity: Identity, _ new: @autoclosure () -> NodeFacts = NodeFacts()) -> Int {
        if let number = numbers[identity] { return number }
        numbers[identity] = identities.count
        identities.append(identity)
        facts.append(new())
        return identities.count - 1
    }

    /// Adds the slot of `key`, named `name`, or `name #2`, `name #3`... when
    /// another key's slot has that name.
    mutating func addSlot(_ key: ObjectIdentifier, name: String, scope: Int, valueType: (any Any.Type)?) {
        var candidate = name
        var count = 1
        while slotNames.contains(candidate) {
            count += 1
            candidate = "\(name) #\(count)"
        }
        slotNames.insert(candidate)
        intern(.slot(key), NodeFacts(scope: scope, name: candidate, type: valueType))
    }

    mutating func addRegistration(
        _ key: FactoryKey, scope: Int?, lifetime: Node.Lifetime, wasMadeBefore: Bool, isAsync: Bool
    ) {
        intern(
            .registration(key),
            NodeFacts(scope: scope, lifetime: lifetime, wasMadeBefore: wasMadeBefore, isAsync: isAsync))
    }

    /// Marks the registration of `key` as making a consumer type listed.
    mutating func listed(_ key: FactoryKey) {
        listedRegistrations.insert(intern(.registration(key)))
    }

    /// The node of a consumer `type` whose requirements were checked: the
    /// registration that made it, or the registration of the type alone, or a
    /// consumer node of its own.
    mutating func addConsumer(_ type: any MetaControllerConsumer.Type, madeBy: FactoryKey?) -> Identity {
        let identity: Identity
        if let madeBy {
            identity = .registration(madeBy)
        } else if let key = registrationsByType[ObjectIdentifier(type)] {
            identity = .registration(key)
        } else {
            identity = .consumer(ObjectIdentifier(type))
        }
        let number = intern(identity, NodeFacts(type: type))
        facts[number].consumerType = ObjectIdentifier(type)
        return identity
    }

    /// The factory of the registration `from` requested the product `to`:
    /// its registration when the request `found` one, the missing product otherwise.
    mutating func request(from: FactoryKey, to: FactoryKey, found: Bool) {
        // A factory's requests are recorded one after the other: its node is looked up once.
        let source: Int
        if let last = lastRequester, last.key == from {
            source = last.node
        } else {
            source = intern(.registration(from))
            lastRequester = (from, source)
        }
        let target = intern(found ? .registration(to) : .missingProduct(to))
        edges[EdgeKey(from: source, to: target, kind: 0), default: []] += []
    }

    /// The node `from` requires `slot`: filled, or missing.
    mutating func requirement(from: Identity, to slot: MetaControllerSlot, filled: Bool) {
        let source = intern(from)
        let key = slot.id
        let target = intern(filled ? .slot(key) : .missingSlot(key), NodeFacts(name: slot.name))
        edges[EdgeKey(from: source, to: target, kind: 1), default: []] += []
    }

    /// Attaches each problem to the node or the edges where it arose, found
    /// by the keys and the consumer type it is about.
    mutating func place(_ problems: [PlacedProblem]) {
        for placed in problems {
            let problem = placed.problem
            let keys = placed.keys
            switch problem.kind {
            case .missingFactory:
                guard let last = keys.last else { continue }
                let missing = intern(.missingProduct(last))
                facts[missing].problems.append(problem)
                if keys.count >= 2 { attach(problem, from: intern(.registration(keys[keys.count - 2])), to: missing) }
            case .circularFactories, .notOnMainActor, .asyncFactory:
                guard keys.count >= 2 else {
                    if let last = keys.last { facts[intern(.registration(last))].problems.append(problem) }
                    continue
                }
                let pairs = problem.kind == .circularFactories ? Array(keys.indices.dropFirst()) : [keys.count - 1]
                for index in pairs {
                    attach(problem, from: intern(.registration(keys[index - 1])), to: intern(.registration(keys[index])))
                }
            case .unfilledRequirement:
                let source: Int
                if let key = keys.first {
                    source = intern(.registration(key))
                } else if let consumer = placed.consumer {
                    source = intern(registrationsByType[consumer].map { .registration($0) } ?? .consumer(consumer))
                } else {
                    continue
                }
                facts[source].problems.append(problem)
                for key in edges.keys where key.from == source && identities[key.to].kind == .missingSlot {
                    edges[key]?.append(problem)
                }
            default:
                guard let last = keys.last else { continue }
                facts[intern(.registration(last))].problems.append(problem)
            }
        }
    }

    private mutating func attach(_ problem: MetaControllerVerification.Problem, from: Int, to: Int) {
        edges[EdgeKey(from: from, to: to, kind: 0), default: []].append(problem)
    }

    /// The types the nodes show, for ``GraphTypeNames``.
    private var typesShown: [any Any.Type] {
        var types: [any Any.Type] = []
        types.reserveCapacity(identities.count)
        for (identity, facts) in zip(identities, facts) {
            switch identity {
            case .registration(let key), .missingProduct(let key):
                types.append(key.productType)
                if key.takesArgument { types.append(key.argumentType) }
            case .slot, .consumer, .missingSlot:
                if let type = facts.type { types.append(type) }
            }
        }
        return types
    }

    /// Each node's name, kind by kind unique: a slot's own (already unique), a
    /// registration's or a missing product's key described with the types'
    /// names, a consumer's type's name; then, for names still shared, ` #2`,
    /// ` #3` in the order of the nodes' qualified descriptions.
    private func names(_ typeNames: GraphTypeNames) -> [String] {
        func described(_ key: FactoryKey, _ typeName: (any Any.Type) -> String) -> String {
            var text = typeName(key.productType)
            if let name = key.name { text += " named \"\(name)\"" }
            if key.takesArgument { text += " from " + typeName(key.argumentType) }
            return text
        }
        var names = zip(identities, facts).map { identity, facts -> String in
            switch identity {
            case .registration(let key), .missingProduct(let key): described(key, typeNames.name(of:))
            case .consumer: facts.type.map(typeNames.name(of:)) ?? "?"
            case .slot, .missingSlot: facts.name ?? "?"
            }
        }
        var byName: [Node.ID: [Int]] = [:]
        for index in names.indices { byName[Node.ID(identities[index].kind, names[index]), default: []].append(index) }
        for (id, indices) in byName where indices.count > 1 {
            func qualified(_ index: Int) -> String {
                switch identities[index] {
                case .registration(let key), .missingProduct(let key): described(key) { String(reflecting: $0) }
                case .consumer: facts[index].type.map { String(reflecting: $0) } ?? ""
                case .slot(let key), .missingSlot(let key): String(reflecting: MetaController.typeIdentified(by: key))
                }
            }
            let ordered = indices.map { ($0, qualified($0)) }.sorted { $0.1 < $1.1 }
            for (position, entry) in ordered.enumerated() where position > 0 {
                names[entry.0] = id.name + " #\(position + 1)"
            }
        }
        return names
    }

    func graph(scopes: [String]) -> MetaControllerGraph {
        let typeNames = GraphTypeNames(typesShown)
        let names = names(typeNames)
        let ids = zip(identities, names).map { Node.ID($0.kind, $1) }
        // Each node's place in the sorted order, then the edges by those places.
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        var place = [Int](repeating: 0, count: ids.count)
        for (position, number) in order.enumerated() { place[number] = position }
        let sortedNodes = order.map { number in
            let facts = facts[number]
            var typeName: String?
            var factoryName: String?
            var argumentType: String?
            switch identities[number] {
            case .registration(let key):
                typeName = typeNames.name(of: key.productType)
                factoryName = key.name
                argumentType = key.takesArgument ? typeNames.name(of: key.argumentType) : nil
            case .missingProduct(let key):
                typeName = typeNames.name(of: key.productType)
            case .slot, .consumer:
                typeName = facts.type.map(typeNames.name(of:))
            case .missingSlot:
                break
            }
            return Node(
                id: ids[number], scope: facts.scope, typeName: typeName, factoryName: factoryName,
                argumentType: argumentType, lifetime: facts.lifetime, wasMadeBefore: facts.wasMadeBefore,
                isAsync: facts.isAsync, problems: facts.problems)
        }
        let sorted = edges.map { (place[$0.key.from], $0.key.kind, place[$0.key.to], $0.value) }
            .sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        let sortedEdges = sorted.map {
            Edge(from: sortedNodes[$0.0].id, to: sortedNodes[$0.2].id, kind: $0.1 == 0 ? .requests : .requires, problems: $0.3)
        }
        return MetaControllerGraph(
            scopes: scopes, nodes: sortedNodes, edges: sortedEdges, verification: report,
            listedRegistrations: Set(listedRegistrations.map { ids[$0] }),
            ends: sorted.map { MetaControllerGraph.Ends(from: $0.0, to: $0.2) },
            consumerTypes: order.map { facts[$0].consumerType })
    }
}
