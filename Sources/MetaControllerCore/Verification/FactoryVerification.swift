/// What one run of ``MetaController/verify(consumers:samples:)`` found, from
/// any thread: the requests that failed, the findings no factory can catch,
/// and the stand-ins it made.
///
/// Requests that fail tell it, with the chain that made them
/// (``FactoryConstruction/failing(_:_:)``); a factory that catches the failure
/// and makes its product anyway drops it again (``VerificationRun/made(_:_:depth:since:)``),
/// so an optional dependency (`try? make(...)`) is not reported.
final class FactoryVerification: Sendable {
    /// A request that failed, or a read of an empty slot, and where.
    struct Failure: Sendable {
        let kind: MetaControllerVerification.Problem.Kind
        /// The keys from the registration being verified to the one that failed.
        let chain: [FactoryKey]
        let message: String
    }

    private struct State: Sendable {
        /// The failures of the requests under way, innermost last.
        var pending: [Failure] = []
        /// Reads of empty slots by the products made, and calls of `verify`
        /// from a factory: what no factory can catch.
        var findings: [Failure] = []
        /// The MetaController each shared factory's owner is replaced by, by the owner.
        var twins: [ObjectIdentifier: MetaController] = [:]
        /// The requests made through the stand-ins, when they are recorded: the
        /// key of the factory that made each, the key requested, and whether a
        /// registration was found for it.
        /// Kept in an array, as made: the graph drops the requests made again.
        var requests: [RequestEdge] = []
        /// The requests made outside every factory (a product's
        /// `metaControllerDidArrive()` runs after its factory returns), until
        /// ``attributeRequests(to:)`` gives them the registration verified.
        var unattributed: [Request] = []
    }

    /// A request for `key`, and whether the MetaController asked (or one of its
    /// parents) holds a registration of it.
    struct Request: Hashable {
        let key: FactoryKey
        let found: Bool
    }

    /// A request recorded for a graph: `requester`'s factory requested
    /// `requested`, which a registration answered when `found`, and none did otherwise.
    struct RequestEdge: Hashable {
        let requester: FactoryKey
        let requested: FactoryKey
        let found: Bool
    }

    private let state = Lock(State())

    /// Whether the stand-ins record the requests made to them (for ``MetaController/graph(consumers:samples:)``).
    private let recordsRequests: Bool

    /// A recorder; `recordsRequests` makes its stand-ins record the requests made to them.
    init(recordsRequests: Bool = false) {
        self.recordsRequests = recordsRequests
    }

    /// Records that the factory running on this thread (or, outside every
    /// factory, the registration being verified) requested `key`, and whether
    /// the request found a registration (`found`) or fails for want of one. A
    /// request on a thread that runs no verification (a factory's request made
    /// on another thread, or a stand-in kept after its verification) is not recorded.
    ///
    /// Called once the request has looked for its registration: a request that
    /// finds none is a failed request, drawn to the missing product alone,
    /// even when a registration of the same key sits in a child the
    /// requester does not see.
    func requested(_ key: FactoryKey, found: Bool) {
        let requester: FactoryKey?
        if let run = FactoryConstruction.verification {
            requester = FactoryConstruction.innermostKey ?? run.requesterKey
        } else if let frame = AsyncVerificationFrame.active {
            // An async factory's request, made outside every synchronous one.
            requester = frame.requesterKey
        } else {
            return
        }
        state.withLock { state in
            if let requester {
                state.requests.append(RequestEdge(requester: requester, requested: key, found: found))
            } else {
                state.unattributed.append(Request(key: key, found: found))
            }
        }
    }

    /// Gives the requests recorded outside every factory since the last call to `key`,
    /// the registration they were made for.
    func attributeRequests(to key: FactoryKey) {
        state.withLock { state in
            for request in state.unattributed {
                state.requests.append(RequestEdge(requester: key, requested: request.key, found: request.found))
            }
            state.unattributed = []
        }
    }

    /// The requests recorded.
    var requests: [RequestEdge] { state.withLock { $0.requests } }

