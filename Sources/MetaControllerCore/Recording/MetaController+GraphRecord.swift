/// What a verification saw, in plain values: the record that
/// MetaControllerGraphModule draws a ``MetaController``'s graph from.
///
/// The core records; it does not draw. A graph needs what only the core can
/// read (the scopes' slots and factory tables, the requests a verification
/// recorded, where each problem arose), so the core hands it over here, by
/// identities (a slot's key, a registration's ``FactoryKey``), never by the
/// names a picture shows. `package` access: no app sees it.
package struct GraphRecord {
    /// A filled slot, in the nearest scope that fills it.
    package struct Slot {
        /// The identity of the slot's key.
        package let key: ObjectIdentifier
        /// The key's ``MetaControllerKey/name``.
        package let name: String
        /// 0 for the MetaController asked, 1 for its parent, and so on.
        package let scope: Int
        /// The dynamic type of the value in the slot.
        package let valueType: (any Any.Type)?
    }

    /// A slot that a slot's value, a consumer, requires of the scope that holds it.
    package struct SlotRequirement {
        package let slot: ObjectIdentifier
        package let required: MetaControllerSlot
        package let filled: Bool
    }

    /// A registration the graph shows: each verified, then each other one in the scopes.
    package struct Registration {
        package let key: FactoryKey
        /// The scope that holds it; `nil` for one the verification found nowhere in the chain.
        package let scope: Int?
        package let shared: Bool
        /// A shared product made before the verification: what it requested is not known.
        package let wasMadeBefore: Bool
        /// Whether its factory is async.
        package let isAsync: Bool
    }

    /// A request a factory made while it was verified, and whether a registration was found.
    package struct Request {
        package let requester: FactoryKey
        package let requested: FactoryKey
        package let found: Bool
    }

    /// A consumer type whose requirements were checked.
    package struct Consumer {
        package let type: any MetaControllerConsumer.Type
        /// The registration whose product it is; `nil` for a type listed in `consumers`.
        package let madeBy: FactoryKey?
        package let required: [MetaControllerSlot]
        package let missing: [MetaControllerSlot]
    }

    /// The verification's report, as ``MetaController/verify(consumers:samples:)`` returns it.
    package let report: MetaControllerVerification
    /// How many scopes the chain has: the MetaController asked and its parents.
    package var scopeCount = 0
    /// By scope, then by key name.
    package var slots: [Slot] = []
    package var slotRequirements: [SlotRequirement] = []
    package var registrations: [Registration] = []
    package var requests: [Request] = []
    /// The keys of the registrations verified that name a type alone, in the order verified.
    package var verifiedTypesAlone: [FactoryKey] = []
    package var consumers: [Consumer] = []
    /// Where each of the report's problems arose.
    package var places: [MetaController.PlacedProblem] = []
}

extension MetaController {
    /// Verifies the graph as ``verify(consumers:samples:)`` does, recording
    /// the requests the factories make, and returns what it saw with the
    /// scopes' slots and registrations: what MetaControllerGraphModule's
    /// `graph(consumers:samples:)` draws.
    @MainActor
    package func graphRecord(consumers: [any MetaControllerConsumer.Type], samples: [FactorySample]) -> GraphRecord {
        graphRecord(of: verificationRecord(consumers: consumers, samples: samples, recordingRequests: true))
    }

    /// Verifies the graph as ``verification(consumers:samples:)`` does, async
    /// factories included, recording the requests the factories make (an async
    /// factory's too), and returns what it saw: what MetaControllerGraphModule's
    /// `verifiedGraph(consumers:samples:)` draws.
    @MainActor
    package func verifiedGraphRecord(
        consumers: [any MetaControllerConsumer.Type], samples: [FactorySample]
    ) async -> GraphRecord {
        graphRecord(of: await asyncVerificationRecord(consumers: consumers, samples: samples, recordingRequests: true))
    }

