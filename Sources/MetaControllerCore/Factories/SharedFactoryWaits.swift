import Dispatch

/// Which thread makes each shared product under way, and which build each
/// thread waits for: a wait-for graph, so that shared factories that need each
/// other, first requested on different threads, throw
/// ``MetaControllerError/Code/circularFactories`` instead of waiting for each
/// other forever.
///
/// A request that finds its shared product being made by another thread
/// waits for that build (``MetaController/State/claimFactory(_:)``). Before
/// it waits, it follows the waits from the build it would wait for: the
/// thread making it, the build that thread waits for, the thread making that,
/// and so on. When that leads back to this thread, every thread on the way
/// would wait for ever, and the request throws instead. The check and the
/// record of the wait are made under one lock, so of the threads that close
/// a circle exactly one finds it: the last one to wait.
///
/// Only threads that run a factory are in the graph: a thread that runs none
/// makes no product, so no circle goes through it.
enum SharedFactoryWaits {
    /// One build of a shared product: the MetaController whose slot it is and
    /// the build's number there (``FactorySlot/building(_:)``).
    struct Build: Hashable, Sendable {
        let owner: ObjectIdentifier
        let number: UInt64

        init(_ owner: MetaController, _ number: UInt64) {
            self.owner = ObjectIdentifier(owner)
            self.number = number
        }
    }

    private struct Graph: Sendable {
        /// The thread making each build under way (``FactoryConstruction/thread``), and the build's key.
        var builders: [Build: (thread: UInt, key: FactoryKey)] = [:]
        /// The build each thread that makes a product waits for, and its key.
        var waits: [UInt: (build: Build, key: FactoryKey)] = [:]
    }

    private static let graph = Lock(Graph())

    /// Runs `body`, which makes the product of `build` under `key`, with this
    /// thread recorded as the one making it.
    ///
    /// - Precondition: A factory runs on this thread (`body` is inside ``FactoryConstruction/running(_:requester:argument:shared:lookingForCircle:_:)``).
    static func making<Result>(_ build: Build, key: FactoryKey, _ body: () throws -> Result) rethrows -> Result {
        guard let thread = FactoryConstruction.thread else { return try body() }
        graph.withLock { $0.builders[build] = (thread, key) }
        defer { graph.withLock { _ = $0.builders.removeValue(forKey: build) } }
        return try body()
    }

    /// Waits on `waiters` until `build` of `key` ends, unless the wait would
    /// close a circle of threads waiting for each other's builds.
    ///
    /// - Throws: ``MetaControllerError/Code/circularFactories``, with the
    ///   keys from this thread's build that the circle returns to, through
    ///   `key` and the build each other thread on the circle waits for, back
    ///   to it: `B -> A -> B` for a thread making `B` whose factory asks for
    ///   `A`, made by a thread that waits for `B`.
    static func wait(for build: Build, key: FactoryKey, on waiters: DispatchGroup) throws(MetaControllerError) {
        guard let thread = FactoryConstruction.thread else {
            waiters.wait()
            return
        }
        let circle = graph.withLock { graph -> (closedAt: FactoryKey, through: [FactoryKey])? in
            var current = build
            var through: [FactoryKey] = []
            // Every step goes to another waiting thread, and the waits recorded
            // never form a circle, so the walk ends; the bound is a guard.
            for _ in 0...graph.waits.count {
                guard let builder = graph.builders[current] else { break }
                if builder.thread == thread { return (builder.key, through) }
                guard let next = graph.waits[builder.thread] else { break }
                through.append(next.key)
                current = next.build
            }
            graph.waits[thread] = (build, key)
            return nil
        }
        if let circle {
            throw MetaControllerError.circularFactories(
                FactoryConstruction.path(from: circle.closedAt) + [key] + circle.through)
        }
        waiters.wait()
        graph.withLock { _ = $0.waits.removeValue(forKey: thread) }
    }

    /// Whether a thread waits for a build of `key` (for tests).
    static func isAwaited(_ key: FactoryKey) -> Bool {
        graph.withLock { graph in graph.waits.values.contains { $0.key == key } }
    }
}