    /// The number of failures recorded and not dropped, as a mark for ``failures(since:)``.
    var mark: Int { state.withLock { $0.pending.count } }

    /// Records that a request failed with `error`, made through `chain`.
    func failed(_ error: MetaControllerError, chain: [FactoryKey]) {
        let kind: MetaControllerVerification.Problem.Kind =
            switch error.code {
            case .missingFactory: .missingFactory
            case .circularFactories: .circularFactories
            case .notOnMainActor: .notOnMainActor
            case .asyncFactory: .asyncFactory
            default: .factoryThrew
            }
        var message = error.description
        if kind == .asyncFactory, let key = chain.last {
            message = Self.asyncRequestMessage(key, by: chain.count >= 2 ? chain[chain.count - 2] : nil)
        }
        record(Failure(kind: kind, chain: chain, message: message))
    }

    /// What a verification says of a synchronous `make` of `key`, an async
    /// registration, by the factory of `requester` (`nil` outside every factory).
    static func asyncRequestMessage(_ key: FactoryKey, by requester: FactoryKey?) -> String {
        let how = key.takesArgument ? "product(_:name:argument:)" : "product(_:name:)"
        guard let requester else {
            return "\(key) was requested with make, which cannot wait for its async factory; "
                + "request it with try await \(how)"
        }
        return "\(requester) requests \(key) with make, which cannot wait for its async factory "
            + "(the app gets an asyncFactory error); make the factory of \(requester) async "
            + "and request it with try await \(how)"
    }

    /// Records a failure of a request under way.
    func record(_ failure: Failure) {
        state.withLock { $0.pending.append(failure) }
    }

    /// The last failure recorded since `mark`, if any, left recorded.
    func lastFailure(since mark: Int) -> Failure? {
        state.withLock { $0.pending.count > mark ? $0.pending.last : nil }
    }

    /// Drops what was recorded since `mark`: the factory that made those requests dealt with their failures.
    func drop(since mark: Int) {
        state.withLock { state in
            if state.pending.count > mark { state.pending.removeSubrange(mark...) }
        }
    }

    /// Removes and returns what was recorded since `mark`.
    func failures(since mark: Int) -> [Failure] {
        state.withLock { state in
            guard state.pending.count > mark else { return [] }
            defer { state.pending.removeSubrange(mark...) }
            return Array(state.pending[mark...])
        }
    }

    /// The reads of empty slots and the other findings recorded.
    var findings: [Failure] { state.withLock { $0.findings } }

    /// The number of findings recorded, as a mark for ``attributeFindings(since:to:)``.
    var findingMark: Int { state.withLock { $0.findings.count } }

    /// The findings recorded in `range`.
    func findings(in range: Range<Int>) -> ArraySlice<Failure> {
        state.withLock { $0.findings[range] }
    }

    /// Records a finding no factory can catch.
    func find(_ finding: Failure) {
        state.withLock { $0.findings.append(finding) }
    }

    /// Removes and returns the findings recorded since `mark` (``findingMark``).
    func takeFindings(since mark: Int) -> [Failure] {
        state.withLock { state in
            guard state.findings.count > mark else { return [] }
            defer { state.findings.removeSubrange(mark...) }
            return Array(state.findings[mark...])
        }
    }

    /// Gives the findings recorded since `mark` outside every factory (a
    /// product's `metaControllerDidArrive()` runs after its factory returns)
    /// the chain of `key`, the registration they were made for.
    func attributeFindings(since mark: Int, to key: FactoryKey) {
        state.withLock { state in
            for index in state.findings.indices[mark...] where state.findings[index].chain.isEmpty {
                let read = state.findings[index]
                state.findings[index] = Failure(kind: read.kind, chain: [key], message: read.message)
            }
        }
    }

    /// A child of `metaController` that requests and shared factories are
    /// given in its place: it answers as `metaController` does, but dispatches
    /// on a bus of its own, and reports reads of its empty slots here.
    func standIn(for metaController: MetaController) -> MetaController {
        if let stand = state.withLock({ $0.twins[ObjectIdentifier(metaController)] }) { return stand }
        let stand = MetaController(scratchOf: metaController, requestLog: recordsRequests ? self : nil) {
            [weak self] consumer, slot in
            self?.read(slot, by: consumer)
        }
        state.withLock { $0.twins[ObjectIdentifier(metaController)] = stand }
        return stand
    }