    /// What `verified` saw, with the scopes' slots and registrations.
    private func graphRecord(of verified: VerificationRecord) -> GraphRecord {
        var record = GraphRecord(report: verified.report)

        var chain: [MetaController] = []
        var scope: MetaController? = self
        while let current = scope {
            chain.append(current)
            scope = current.parent
        }
        record.scopeCount = chain.count
        let scopeIndex = Dictionary(uniqueKeysWithValues: chain.enumerated().map { (ObjectIdentifier($1), $0) })

        // Slots: the nearest scope that fills each; a value that is a consumer
        // requires slots of the scope that holds it.
        var slotsSeen: Set<TypeKey> = []
        for (index, current) in chain.enumerated() {
            let custom = current.state.withLock { $0.custom }
            let named = custom.map { (key: $0.key, name: Self.keyName($0.key), box: $0.value) }
            for entry in named.sorted(by: { $0.name < $1.name }) where slotsSeen.insert(entry.key).inserted {
                let value = (entry.box as? any AnyCustomSlot)?.anyValue
                record.slots.append(
                    GraphRecord.Slot(key: entry.key.id, name: entry.name, scope: index, valueType: value.map { type(of: $0) }))
                if let value, let consumer = ConsumerTypes.consumer(value) {
                    for required in type(of: consumer).requiredControllers {
                        record.slotRequirements.append(
                            GraphRecord.SlotRequirement(slot: entry.key.id, required: required, filled: current.contains(required)))
                    }
                }
            }
        }

        // Registrations: those verified, then the others of each scope, in the nearest scope.
        var seen: Set<FactoryKey> = []
        record.registrations.reserveCapacity(verified.registrations.count)
        for registration in verified.registrations {
            seen.insert(registration.key)
            record.registrations.append(
                GraphRecord.Registration(
                    key: registration.key, scope: scopeIndex[ObjectIdentifier(registration.owner)],
                    shared: registration.shared, wasMadeBefore: false, isAsync: registration.isAsync))
            if registration.key.isTypeAlone { record.verifiedTypesAlone.append(registration.key) }
        }
        for (index, current) in chain.enumerated() {
            let (typeFactories, factories, madeShared) = current.state.withLock {
                ($0.typeFactories, $0.factories, $0.madeShared)
            }
            let slots =
                typeFactories.map { (FactoryKey(Self.productType(of: $0.key)), $0.value) }
                + factories.map { ($0.key, $0.value) }
            for (key, slot) in slots where seen.insert(key).inserted {
                // A shared product made: its factory is the one it was made by.
                let isAsync = slot.isAsync || madeShared.last { $0.key == key }?.unmade.isAsync == true
                let madeBefore: Bool
                switch slot {
                case .made, .madeObject, .building, .awaited, .asyncBuilding: madeBefore = true
                // A registration a verification does not check (one it cannot make); shown all the same.
                case .registration, .shared, .asyncRegistration, .asyncShared: madeBefore = false
                }
                record.registrations.append(
                    GraphRecord.Registration(
                        key: key, scope: index, shared: madeBefore || Self.isShared(slot), wasMadeBefore: madeBefore,
                        isAsync: isAsync))
            }
        }

        record.requests = verified.requests.map {
            GraphRecord.Request(requester: $0.requester, requested: $0.requested, found: $0.found)
        }
        record.consumers = verified.consumers.map {
            GraphRecord.Consumer(type: $0.type, madeBy: $0.madeBy, required: $0.required, missing: $0.missing)
        }
        record.places = verified.places
        return record
    }

    /// The type a slot's key or a factory table's entry identifies, for a graph to name.
    package static func typeIdentified(by id: ObjectIdentifier) -> any Any.Type {
        productType(of: TypeKey(id))
    }

    /// The name of the key whose identity `key` holds: a ``MetaControllerKey``'s ``MetaControllerKey/name``.
    private static func keyName(_ key: TypeKey) -> String {
        let type = productType(of: key)
        return (type as? any MetaControllerKey.Type)?.name ?? String(describing: type)
    }

    private static func isShared(_ slot: FactorySlot) -> Bool {
        switch slot {
        case .shared, .asyncShared: true
        case .registration, .building, .awaited, .asyncRegistration, .asyncBuilding, .made, .madeObject: false
        }
    }
}
