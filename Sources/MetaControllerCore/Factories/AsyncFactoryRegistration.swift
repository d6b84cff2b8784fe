/// A registered async factory, stored type-erased in a MetaController as
/// ``FactorySlot/asyncRegistration(_:)`` and found again, as
/// ``FactoryRegistration`` is, under a key made from the same two types.
final class AsyncFactoryRegistration<Argument, Product>: Sendable {
    /// Makes a product for a request: the key, the requesting MetaController,
    /// the argument, and the caller's actor, which the call stays on until
    /// the factory itself runs (so that neither the argument nor the product
    /// crosses an actor on the way).
    /// `frame`, when an async verification makes the request, is the
    /// requesting factory's frame (``AsyncVerificationFrame``).
    typealias Make =
        @Sendable (
            FactoryKey, _ requester: MetaController, Argument, _ isolation: isolated (any Actor)?,
            _ frame: AsyncVerificationFrame?
        ) async throws -> Product

    /// Makes the request a verification makes of the registration (``AsyncVerifiableRegistration``).
    typealias Verifier =
        @Sendable (FactoryKey, _ requester: MetaController, _ samples: [ObjectIdentifier: Any]) -> (
            @Sendable (AsyncVerificationFrame) async throws -> any Sendable
        )?

    private let make: Make
    private let verifier: Verifier

    private init(_ make: @escaping Make, verifier: @escaping Verifier) {
        self.make = make
        self.verifier = verifier
    }

    /// Makes a product for a request to `requester`.
    func product(
        key: FactoryKey, requester: MetaController, argument: Argument, isolation: isolated (any Actor)?,
        frame: AsyncVerificationFrame? = nil
    ) async throws -> Product {
        try await make(key, requester, argument, isolation, frame)
    }
}

extension AsyncFactoryRegistration where Argument: Sendable, Product: Sendable {
    /// Makes a new product on every request, in a child task of the requesting one, with the
    /// requesting MetaController.
    static func perRequest(
        _ build: @escaping @Sendable (MetaController, Argument) async throws -> Product, sample: Argument? = nil
    ) -> AsyncFactoryRegistration {
        let make: Make = { key, requester, argument, _, frame in
            let product: Product
            if let frame {
                // Verified: made once per verification, its failures recorded (``AsyncVerificationRun``).
                product = try await frame.run.request(
                    key, requester: requester, argument: argument, shared: false, from: frame
                ) { try await build(requester, argument) }
            } else {
                product = try await AsyncFactoryChain.running(key) { try await build(requester, argument) }
            }
            await requester.handOn(toMade: product)
            return product
        }
        let verifier: Verifier = { key, requester, samples in
            let argument: Argument
            if let given = samples[ObjectIdentifier(Argument.self)] {
                // Stored under its own type's identity (``FactorySample``), so the cast cannot fail.
                argument = given as! Argument
            } else if ObjectIdentifier(Argument.self) == ObjectIdentifier(Void.self) {
                argument = () as! Argument
            } else if let sample {
                argument = sample
            } else {
                return nil
            }
            return { frame in try await make(key, requester, argument, nil, frame) }
        }
        return AsyncFactoryRegistration(make, verifier: verifier)
    }
}

/// An async registration, whatever its types, as ``MetaController/verification(consumers:samples:)`` makes it.
protocol AsyncVerifiableRegistration: AnyObject, Sendable {
    /// The request a verification makes of this registration for
    /// `requester`, with the sample argument of its argument type (the one in
    /// `samples`, else the one it declared); `nil` when there is none.
    func verificationRequest(
        key: FactoryKey, requester: MetaController, samples: [ObjectIdentifier: Any]
    ) -> (@Sendable (AsyncVerificationFrame) async throws -> any Sendable)?
}

extension AsyncFactoryRegistration: AsyncVerifiableRegistration {
    func verificationRequest(
        key: FactoryKey, requester: MetaController, samples: [ObjectIdentifier: Any]
    ) -> (@Sendable (AsyncVerificationFrame) async throws -> any Sendable)? {
        verifier(key, requester, samples)
    }
}

/// The factories that an async request's task is running, innermost first: a
/// task-local chain, the async counterpart of ``FactoryConstruction``'s
/// per-thread one (a task moves between threads at each suspension, so a
/// thread's chain cannot follow it).
///
/// A child task (`async let`, a task group) and a `Task { }` started inside a
/// factory inherit it, so what they request is seen as requested by that factory.
final class AsyncFactoryChain: Sendable {
    let key: FactoryKey
    let outer: AsyncFactoryChain?
    /// The shared construction this factory runs in, its own or its nearest
    /// outer one's; `nil` outside every shared construction.
    let build: AsyncSharedBuild?

    private init(key: FactoryKey, outer: AsyncFactoryChain?, build: AsyncSharedBuild?) {
        self.key = key
        self.outer = outer
        self.build = build
    }