    private func read(_ slot: MetaControllerSlot, by consumer: String) {
        let message = "\(consumer) read \(slot.name), which this MetaController does not fill"
        // A read in an async factory, outside every synchronous one: its frame keeps it.
        if FactoryConstruction.verification == nil, let frame = AsyncVerificationFrame.active {
            frame.find(Failure(kind: .unfilledRead, chain: frame.path, message: message))
            return
        }
        find(Failure(kind: .unfilledRead, chain: FactoryConstruction.chain, message: message))
    }

    /// Lets go of the stand-ins, and of the requests recorded (a stand-in a
    /// product keeps holds this recorder, which then holds nothing more).
    func finish() -> [MetaController] {
        state.withLock { state in
            defer {
                state.twins = [:]
                state.requests = []
                state.unattributed = []
            }
            return Array(state.twins.values)
        }
    }
}

/// One run of ``MetaController/verify(consumers:samples:)`` on its thread:
/// what it records (``recorder``), and the outcome of each request it made.
///
/// While it runs, its thread's chain of factories starts with a node that
/// carries it (``FactoryConstruction/verifying(_:_:)``), so every factory run
/// and every request on that thread finds it without a lookup of its own. It
/// is used on that thread alone.
///
/// Each request is made once per run: the first time a registration is
/// requested from a MetaController (with an argument, when it takes one),
/// its factory runs, and the outcome is kept until the run ends. The same
/// request again gets the same product, or throws the same error, and what
/// the first run recorded (its failure, the reads of empty slots under it)
/// is recorded again with the new chain. So every registration's factory runs
/// once, whatever the number of chains that lead to it, and each chain that
/// leads to a failure is still seen, for the report to keep the longest.
final class VerificationRun {
    /// A request whose outcome is kept: a key, the MetaController it was
    /// made to, and its argument.
    struct Request: Hashable {
        let key: FactoryKey
        /// Kept, so that its identity stays its own while the run lasts.
        let requester: MetaController
        /// The argument, when the factory takes one; `nil` when it takes none.
        let argument: AnyHashable?
        /// Whether the factory is a shared one (whose product a verification makes for itself).
        let shared: Bool

        /// The request of `key` to `requester` with `argument`; `nil` when the
        /// argument is not `Hashable`, so that two requests cannot be told apart.
        init?<Argument>(_ key: FactoryKey, requester: MetaController, argument: Argument, shared: Bool) {
            if ObjectIdentifier(Argument.self) == ObjectIdentifier(Void.self) {
                self.argument = nil
            } else if let hashable = argument as? AnyHashable {
                self.argument = hashable
            } else {
                return nil
            }
            self.key = key
            self.requester = requester
            self.shared = shared
        }

        static func == (lhs: Request, rhs: Request) -> Bool {
            lhs.key == rhs.key && lhs.requester === rhs.requester && lhs.argument == rhs.argument
                && lhs.shared == rhs.shared
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(ObjectIdentifier(requester))
            hasher.combine(argument)
            hasher.combine(shared)
        }
    }

    /// A factory run for a request in a verification
    /// (``FactoryConstruction/running(_:requester:argument:shared:lookingForCircle:_:)``):
    /// the outcome kept of the same request before, or where the records
    /// stood before the factory runs, to keep what it does.
    struct Running {
        private let run: VerificationRun
        private let key: FactoryKey
        private let request: Request?
        private let depth: Int
        private let start: Start

        /// The run of the factory of `key`, `depth` on the chain, for a
        /// request to `requester` (`nil`: its outcome is not kept) with `argument`.
        @inline(never)
        init<Argument>(
            _ run: VerificationRun, _ key: FactoryKey, requester: MetaController?, argument: Argument, shared: Bool,
            depth: Int
        ) {
            self.run = run
            self.key = key
            self.request = requester.flatMap { Request(key, requester: $0, argument: argument, shared: shared) }
            self.depth = depth
            start = run.start
        }

