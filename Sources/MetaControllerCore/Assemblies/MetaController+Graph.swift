extension MetaController {
    /// Verifies the graph as ``verify(consumers:samples:)`` does, and returns
    /// what it saw: every slot filled here and in the parents, every
    /// registration and the products each requested while it was made, the
    /// consumer types checked and the slots each requires, with every problem
    /// where it arose.
    ///
    /// ```swift
    /// let graph = AppGraph.make().graph(consumers: [FeedScreen.self, CheckoutScreen.self])
    /// #expect(graph.verification.isSatisfied, "\(graph.verification)")
    /// print(graph.mermaid)
    /// ```
    ///
    /// The verification is the same one, with the same effects: each
    /// registration a request here would find is made once, its product
    /// dropped, and on a strict MetaController each problem is reported. What
    /// the graph adds is the record of the requests the factories make through
    /// the MetaController they are given; a request made on another thread, or
    /// to a MetaController a factory captured, is not recorded. A shared
    /// product made before is shown, but not made again, so what it requested
    /// is not known (``MetaControllerGraph/Node/wasMadeBefore``).
    ///
    /// A slot is shown in the nearest scope that fills it, with the concrete
    /// type of its value, and, when that value is a consumer, the slots it
    /// requires of that scope; a registration, in the nearest scope that holds
    /// one of its type, name and argument type (the one a request here finds).
    /// A missing product or slot that no problem names (a request a factory
    /// caught, a controller's requirement, which a verification does not
    /// check) is drawn missing, with no problem.
    /// Recording the requests costs nothing when no graph is asked for.
    ///
    /// - Parameters:
    ///   - consumers: The consumer types the app shows, such as its screens.
    ///   - samples: Arguments for the factories that take one, one per argument type.
    /// - Returns: The graph, in a stable order, with the verification's report.
    @MainActor
    public func graph(
        consumers: [any MetaControllerConsumer.Type] = [],
        samples: [FactorySample] = []
    ) -> MetaControllerGraph {
        let record = verification(consumers: consumers, samples: samples, recordingRequests: true)
        var builder = GraphBuilder(report: record.report)

        var chain: [MetaController] = []
        var scope: MetaController? = self
        while let current = scope {
            chain.append(current)
            scope = current.parent
        }
        let scopeIndex = Dictionary(uniqueKeysWithValues: chain.enumerated().map { (ObjectIdentifier($1), $0) })

        // Slots: the nearest scope that fills each; a controller that is a
        // consumer requires slots of the scope that holds it.
        var slotNames: [TypeKey: String] = [:]
        var slotRequirements: [(slot: MetaControllerGraph.Node.ID, required: MetaControllerSlot, filled: Bool)] = []
        for (index, current) in chain.enumerated() {
            let custom = current.state.withLock { $0.custom }
            for (key, box) in custom.sorted(by: { Self.keyName($0.key) < Self.keyName($1.key) })
            where slotNames[key] == nil {
                let value = (box as? any AnyCustomSlot)?.anyValue
                let name = builder.uniqueSlotName(Self.keyName(key))
                let id = MetaControllerGraph.Node.ID(.slot, name)
                slotNames[key] = name
                builder.add(id, scope: index, typeName: value.map { String(describing: type(of: $0)) })
                if let value, let consumer = ConsumerTypes.consumer(value) {
                    for required in type(of: consumer).requiredControllers {
                        slotRequirements.append((id, required, current.contains(required)))
                    }
                }
            }
        }
        for requirement in slotRequirements {
            let name = slotNames[TypeKey(requirement.required.id)] ?? requirement.required.name
            builder.requirement(
                from: requirement.slot,
                to: MetaControllerGraph.Node.ID(requirement.filled ? .slot : .missingSlot, requirement.filled ? name : requirement.required.name))
        }

        // Registrations: those verified, then shared products made before, each in the nearest scope.
        var seen: Set<FactoryKey> = []
        builder.reserve(nodes: record.registrations.count, edges: record.requests.count)
        for registration in record.registrations {
            seen.insert(registration.key)
            builder.name(registration.key, registration.name)
            builder.add(
                registration.key, scope: scopeIndex[ObjectIdentifier(registration.owner)],
                lifetime: registration.shared ? .shared : .perRequest, wasMadeBefore: false)
        }
        for (index, current) in chain.enumerated() {
            let (typeFactories, factories) = current.state.withLock { ($0.typeFactories, $0.factories) }
            let slots =
                typeFactories.map { (FactoryKey(Self.productType(of: $0.key)), $0.value) }
                + factories.map { ($0.key, $0.value) }
            for (key, slot) in slots where seen.insert(key).inserted {
                switch slot {
                case .made, .madeObject, .building, .awaited:
                    builder.add(key, scope: index, lifetime: .shared, wasMadeBefore: true)
                case .registration, .shared:
                    // A registration a verification does not check (one it cannot make); shown all the same.
                    builder.add(key, scope: index, lifetime: Self.isShared(slot) ? .shared : .perRequest, wasMadeBefore: false)
                }
            }
        }

        for request in record.requests {
            builder.request(from: request.requester, to: request.requested)
        }

        // Consumers: a listed type that a registration makes is drawn as that registration.
        let registrationsByType = Dictionary(
            record.registrations.filter { $0.key.isTypeAlone }.map { ($0.key.product, builder.name(of: $0.key)) },
            uniquingKeysWith: { first, _ in first })
        for consumerType in consumers {
            if let name = registrationsByType[ObjectIdentifier(consumerType)] {
                builder.listedRegistrations.insert(MetaControllerGraph.Node.ID(.registration, name))
            }
        }
        for consumer in record.consumers {
            let source: MetaControllerGraph.Node.ID
            if let madeBy = consumer.madeBy {
                source = MetaControllerGraph.Node.ID(.registration, builder.name(of: madeBy))
            } else if let name = registrationsByType[ObjectIdentifier(consumer.type)] {
                source = MetaControllerGraph.Node.ID(.registration, name)
            } else {
                source = MetaControllerGraph.Node.ID(.consumer, String(describing: consumer.type))
                builder.add(source, scope: nil, typeName: source.name)
            }
            let missing = Set(consumer.missing)
            for slot in consumer.required {
                if missing.contains(slot) {
                    builder.requirement(from: source, to: MetaControllerGraph.Node.ID(.missingSlot, slot.name))
                } else {
                    let name = slotNames[TypeKey(slot.id)] ?? slot.name
                    builder.requirement(from: source, to: MetaControllerGraph.Node.ID(.slot, name))
                }
            }
        }

        builder.place(record.report.problems)
        return builder.graph(scopes: chain.indices.map { $0 == 0 ? "MetaController" : "parent \($0)" })
    }

    /// The name of the key whose identity `key` holds: a ``MetaControllerKey``'s ``MetaControllerKey/name``.
    private static func keyName(_ key: TypeKey) -> String {
        let type = productType(of: key)
        return (type as? any MetaControllerKey.Type)?.name ?? String(describing: type)
    }

    private static func isShared(_ slot: FactorySlot) -> Bool {
        if case .shared = slot { return true }
        return false
    }
}

