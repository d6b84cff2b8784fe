/// One run of ``MetaController/verification(consumers:samples:)``: the
/// async counterpart of ``VerificationRun``, shared by the tasks it runs.
///
/// Each async registration is verified in a child task of its own, all at
/// once; every request an async factory makes goes through ``request(_:requester:argument:shared:from:_:)``,
/// which runs each factory once per run (the same request again, from any
/// task, gets the first outcome, waiting for it while it is made) and records
/// what fails in the requesting factory's ``AsyncVerificationFrame``, the
/// task-local context that plays the part of the thread's chain in a
/// synchronous verification.
///
/// A synchronous factory is made in a section (``section(from:_:)``): one
/// section at a time in the whole run, on the thread that asks, with a
/// ``VerificationRun`` of its own set as the thread's verification while the
/// factory runs and cleared before the thread returns to async code (a
/// thread-local context held across a suspension would be seen by whatever
/// job the thread runs next). Sections hold a lock around user code on
/// purpose: synchronous factories never run two at once, as in `verify`, and
/// cannot suspend. Shared products' outcomes are kept across sections
/// (``SharedOutcomes``); a per-request synchronous product is not, since it
/// need not be `Sendable`: no two tasks are given one instance.
final class AsyncVerificationRun: Sendable {
    /// A request whose outcome is kept: a key, the MetaController it was made
    /// to, its argument, and whether it is a shared factory's.
    struct Request: Hashable, Sendable {
        let key: FactoryKey
        /// Kept, so that its identity stays its own while the run lasts.
        let requester: MetaController
        let argument: Argument?
        let shared: Bool

