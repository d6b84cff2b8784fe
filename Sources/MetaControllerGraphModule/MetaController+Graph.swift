public import MetaControllerCore

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
    /// A request that finds no registration where it is made is drawn to the
    /// missing product alone, even when a child holds a registration of it (a
    /// parent's shared factory does not see its children's). A missing
    /// product or slot that no problem names (a request a factory caught, a
    /// controller's requirement, which a verification does not check) is
    /// drawn missing, with no problem. A request a product makes when it gets
    /// its MetaController (`metaControllerDidArrive()`, after its factory
    /// returned) is drawn from its registration when the verification made the
    /// product for itself, and from the factory that requested the product
    /// otherwise, which is still running then.
    ///
    /// Nodes are what they stand for, not their names: two types of one name
    /// (`FeedScreen.ViewModel`, `ProfileScreen.ViewModel`) are two nodes,
    /// named with enough of their qualified names to tell them apart
    /// (``MetaControllerGraph/Node/ID``).
    /// Recording the requests costs nothing when no graph is asked for.
    ///
    /// - Parameters:
    ///   - consumers: The consumer types the app shows, such as its screens.
    ///   - samples: Arguments for the factories that take one, one per argument type.
    /// - Returns: The graph, in a stable order, with the verification's report.
    ///
    /// An async registration (`register` or `registerShared` with an `async`
    /// factory) is shown and marked `async` (``MetaControllerGraph/Node/isAsync``),
    /// but this verification cannot make it: it is reported as
    /// ``MetaControllerVerification/Problem/Kind/asyncFactory``, and what it
    /// requests is not known. Draw a graph with async factories with
    /// ``verifiedGraph(consumers:samples:)``.
    @MainActor
    public func graph(
        consumers: [any MetaControllerConsumer.Type] = [],
        samples: [FactorySample] = []
    ) -> MetaControllerGraph {
        Self.graph(of: graphRecord(consumers: consumers, samples: samples), consumers: consumers)
    }

    /// Verifies the graph as ``verification(consumers:samples:)`` does, async
    /// factories included, and returns what it saw, as ``graph(consumers:samples:)`` does.
    ///
    /// ```swift
    /// let graph = await AppGraph.make().verifiedGraph(consumers: [FeedScreen.self])
    /// #expect(graph.verification.isSatisfied, "\(graph.verification)")
    /// print(graph.mermaid)
    /// ```
    ///
    /// The verification is the async one, with its effects: each registration
    /// a request here would find, async or not, is made once (the async ones
    /// at the same time, in tasks of their own), its product dropped, and on
    /// a strict MetaController each problem is reported. The requests an async
    /// factory makes through the MetaController it is given (with
    /// ``product(_:name:isolation:)``, or `make`) are recorded as a
    /// synchronous factory's are, in the task it runs in and its child tasks;
    /// one made from a detached task is not. An async registration is marked
    /// `async` (``MetaControllerGraph/Node/isAsync``) in the text and in both pictures.
    /// Everything else is as ``graph(consumers:samples:)`` says, and the
    /// graph is in the same stable order, whichever task made what first.
    ///
    /// - Parameters:
    ///   - consumers: The consumer types the app shows, such as its screens.
    ///   - samples: Arguments for the factories that take one, one per argument type.
    /// - Returns: The graph, in a stable order, with the verification's report.
    @MainActor
    public func verifiedGraph(
        consumers: [any MetaControllerConsumer.Type] = [],
        samples: [FactorySample] = []
    ) async -> MetaControllerGraph {
        Self.graph(of: await verifiedGraphRecord(consumers: consumers, samples: samples), consumers: consumers)
    }

    /// The graph of what a verification saw.
    private static func graph(of record: GraphRecord, consumers: [any MetaControllerConsumer.Type]) -> MetaControllerGraph {
        var builder = GraphBuilder(report: record.report)
        builder.reserve(nodes: record.slots.count + record.registrations.count, edges: record.requests.count)
        for slot in record.slots {
            builder.addSlot(slot.key, name: slot.name, scope: slot.scope, valueType: slot.valueType)
        }
        for requirement in record.slotRequirements {
            builder.requirement(from: .slot(requirement.slot), to: requirement.required, filled: requirement.filled)
        }
        for registration in record.registrations {
            builder.addRegistration(
                registration.key, scope: registration.scope,
                lifetime: registration.shared ? .shared : .perRequest, wasMadeBefore: registration.wasMadeBefore,
                isAsync: registration.isAsync)
        }
        for request in record.requests {
            builder.request(from: request.requester, to: request.requested, found: request.found)
        }

        // Consumers: a listed type that a registration makes is drawn as that registration.
        var registrationsByType: [ObjectIdentifier: FactoryKey] = [:]
        for key in record.verifiedTypesAlone where registrationsByType[key.product] == nil {
            registrationsByType[key.product] = key
        }
        builder.registrationsByType = registrationsByType
        for consumerType in consumers {
            if let key = registrationsByType[ObjectIdentifier(consumerType)] { builder.listed(key) }
        }
        for consumer in record.consumers {
            let source = builder.addConsumer(consumer.type, madeBy: consumer.madeBy)
            let missing = Set(consumer.missing)
            for slot in consumer.required {
                builder.requirement(from: source, to: slot, filled: !missing.contains(slot))
            }
        }

        builder.place(record.places)
        return builder.graph(scopes: (0..<record.scopeCount).map { $0 == 0 ? "MetaController" : "parent \($0)" })
    }
}