/// Puts a ``MetaControllerGraph`` together: nodes interned as numbers, edges
/// between numbers, then both sorted once. (Keyed and sorted by their names,
/// a graph of 500 services spent most of its time copying and comparing strings.)
private struct GraphBuilder {
    typealias Node = MetaControllerGraph.Node
    typealias Edge = MetaControllerGraph.Edge

    private struct EdgeKey: Hashable {
        let from: Int
        let to: Int
        /// 0 for a request, 1 for a requirement: the order of ``MetaControllerGraph/Edge/Kind``.
        let kind: Int
    }

    private struct NodeFacts {
        var scope: Int?
        var typeName: String?
        var factoryName: String?
        var argumentType: String?
        var lifetime: Node.Lifetime?
        var wasMadeBefore = false
        var problems: [MetaControllerVerification.Problem] = []
    }

    let report: MetaControllerVerification
    private var ids: [Node.ID] = []
    private var facts: [NodeFacts] = []
    private var numbers: [Node.ID: Int] = [:]
    private var edges: [EdgeKey: [MetaControllerVerification.Problem]] = [:]
    private var names: [FactoryKey: String] = [:]
    /// The node a request for each key reaches: its registration, or a missing product.
    private var requested: [FactoryKey: Int] = [:]
    var listedRegistrations: Set<Node.ID> = []
    private var lastRequester: (key: FactoryKey, node: Int)?

    init(report: MetaControllerVerification) {
        self.report = report
    }

    /// `key`'s description, made once per key: describing a type takes a
    /// microsecond, and a graph of 500 services has 4,500 requests.
    mutating func name(of key: FactoryKey) -> String {
        if let name = names[key] { return name }
        let name = key.description
        names[key] = name
        return name
    }

    /// Keeps `name` as `key`'s description.
    mutating func name(_ key: FactoryKey, _ name: String) {
        names[key] = name
    }

    mutating func reserve(nodes: Int, edges: Int) {
        numbers.reserveCapacity(nodes)
        ids.reserveCapacity(nodes)
        facts.reserveCapacity(nodes)
        self.edges.reserveCapacity(edges)
        requested.reserveCapacity(nodes)
    }

    /// `name`, or `name #2`, `name #3`... when two keys share a name.
    func uniqueSlotName(_ name: String) -> String {
        var candidate = name
        var count = 1
        while numbers[Node.ID(.slot, candidate)] != nil {
            count += 1
            candidate = "\(name) #\(count)"
        }
        return candidate
    }