    /// The innermost factory the current task runs.
    @TaskLocal static var innermost: AsyncFactoryChain?

    /// Runs `body`, the factory of `key` made for one request, with `key` on the chain.
    ///
    /// - Throws: ``MetaControllerError/Code/circularFactories`` when `key` is
    ///   already on the chain: the factory requested, directly or through
    ///   others, the product it is making.
    ///
    /// The chain is bound in a child task (`async let`) that runs `body`, never
    /// in the caller's own task: on the Apple runtimes before Swift 6 (iOS 17,
    /// macOS 14 and earlier) binding a task-local directly in the body of a
    /// `withTaskGroup` traps (swiftlang/swift#73217), and a request may well be
    /// made there. The child task is cancelled with the caller's.
    static func running<Result: Sendable>(
        _ key: FactoryKey, _ body: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let outer = innermost
        if let outer, outer.contains(key) { throw MetaControllerError.circularFactories(outer.path(from: key) + [key]) }
        let node = AsyncFactoryChain(key: key, outer: outer, build: outer?.build)
        async let product = $innermost.withValue(node) { try await body() }
        return try await product
    }

    /// Runs `body`, the construction `build` of a shared product, with its key
    /// on the chain: in the construction's own task, which no task group holds.
    static func constructing<Result: Sendable>(
        _ build: AsyncSharedBuild, outer: AsyncFactoryChain?, _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        try await $innermost.withValue(AsyncFactoryChain(key: build.key, outer: outer, build: build)) {
            try await body()
        }
    }

    /// Whether the factory of `key` is on the chain from here outwards.
    func contains(_ key: FactoryKey) -> Bool {
        var node: AsyncFactoryChain? = self
        while let current = node {
            if current.key == key { return true }
            node = current.outer
        }
        return false
    }

    /// Whether `build` is this chain's construction or one it runs inside.
    func isInside(_ build: AsyncSharedBuild) -> Bool {
        var node: AsyncFactoryChain? = self
        while let current = node {
            if current.build === build { return true }
            node = current.outer
        }
        return false
    }

    /// The keys from the outermost factory to this one.
    var path: [FactoryKey] {
        var keys: [FactoryKey] = []
        var node: AsyncFactoryChain? = self
        while let current = node {
            keys.append(current.key)
            node = current.outer
        }
        return keys.reversed()
    }

    /// The keys from the outermost factory of `key` on the chain inwards (all of them when it is not on it).
    func path(from key: FactoryKey) -> [FactoryKey] {
        let keys = path
        guard let start = keys.lastIndex(of: key) else { return keys }
        return Array(keys[start...])
    }

    /// The keys from `build`'s own factory inwards (all of them when it is not on the chain).
    func path(from build: AsyncSharedBuild) -> [FactoryKey] {
        var keys: [FactoryKey] = []
        var node: AsyncFactoryChain? = self
        while let current = node {
            keys.append(current.key)
            if current.build === build, current.outer?.build !== build { break }
            node = current.outer
        }
        return keys.reversed()
    }
}

/// One construction of a shared async product, and the requests waiting for it.
///
/// The construction runs in a task of its own, not in the task of the
/// request that started it: every request, that one included, waits for it
/// the same way, so a request cancelled stops waiting (with its own
/// `CancellationError`) and the construction goes on for the others, and its
/// product is kept. Every waiting request gets its product, or its error.
final class AsyncSharedBuild: Sendable {
    private struct State: Sendable {
        var result: Result<FactorySlot, any Error>?
        var waiters: [UInt64: CheckedContinuation<FactorySlot, any Error>] = [:]
        /// Tests waiting until so many requests wait (``waitUntil(waiting:)``).
        var watchers: [(count: Int, done: CheckedContinuation<Void, Never>)] = []
        var lastWaiter: UInt64 = 0
        /// Waiters cancelled before they were recorded.
        var cancelled: Set<UInt64> = []
    }

    let key: FactoryKey
    /// The factory, to put back when the construction fails or its session ends.
    let factory: FactorySlot.AsyncSharedFactory
    private let state = Lock(State())

    init(key: FactoryKey, factory: @escaping FactorySlot.AsyncSharedFactory) {
        self.key = key
        self.factory = factory
    }

