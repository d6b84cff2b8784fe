/// One run of ``MetaController/verify(consumers:samples:)``: what failed on its
/// thread, and the shared products it made of its own.
///
/// While it runs, its thread's chain of factories starts with a node that
/// carries it (``FactoryConstruction/verifying(_:_:)``), so every factory run
/// and every request on that thread finds it without a lookup of its own.
/// Requests that fail tell it, with the chain that made them
/// (``FactoryConstruction/failing(_:_:)``); a factory that catches the failure
/// and makes its product anyway drops it again (``running(_:)``), so an
/// optional dependency (`try? make(...)`) is not reported.
final class FactoryVerification: Sendable {
    /// A request that failed, or a read of an empty slot, and where.
    struct Failure: Sendable {
        let kind: MetaControllerVerification.Problem.Kind
        /// The keys from the registration being verified to the one that failed.
        let chain: [FactoryKey]
        let message: String
    }

    private struct SharedKey: Hashable, Sendable {
        let owner: ObjectIdentifier
        let key: FactoryKey
    }

    private struct State: Sendable {
        /// The failures of the requests under way, innermost last.
        var pending: [Failure] = []
        /// Reads of empty slots by the products made.
        var reads: [Failure] = []
        /// The shared products made, by the MetaController the factory is registered in and its key.
        var shared: [SharedKey: FactorySlot] = [:]
        /// The MetaController each shared factory's owner is replaced by, by the owner.
        var twins: [ObjectIdentifier: MetaController] = [:]
    }

    private let state = Lock(State())

    /// The number of failures recorded and not dropped, as a mark for ``failures(since:)``.
    var mark: Int { state.withLock { $0.pending.count } }

    /// Records that a request failed with `error`, made through `chain`.
    func failed(_ error: MetaControllerError, chain: [FactoryKey]) {
        let kind: MetaControllerVerification.Problem.Kind =
            switch error.code {
            case .missingFactory: .missingFactory
            case .circularFactories: .circularFactories
            case .notOnMainActor: .notOnMainActor
            default: .factoryThrew
            }
        state.withLock { $0.pending.append(Failure(kind: kind, chain: chain, message: error.description)) }
    }

    /// Runs `body`, a factory on this thread. When it throws and nothing it
    /// requested failed, the factory itself threw: that is recorded. When it
    /// returns, what its requests recorded is dropped: it dealt with it.
    func running<Result>(_ body: () throws -> Result) throws -> Result {
        let mark = self.mark
        let result: Result
        do {
            result = try body()
        } catch {
            let chain = FactoryConstruction.chain
            state.withLock { state in
                guard state.pending.count == mark else { return }
                let thrower = chain.last.map { "the factory of \($0) threw: " } ?? "threw: "
                state.pending.append(Failure(kind: .factoryThrew, chain: chain, message: thrower + "\(error)"))
            }
            throw error
        }
        state.withLock { state in
            if state.pending.count > mark { state.pending.removeSubrange(mark...) }
        }
        return result
    }

    /// Removes and returns what was recorded since `mark`.
    func failures(since mark: Int) -> [Failure] {
        state.withLock { state in
            guard state.pending.count > mark else { return [] }
            defer { state.pending.removeSubrange(mark...) }
            return Array(state.pending[mark...])
        }
    }

    /// The reads of empty slots recorded.
    var reads: [Failure] { state.withLock { $0.reads } }

    /// The number of reads recorded, as a mark for ``attributeReads(since:to:)``.
    var readMark: Int { state.withLock { $0.reads.count } }

    /// Gives the reads recorded since `mark` outside every factory (a
    /// product's `metaControllerDidArrive()` runs after its factory returns)
    /// the chain of `key`, the registration they were made for.
    func attributeReads(since mark: Int, to key: FactoryKey) {
        state.withLock { state in
            for index in state.reads.indices[mark...] where state.reads[index].chain.isEmpty {
                let read = state.reads[index]
                state.reads[index] = Failure(kind: read.kind, chain: [key], message: read.message)
            }
        }
    }

    /// The product of the shared factory registered under `key` in `owner`,
    /// made once per verification with a stand-in for `owner`, and kept here
    /// rather than in `owner`.
    func sharedProduct(
        of factory: FactorySlot.SharedFactory, key: FactoryKey, owner: MetaController
    ) throws -> FactorySlot {
        let sharedKey = SharedKey(owner: ObjectIdentifier(owner), key: key)
        if let made = state.withLock({ $0.shared[sharedKey] }) { return made }
        let stand = standIn(for: owner)
        let made = try FactoryConstruction.running(key) { try factory(stand) }
        state.withLock { $0.shared[sharedKey] = made }
        return made
    }

    /// A child of `metaController` that requests and shared factories are
    /// given in its place: it answers as `metaController` does, but dispatches
    /// on a bus of its own, and reports reads of its empty slots here.
    func standIn(for metaController: MetaController) -> MetaController {
        if let stand = state.withLock({ $0.twins[ObjectIdentifier(metaController)] }) { return stand }
        let stand = MetaController(scratchOf: metaController) { [weak self] consumer, slot in
            self?.read(slot, by: consumer)
        }
        state.withLock { $0.twins[ObjectIdentifier(metaController)] = stand }
        return stand
    }

    private func read(_ slot: MetaControllerSlot, by consumer: String) {
        let chain = FactoryConstruction.chain
        state.withLock { state in
            state.reads.append(
                Failure(
                    kind: .unfilledRead, chain: chain,
                    message: "\(consumer) read \(slot.name), which this MetaController does not fill"))
        }
    }

    /// Lets go of the stand-ins and the products made.
    func finish() -> (shared: [FactorySlot], standIns: [MetaController]) {
        state.withLock { state in
            defer {
                state.shared = [:]
                state.twins = [:]
            }
            return (Array(state.shared.values), Array(state.twins.values))
        }
    }
}

extension FactorySlot {
    /// The product in a ``made(_:)`` or ``madeObject(_:)`` slot, as `Any`.
    var anyProduct: Any? {
        switch self {
        case .madeObject(let object): object
        case .made(let made): made.product
        case .registration, .shared, .building, .awaited: nil
        }
    }
}