        /// The request; `nil` when the argument is not `Hashable`, so that two requests cannot be told apart.
        init?<Value: Sendable>(_ key: FactoryKey, requester: MetaController, argument: Value, shared: Bool) {
            if ObjectIdentifier(Value.self) == ObjectIdentifier(Void.self) {
                self.argument = nil
            } else if let argument = Argument(argument) {
                self.argument = argument
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

    /// A `Hashable` argument, kept as a `Sendable` value (`AnyHashable` is not one).
    struct Argument: Hashable, Sendable {
        private let value: any Sendable
        private let hash: Int
        private let equals: @Sendable (any Sendable) -> Bool

        init?<Value: Sendable>(_ value: Value) {
            guard let hashable = value as? any Hashable else { return nil }
            self.value = value
            hash = AnyHashable(hashable).hashValue
            equals = { other in
                guard let other = other as? Value, let left = value as? any Hashable,
                    let right = other as? any Hashable
                else { return false }
                return AnyHashable(left) == AnyHashable(right)
            }
        }

        static func == (lhs: Argument, rhs: Argument) -> Bool { lhs.equals(rhs.value) }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    private struct State: Sendable {
        /// Each request made, by the frame that runs (or ran) its factory.
        var requests: [Request: AsyncVerificationFrame] = [:]
        /// What each frame's factory waits for: a request it runs in its task,
        /// or one another task runs. Followed to find circles across tasks.
        var waits: [(waiter: AsyncVerificationFrame, awaited: AsyncVerificationFrame)] = []
        var isFinished = false
    }

    let recorder: FactoryVerification
    /// The shared products' outcomes, across sections.
    let store = SharedOutcomes()
    /// Held while a section runs a synchronous factory (see the type's comment).
    private let sections = Lock(())
    private let state = Lock(State())

    init(recordsRequests: Bool) {
        recorder = FactoryVerification(recordsRequests: recordsRequests)
    }

    /// Whether the run has ended: a frame a task kept after it (a `Task { }`
    /// started by a factory) no longer verifies anything.
    var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Ends the run: lets go of the outcomes and the stand-ins.
    func finish() -> [MetaController] {
        let requests = state.withLock { state in
            state.isFinished = true
            defer {
                state.requests = [:]
                state.waits = []
            }
            return state.requests
        }
        withExtendedLifetime(requests) {}
        store.clear()
        return recorder.finish()
    }

    /// Verifies one registration in the current task: runs `body` (its
    /// request) in a frame of its own and returns what it made or how it failed.
    func verify(
        _ key: FactoryKey, _ body: @Sendable (AsyncVerificationFrame) async throws -> (any Sendable)
    ) async -> AsyncVerificationFrame.Checked {
        let root = AsyncVerificationFrame(run: self, registration: key)
        do {
            let product = try await AsyncVerificationFrame.$current.withValue(root) { try await body(root) }
            return root.checked(product: product, error: nil)
        } catch {
            return root.checked(product: nil, error: error)
        }
    }

    /// The product of the shared async factory registered under `key` in
    /// `owner`, made once per verification with a stand-in for `owner`, and
    /// kept here rather than in `owner`.
    func sharedAsyncProduct(
        of factory: @escaping FactorySlot.AsyncSharedFactory, key: FactoryKey, owner: MetaController,
        from frame: AsyncVerificationFrame
    ) async throws -> FactorySlot {
        let stand = recorder.standIn(for: owner)
        return try await request(key, requester: stand, argument: (), shared: true, from: frame) {
            try await factory(stand)
        }
    }

    /// Runs `body`, the factory of `key` made for a request to `requester`
    /// with `argument`, once per run, from the factory of `frame`.
    ///
    /// The first request runs it, in the requesting task, in a frame of its
    /// own; the same request again gets its product or its error, waiting
    /// while it is made, and what the first one recorded is recorded again
    /// with the chain that leads here. A request whose factory is on the
    /// requesting chain, or that would wait for a request that waits, through
    /// others, for this chain, fails with ``MetaControllerError/Code/circularFactories``
    /// instead of waiting for ever.
    func request<Product: Sendable, Value: Sendable>(
        _ key: FactoryKey, requester: MetaController, argument: Value, shared: Bool, from frame: AsyncVerificationFrame,
        _ body: @escaping @Sendable () async throws -> Product
    ) async throws -> Product {
        if let start = frame.path.firstIndex(of: key) {
            throw frame.circle(Array(frame.path[start...]) + [key])
        }
        let request = Request(key, requester: requester, argument: argument, shared: shared)
        let child = AsyncVerificationFrame(run: self, outer: frame, key: key)
        let found = state.withLock { state -> Found in
            if let request, let existing = state.requests[request] {
                if let outcome = existing.outcome { return .made(outcome) }
                if let circle = Self.circle(waitingFor: existing, from: frame, in: state.waits) { return .circle(circle) }
                if frame.key != nil { state.waits.append((frame, existing)) }
                return .running(existing)
            }
            if let request { state.requests[request] = child }
            if frame.key != nil { state.waits.append((frame, child)) }
            return .new
        }
        switch found {
        case .made(let outcome):
            return try frame.replay(outcome, of: key)
        case .circle(let keys):
            throw frame.circle(keys)
        case .running(let existing):
            let outcome = await existing.finished()
            stopWaiting(frame, for: existing)
            return try frame.replay(outcome, of: key)
        case .new:
            let outcome: AsyncVerificationFrame.Outcome
            do {
                // Bound in a child task, not in the requesting one: binding a task-local
                // in a task group's body traps on Apple runtimes before Swift 6.
                async let made = AsyncVerificationFrame.$current.withValue(child) { try await body() }
                let product = try await made
                outcome = child.finish(.success(product))
            } catch {
                outcome = child.finish(.failure(error))
            }
            stopWaiting(frame, for: child)
            frame.absorb(outcome)
            switch outcome.result {
            // Kept for a request of the same key, made from the same types.
            case .success(let product): return product as! Product
            case .failure(let error): throw error
            }
        }
    }

    /// What a request found in the run.
    private enum Found {
        case made(AsyncVerificationFrame.Outcome)
        case running(AsyncVerificationFrame)
        case circle([FactoryKey])
        case new
    }

    private func stopWaiting(_ waiter: AsyncVerificationFrame, for awaited: AsyncVerificationFrame) {
        guard waiter.key != nil else { return }
        state.withLock { state in
            if let index = state.waits.firstIndex(where: { $0.waiter === waiter && $0.awaited === awaited }) {
                state.waits.remove(at: index)
            }
        }
    }

    /// The circle closed when `frame` waits for `awaited`: the keys from the
    /// factory of `frame`'s chain that `awaited` waits for, through others,
    /// to `awaited`'s and on, back to it; `nil` when the waits lead nowhere on the chain.
    private static func circle(
        waitingFor awaited: AsyncVerificationFrame, from frame: AsyncVerificationFrame,
        in waits: [(waiter: AsyncVerificationFrame, awaited: AsyncVerificationFrame)]
    ) -> [FactoryKey]? {
        var onChain: [ObjectIdentifier: AsyncVerificationFrame] = [:]
        var current: AsyncVerificationFrame? = frame
        while let link = current, link.key != nil {
            onChain[ObjectIdentifier(link)] = link
            current = link.outer
        }
        guard !onChain.isEmpty else { return nil }
        // Breadth first, with the frame each was reached from: no recursion.
        var reached: [ObjectIdentifier: AsyncVerificationFrame?] = [ObjectIdentifier(awaited): nil]
        var frontier = [awaited]
        while !frontier.isEmpty {
            var next: [AsyncVerificationFrame] = []
            for waiter in frontier {
                for wait in waits where wait.waiter === waiter && reached[ObjectIdentifier(wait.awaited)] == nil {
                    reached[ObjectIdentifier(wait.awaited)] = waiter
                    if let closing = onChain[ObjectIdentifier(wait.awaited)] {
                        var through: [FactoryKey] = []
                        var step: AsyncVerificationFrame? = closing
                        while let link = step, link !== awaited {
                            if let key = link.key { through.append(key) }
                            step = reached[ObjectIdentifier(link)] ?? nil
                        }
                        return frame.path(from: closing) + [awaited.key].compactMap { $0 } + through.reversed()
                    }
                    next.append(wait.awaited)
                }
            }
            frontier = next
        }
        return nil
    }

    /// Runs `body`, which makes a synchronous factory's product for the
    /// factory of `frame`, as a section: alone in the run, with a
    /// ``VerificationRun`` of its own as this thread's verification until it
    /// returns, whose chains start with `frame`'s. What it records goes to `frame`.
    func section<Result>(from frame: AsyncVerificationFrame, _ body: (VerificationRun) throws -> Result) throws -> Result {
        try sections.withLock { _ in
            let run = VerificationRun(
                recorder: recorder, prefix: frame.path, requesterKey: frame.requesterKey, store: store)
            let mark = recorder.mark
            let findingMark = recorder.findingMark
            defer {
                for finding in recorder.takeFindings(since: findingMark) { frame.find(finding) }
            }
            do {
                let result = try FactoryConstruction.verifying(run) { try body(run) }
                recorder.drop(since: mark)
                return result
            } catch {
                if let failure = recorder.failures(since: mark).last { frame.fail(failure) }
                throw error
            }
        }
    }

    /// Runs `body` with a ``VerificationRun`` of the whole run's as this
    /// thread's verification, as a section: the synchronous registrations'
    /// checks, on the main actor.
    func mainSection<Result>(_ body: (VerificationRun) -> Result) -> Result {
        sections.withLock { _ in
            let run = VerificationRun(recorder: recorder, prefix: [], requesterKey: nil, store: store)
            return FactoryConstruction.verifying(run) { body(run) }
        }
    }
}

/// The outcomes of the shared factories an async verification made, across
/// its sections: a shared product is `Sendable`, so one made in one task's
/// section may be handed to another's.
final class SharedOutcomes: Sendable {
    private struct Key: Hashable, Sendable {
        let key: FactoryKey
        let requester: ObjectIdentifier
    }

    private struct Kept: Sendable {
        let result: Result<FactorySlot, any Error>
        let failure: FactoryVerification.Failure?
        let depth: Int
        let findings: [FactoryVerification.Failure]
    }

    private let outcomes = Lock([Key: Kept]())

    /// Keeps `outcome`, a shared factory's (its product a ``FactorySlot``).
    func keep(_ outcome: VerificationRun.Outcome, of key: FactoryKey, requester: MetaController) {
        let result: Result<FactorySlot, any Error>
        switch outcome.result {
        case .success(let product):
            guard let slot = product as? FactorySlot else { return }
            result = .success(slot)
        case .failure(let error):
            result = .failure(error)
        }
        let kept = Kept(result: result, failure: outcome.failure, depth: outcome.depth, findings: Array(outcome.findings))
        outcomes.withLock { $0[Key(key: key, requester: ObjectIdentifier(requester))] = kept }
    }

    /// The outcome kept for the shared factory of `key` requested of `requester`.
    func outcome(of key: FactoryKey, requester: MetaController) -> VerificationRun.Outcome? {
        guard let kept = outcomes.withLock({ $0[Key(key: key, requester: ObjectIdentifier(requester))] }) else {
            return nil
        }
        let result: Result<Any, any Error> =
            switch kept.result {
            case .success(let slot): .success(slot)
            case .failure(let error): .failure(error)
            }
        return VerificationRun.Outcome(
            result: result, failure: kept.failure, depth: kept.depth, findings: ArraySlice(kept.findings))
    }

    func clear() {
        let released = outcomes.withLock { outcomes in
            defer { outcomes = [:] }
            return outcomes
        }
        withExtendedLifetime(released) {}
    }
}

/// What an async factory being verified has recorded, and where it is: the
/// task-local context of an async verification (``AsyncVerificationRun``).
///
/// A frame is made for each factory a verification runs, with the frame of
/// the factory that requested it as its outer one, and is the current frame
/// of the task while the factory runs; the root frame of a task stands for
/// the registration verified there. A child task (`async let`, a task group)
/// and a `Task { }` started in a factory inherit it. It holds the failures of
/// the requests its factory made (dropped when the factory makes its product
/// anyway) and the findings under it, then the factory's outcome, which the
/// requests waiting for it get.
final class AsyncVerificationFrame: Sendable {
    /// What a factory's request did, for the requests made again.
    struct Outcome: Sendable {
        let result: Result<any Sendable, any Error>
        /// The failure reported for it.
        let failure: FactoryVerification.Failure?
        /// The number of keys on its chain: its key's index, plus one.
        let depth: Int
        /// The findings recorded under it.
        let findings: [FactoryVerification.Failure]
    }

    /// What verifying one registration found.
    struct Checked: Sendable {
        let product: (any Sendable)?
        /// The failure its request ended with; `nil` when it made its product.
        let failure: FactoryVerification.Failure?
        let findings: [FactoryVerification.Failure]
    }

    private struct State: Sendable {
        var pending: [FactoryVerification.Failure] = []
        var findings: [FactoryVerification.Failure] = []
        var outcome: Outcome?
        var waiters: [CheckedContinuation<Outcome, Never>] = []
    }

    /// The frame of the factory the current task runs for a verification, if any.
    @TaskLocal static var current: AsyncVerificationFrame?

    /// ``current``, unless its verification has ended.
    static var active: AsyncVerificationFrame? {
        guard let frame = current, !frame.run.isFinished else { return nil }
        return frame
    }

    let run: AsyncVerificationRun
    let outer: AsyncVerificationFrame?
    /// The key of the factory it runs; `nil` in a root frame.
    let key: FactoryKey?
    /// The registration verified in this task.
    let registration: FactoryKey
    /// The keys of the factories from the registration verified to this one.
    let path: [FactoryKey]
    private let state = Lock(State())

    /// The root frame of the task verifying `registration`.
    init(run: AsyncVerificationRun, registration: FactoryKey) {
        self.run = run
        outer = nil
        key = nil
        self.registration = registration
        path = []
    }

    /// The frame of the factory of `key`, requested by `outer`'s.
    init(run: AsyncVerificationRun, outer: AsyncVerificationFrame, key: FactoryKey) {
        self.run = run
        self.outer = outer
        self.key = key
        registration = outer.registration
        path = outer.path + [key]
    }

    /// The factory a request made here is recorded as made by: this frame's, or the registration verified.
    var requesterKey: FactoryKey { key ?? registration }

    /// The outcome, once the factory has ended.
    var outcome: Outcome? { state.withLock { $0.outcome } }

    /// Records a request of this frame's factory that failed.
    func fail(_ failure: FactoryVerification.Failure) {
        state.withLock { $0.pending.append(failure) }
    }

    /// Records a finding under this frame (one made outside every factory is the registration's).
    func find(_ finding: FactoryVerification.Failure) {
        let finding =
            finding.chain.isEmpty
            ? FactoryVerification.Failure(kind: finding.kind, chain: [registration], message: finding.message)
            : finding
        state.withLock { $0.findings.append(finding) }
    }

    /// The error of a request that closes the circle `keys`, recorded with the chain that led to it.
    func circle(_ keys: [FactoryKey]) -> MetaControllerError {
        let error = MetaControllerError.circularFactories(keys)
        let chain = keys.first.flatMap { first in path.firstIndex(of: first).map { Array(path[..<$0]) } } ?? []
        fail(FactoryVerification.Failure(kind: .circularFactories, chain: chain + keys, message: error.description))
        return error
    }

    /// The keys from the factory of `frame`, on this chain, to this one.
    func path(from frame: AsyncVerificationFrame) -> [FactoryKey] {
        Array(path.suffix(path.count - frame.path.count + 1))
    }

    /// Ends the factory with `result`: its outcome, handed to the requests waiting for it.
    func finish(_ result: Result<any Sendable, any Error>) -> Outcome {
        let (outcome, waiters) = state.withLock { state in
            var failure: FactoryVerification.Failure?
            if case .failure(let error) = result {
                failure =
                    state.pending.last
                    ?? FactoryVerification.Failure(
                        kind: .factoryThrew, chain: path,
                        message: (key.map { "the factory of \($0) threw: " } ?? "threw: ") + "\(error)")
            }
            let outcome = Outcome(result: result, failure: failure, depth: path.count, findings: state.findings)
            state.outcome = outcome
            state.pending = []
            defer { state.waiters = [] }
            return (outcome, state.waiters)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
        return outcome
    }

    /// The outcome, waited for while the factory runs.
    func finished() async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let outcome = state.withLock { state -> Outcome? in
                if let outcome = state.outcome { return outcome }
                state.waiters.append(continuation)
                return nil
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    /// Takes in what a factory this one requested recorded: its findings,
    /// and its failure, for this factory to deal with.
    func absorb(_ outcome: Outcome) {
        state.withLock { state in
            state.findings += outcome.findings
            if let failure = outcome.failure { state.pending.append(failure) }
        }
    }

    /// The outcome of a request of `key` made before in this run, for the
    /// same request again from this frame's factory: what it recorded is
    /// recorded again with the chain that leads here; then its product, or its error.
    func replay<Product>(_ outcome: Outcome, of key: FactoryKey) throws -> Product {
        let index = outcome.depth - 1
        func chain(from recorded: [FactoryKey]) -> [FactoryKey] {
            guard index >= 0, recorded.count > index, recorded[index] == key else { return recorded }
            return path + recorded[index...]
        }
        state.withLock { state in
            for finding in outcome.findings {
                state.findings.append(
                    FactoryVerification.Failure(kind: finding.kind, chain: chain(from: finding.chain), message: finding.message))
            }
            if let failure = outcome.failure {
                // A circle is the circle alone, whatever led to it.
                let replayed = failure.kind == .circularFactories ? failure.chain : chain(from: failure.chain)
                state.pending.append(FactoryVerification.Failure(kind: failure.kind, chain: replayed, message: failure.message))
            }
        }
        switch outcome.result {
        // Kept by a request for the same key, made from the same types.
        case .success(let product): return product as! Product
        case .failure(let error): throw error
        }
    }

    /// What the root frame's registration came to: its product, or the
    /// failure it ended with (`error` when nothing it requested failed), and the findings.
    func checked(product: (any Sendable)?, error: (any Error)?) -> Checked {
        state.withLock { state in
            var failure: FactoryVerification.Failure?
            if let error {
                failure =
                    state.pending.last
                    ?? FactoryVerification.Failure(
                        kind: .factoryThrew, chain: [registration], message: "the factory of \(registration) threw: \(error)")
            }
            return Checked(product: product, failure: failure, findings: state.findings)
        }
    }
}