    /// The construction's product, or its error, once it ends; a
    /// `CancellationError` as soon as the waiting task is cancelled.
    func wait() async throws -> FactorySlot {
        let waiter = state.withLock { state in
            state.lastWaiter &+= 1
            return state.lastWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<FactorySlot, any Error>) in
                let now = state.withLock { state -> Result<FactorySlot, any Error>? in
                    if let result = state.result { return result }
                    if state.cancelled.remove(waiter) != nil { return .failure(CancellationError()) }
                    state.waiters[waiter] = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
                notifyWatchers()
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<FactorySlot, any Error>? in
                if let continuation = state.waiters.removeValue(forKey: waiter) { return continuation }
                if state.result == nil { state.cancelled.insert(waiter) }
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Ends the construction with `result` and hands it to every request waiting.
    func finish(with result: Result<FactorySlot, any Error>) {
        let (waiters, watchers) = state.withLock { state in
            state.result = result
            state.cancelled = []
            defer {
                state.waiters = [:]
                state.watchers = []
            }
            return (state.waiters, state.watchers)
        }
        for waiter in waiters.values { waiter.resume(with: result) }
        for watcher in watchers { watcher.done.resume() }
    }

    /// How many requests wait for the construction now (for tests).
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Returns once `count` requests wait for the construction, or it has ended (a seam for tests).
    func waitUntil(waiting count: Int) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.result != nil || state.waiters.count >= count { return true }
                state.watchers.append((count, done))
                return false
            }
            if now { done.resume() }
        }
    }

    private func notifyWatchers() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.watchers.isEmpty else { return [] }
            let waiting = state.waiters.count
            let ended = state.result != nil
            let ready = state.watchers.filter { ended || waiting >= $0.count }.map(\.done)
            state.watchers.removeAll { ended || waiting >= $0.count }
            return ready
        }
        for watcher in ready { watcher.resume() }
    }
}

/// Which construction waits for which: a wait-for graph over the shared async
/// constructions, so that shared factories that need each other, first
/// requested in different tasks, throw ``MetaControllerError/Code/circularFactories``
/// instead of waiting for each other forever.
///
/// A request made inside a construction (its chain's ``AsyncFactoryChain/build``)
/// that finds another construction under way records that the first waits
/// for the second, after following the waits from the second: when they lead
/// back to the first, the request throws instead. Check and record are made
/// under one lock, so of the requests that close a circle exactly one finds
/// it: the last one to wait.
enum AsyncSharedWaits {
    private struct Wait: Sendable {
        let waiter: AsyncSharedBuild
        let awaited: AsyncSharedBuild
    }

    private static let waits = Lock([Wait]())

    /// Waits for `build` on behalf of the construction `waiter` (`nil` for a
    /// request made outside every construction), unless that would close a circle.
    ///
    /// - Throws: ``MetaControllerError/Code/circularFactories``, from the
    ///   waiting construction's factory through `build`'s and the ones it
    ///   waits for, back to it; a `CancellationError` when the waiting task is
    ///   cancelled; otherwise the construction's own error.
    static func wait(for build: AsyncSharedBuild, by chain: AsyncFactoryChain?) async throws -> FactorySlot {
        guard let chain, let waiter = chain.build else { return try await build.wait() }
        let through = waits.withLock { waits -> [FactoryKey]? in
            if let path = path(from: build, to: waiter, in: waits) { return path }
            waits.append(Wait(waiter: waiter, awaited: build))
            return nil
        }
        if let through {
            throw MetaControllerError.circularFactories(chain.path(from: waiter) + [build.key] + through)
        }
        defer {
            waits.withLock { waits in
                if let index = waits.firstIndex(where: { $0.waiter === waiter && $0.awaited === build }) {
                    waits.remove(at: index)
                }
            }
        }
        return try await build.wait()
    }

    /// The keys of the constructions each one waits for, from `start` to
    /// `end`, when the waits recorded lead from one to the other; `nil` when they do not.
    private static func path(from start: AsyncSharedBuild, to end: AsyncSharedBuild, in waits: [Wait]) -> [FactoryKey]? {
        // Breadth first, over a graph with one node per construction under way: no recursion.
        var reached: [ObjectIdentifier: (from: AsyncSharedBuild?, build: AsyncSharedBuild)] = [
            ObjectIdentifier(start): (nil, start)
        ]
        var frontier = [start]
        while !frontier.isEmpty {
            var next: [AsyncSharedBuild] = []
            for build in frontier {
                for wait in waits where wait.waiter === build {
                    guard reached[ObjectIdentifier(wait.awaited)] == nil else { continue }
                    reached[ObjectIdentifier(wait.awaited)] = (build, wait.awaited)
                    if wait.awaited === end {
                        var keys: [FactoryKey] = []
                        var current: AsyncSharedBuild? = end
                        while let step = current, step !== start {
                            keys.append(step.key)
                            current = reached[ObjectIdentifier(step)]?.from
                        }
                        return keys.reversed()
                    }
                    next.append(wait.awaited)
                }
            }
            frontier = next
        }
        return start === end ? [] : nil
    }

    /// How many waits are recorded for constructions of `key` (for tests).
    static func waitCount(for key: FactoryKey) -> Int {
        waits.withLock { waits in waits.filter { $0.awaited.key == key }.count }
    }
}