        /// The outcome of the same request made before in the run, replayed;
        /// `nil` when the factory is to run.
        @inline(never)
        func replayed<Product>(as _: Product.Type) throws -> Product? {
            guard let request, let outcome = run.outcome(of: request) else { return nil }
            return try run.replay(outcome, of: key, as: Product.self)
        }

        /// Keeps `result`, the factory's product.
        @inline(never)
        func made(_ result: Any) {
            run.made(request, result, depth: depth, since: start)
        }

        /// Keeps `error`, the factory's failure.
        @inline(never)
        func failed(_ error: any Error) {
            run.failed(request, error, depth: depth, since: start)
        }
    }

    /// What a request's factory did, and what to record again when it is requested again.
    struct Outcome {
        let result: Result<Any, any Error>
        /// The failure reported for it.
        let failure: FactoryVerification.Failure?
        /// The depth of its factory on the chain when it ran (its key's index in the chains, plus one).
        let depth: Int
        /// The findings recorded while its factory ran.
        let findings: ArraySlice<FactoryVerification.Failure>
    }

    /// Where the records stood when a factory started.
    struct Start {
        let mark: Int
        let findingMark: Int
    }

    /// A shared factory's key, and the MetaController it is registered in
    /// (kept alive by its stand-in, a child of it, for the run).
    private struct SharedKey: Hashable {
        let owner: ObjectIdentifier
        let key: FactoryKey
    }

    let recorder: FactoryVerification
    private var outcomes: [Request: Outcome] = [:]
    /// The shared products made whose outcome has nothing to record again.
    private var sharedMade: [SharedKey: FactorySlot] = [:]
    /// The chain of async factories this run's synchronous requests are made
    /// under (a section of an async verification, ``AsyncVerificationRun``):
    /// the start of every chain it records. Empty for ``MetaController/verify(consumers:samples:)``.
    let prefix: [FactoryKey]
    /// The factory a request made outside every synchronous factory is
    /// recorded as made by; `nil` to attribute it later (``FactoryVerification/attributeRequests(to:)``).
    var requesterKey: FactoryKey?
    /// Where the shared products' outcomes are kept for the whole of an async
    /// verification, across its sections; `nil` in a synchronous verification.
    private let store: SharedOutcomes?

    /// A run; `recordsRequests` makes it record the requests made by the factories it runs.
    init(recordsRequests: Bool = false) {
        recorder = FactoryVerification(recordsRequests: recordsRequests)
        prefix = []
        store = nil
    }

    /// A run for one section of an async verification: what it records goes
    /// to `recorder`, its chains start with `prefix`, and its shared products'
    /// outcomes are kept in `store`.
    init(recorder: FactoryVerification, prefix: [FactoryKey], requesterKey: FactoryKey?, store: SharedOutcomes) {
        self.recorder = recorder
        self.prefix = prefix
        self.requesterKey = requesterKey
        self.store = store
    }

    /// The outcome of `request`, when it was made in this run (or, for a
    /// shared product, in an earlier section of the same async verification).
    func outcome(of request: Request) -> Outcome? {
        if let outcome = outcomes[request] { return outcome }
        guard request.shared, let store else { return nil }
        return store.outcome(of: request.key, requester: request.requester)
    }

    /// The records' marks, before a factory runs for `request`.
    var start: Start {
        Start(mark: recorder.mark, findingMark: recorder.findingMark)
    }

    /// Keeps the product `result` of `request`, and drops the failures its
    /// factory caught.
    func made(_ request: Request?, _ result: Any, depth: Int, since start: Start) {
        recorder.drop(since: start.mark)
        guard let request else { return }
        keep(Outcome(result: .success(result), failure: nil, depth: depth, findings: findings(since: start)), for: request)
    }

    /// The findings recorded since `start`.
    private func findings(since start: Start) -> ArraySlice<FactoryVerification.Failure> {
        let end = recorder.findingMark
        return end > start.findingMark ? recorder.findings(in: start.findingMark..<end) : []
    }