    /// The number of node `id`, added with `facts` when it is new.
    @discardableResult
    private mutating func intern(_ id: Node.ID, _ new: @autoclosure () -> NodeFacts = NodeFacts()) -> Int {
        if let number = numbers[id] { return number }
        numbers[id] = ids.count
        ids.append(id)
        facts.append(new())
        return ids.count - 1
    }

    mutating func add(_ id: Node.ID, scope: Int?, typeName: String?) {
        intern(id, NodeFacts(scope: scope, typeName: typeName))
    }

    mutating func add(_ key: FactoryKey, scope: Int?, lifetime: Node.Lifetime, wasMadeBefore: Bool) {
        let name = name(of: key)
        // A key of a type alone is described as its type is.
        let typeName = key.isTypeAlone ? name : String(describing: key.productType)
        intern(
            Node.ID(.registration, name),
            NodeFacts(
                scope: scope, typeName: typeName, factoryName: key.name,
                argumentType: key.takesArgument ? String(describing: key.argumentType) : nil, lifetime: lifetime,
                wasMadeBefore: wasMadeBefore))
    }

    /// The node a problem's chain names: a registration, else a consumer, else a missing product.
    private mutating func named(_ name: String) -> Int {
        for kind in [Node.Kind.registration, .consumer, .missingProduct] {
            if let number = numbers[Node.ID(kind, name)] { return number }
        }
        return intern(Node.ID(.missingProduct, name))
    }

    /// The factory of the registration `from` requested the product `to`: a
    /// registration, or a missing product when no registration makes it.
    mutating func request(from: FactoryKey, to: FactoryKey) {
        // A factory's requests are recorded one after the other: its node is looked up once.
        let source: Int
        if let last = lastRequester, last.key == from {
            source = last.node
        } else {
            source = node(requestedAs: from)
            lastRequester = (from, source)
        }
        let target = node(requestedAs: to)
        edges[EdgeKey(from: source, to: target, kind: 0), default: []] += []
    }

    private mutating func node(requestedAs key: FactoryKey) -> Int {
        if let number = requested[key] { return number }
        let number = named(name(of: key))
        requested[key] = number
        return number
    }

    mutating func requirement(from: Node.ID, to: Node.ID) {
        let source = intern(from)
        let target = intern(to)
        edges[EdgeKey(from: source, to: target, kind: 1), default: []] += []
    }

    /// Attaches each problem to the node or the edges where it arose.
    mutating func place(_ problems: [MetaControllerVerification.Problem]) {
        for problem in problems {
            let chain = problem.chain
            guard let last = chain.last else { continue }
            switch problem.kind {
            case .missingFactory:
                let missing = intern(Node.ID(.missingProduct, last))
                facts[missing].problems.append(problem)
                if chain.count >= 2 { attach(problem, from: named(chain[chain.count - 2]), to: missing) }
            case .circularFactories, .notOnMainActor:
                guard chain.count >= 2 else {
                    facts[named(last)].problems.append(problem)
                    continue
                }
                let pairs = problem.kind == .circularFactories ? Array(chain.indices.dropFirst()) : [chain.count - 1]
                for index in pairs {
                    attach(problem, from: named(chain[index - 1]), to: named(chain[index]))
                }
            case .unfilledRequirement:
                let source = named(chain[0])
                facts[source].problems.append(problem)
                for key in edges.keys where key.from == source && ids[key.to].kind == .missingSlot {
                    edges[key]?.append(problem)
                }
            default:
                facts[named(last)].problems.append(problem)
            }
        }
    }

    private mutating func attach(_ problem: MetaControllerVerification.Problem, from: Int, to: Int) {
        edges[EdgeKey(from: from, to: to, kind: 0), default: []].append(problem)
    }

    func graph(scopes: [String]) -> MetaControllerGraph {
        // Each node's place in the sorted order, then the edges by those places.
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        var place = [Int](repeating: 0, count: ids.count)
        for (position, number) in order.enumerated() { place[number] = position }
        let sortedNodes = order.map { number in
            let id = ids[number]
            let facts = facts[number]
            let typeName = facts.typeName ?? (id.kind == .missingProduct ? id.name : nil)
            return Node(
                id: id, scope: facts.scope, typeName: typeName, factoryName: facts.factoryName,
                argumentType: facts.argumentType, lifetime: facts.lifetime, wasMadeBefore: facts.wasMadeBefore,
                problems: facts.problems)
        }
        let sorted = edges.map { (place[$0.key.from], $0.key.kind, place[$0.key.to], $0.value) }
            .sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        let sortedEdges = sorted.map {
            Edge(from: sortedNodes[$0.0].id, to: sortedNodes[$0.2].id, kind: $0.1 == 0 ? .requests : .requires, problems: $0.3)
        }
        return MetaControllerGraph(
            scopes: scopes, nodes: sortedNodes, edges: sortedEdges, verification: report,
            listedRegistrations: listedRegistrations, ends: sorted.map { MetaControllerGraph.Ends(from: $0.0, to: $0.2) })
    }
}