    private func keep(_ outcome: Outcome, for request: Request) {
        outcomes[request] = outcome
        if request.shared, let store { store.keep(outcome, of: request.key, requester: request.requester) }
    }

    /// Keeps the failure of `request`. When nothing its factory requested
    /// failed, the factory itself threw: that is recorded.
    func failed(_ request: Request?, _ error: any Error, depth: Int, since start: Start) {
        var failure = recorder.lastFailure(since: start.mark)
        if failure == nil {
            let chain = FactoryConstruction.chain
            let thrower = chain.last.map { "the factory of \($0) threw: " } ?? "threw: "
            let threw = FactoryVerification.Failure(kind: .factoryThrew, chain: chain, message: thrower + "\(error)")
            recorder.record(threw)
            failure = threw
        }
        guard let request else { return }
        keep(Outcome(result: .failure(error), failure: failure, depth: depth, findings: findings(since: start)), for: request)
    }

    /// The outcome of a request of `key` made before in this run, for the
    /// same request again: what it recorded is recorded again, with the
    /// chain that leads here now; then its product, or its error.
    func replay<Product>(_ outcome: Outcome, of key: FactoryKey, as _: Product.Type) throws -> Product {
        let index = outcome.depth - 1
        var prefix: [FactoryKey]?
        // This request's factory is innermost: the chain before it.
        func chain(from recorded: [FactoryKey]) -> [FactoryKey] {
            guard recorded.count > index, recorded[index] == key else { return recorded }
            if prefix == nil { prefix = FactoryConstruction.chain.dropLast() }
            return (prefix ?? []) + recorded[index...]
        }
        if !outcome.findings.isEmpty {
            for finding in outcome.findings {
                recorder.find(
                    FactoryVerification.Failure(
                        kind: finding.kind, chain: chain(from: finding.chain), message: finding.message))
            }
        }
        switch outcome.result {
        case .success(let product):
            // Kept by a request for the same key, made from the same types.
            return product as! Product
        case .failure(let error):
            if let failure = outcome.failure {
                // A circle is the circle alone, whatever led to it.
                let replayed = failure.kind == .circularFactories ? failure.chain : chain(from: failure.chain)
                recorder.record(FactoryVerification.Failure(kind: failure.kind, chain: replayed, message: failure.message))
            }
            throw error
        }
    }

    /// The product of the shared factory registered under `key` in `owner`,
    /// made once per verification with a stand-in for `owner`, and kept here
    /// rather than in `owner`.
    ///
    /// A product made with nothing to record again is found in a table of
    /// its own first, without a node on the chain or a cast: a graph of
    /// shared services asks for each many times.
    func sharedProduct(
        of factory: FactorySlot.SharedFactory, key: FactoryKey, owner: MetaController
    ) throws -> FactorySlot {
        let sharedKey = SharedKey(owner: ObjectIdentifier(owner), key: key)
        if let made = sharedMade[sharedKey] { return made }
        let stand = recorder.standIn(for: owner)
        let made = try FactoryConstruction.running(key, requester: stand, argument: (), shared: true) {
            try factory(stand)
        }
        if let request = Request(key, requester: stand, argument: (), shared: true),
            outcomes[request]?.findings.isEmpty == true
        {
            sharedMade[sharedKey] = made
        }
        return made
    }

    /// Lets go of the products made and the stand-ins.
    func finish() -> (outcomes: [Request: Outcome], standIns: [MetaController]) {
        defer {
            outcomes = [:]
            sharedMade = [:]
        }
        return (outcomes, recorder.finish())
    }
}

extension FactorySlot {
    /// The product in a ``made(_:)`` or ``madeObject(_:)`` slot, as `Any`.
    var anyProduct: Any? {
        switch self {
        case .madeObject(let object): object
        case .made(let made): made.product
        case .registration, .shared, .building, .awaited, .asyncRegistration, .asyncShared, .asyncBuilding: nil
        }
    }
}
