/// Runs the updates of derived properties (``Property/map(_:)``, ``Property/combined(with:_:)``,
/// ``Property/removingDuplicates()``) made on one thread, so that a chain of any length updates
/// in bounded stack.
///
/// A set delivers to its followers on the setting thread, and a derived property's update is a
/// set of its own: along a chain of 200 `map`s each level called the next, and a 512 KiB thread
/// ran out of stack. Up to ``directDepth`` nested updates still run at once, as they always did;
/// one deeper is queued, and the deepest direct update runs the queued ones in a loop, in the
/// order they were queued, before it returns. So every update is made before the set that
/// started it returns, and nothing recurses per level.
enum DerivedUpdates {
    /// How many derived updates nest on a thread before the next ones are queued.
    static let directDepth = 8

    /// The updates of one outermost update and what it led to, on one thread.
    private final class Scope {
        var depth = 0
        var queued = FIFOQueue<() -> Void>()
    }

    private static let current = ThreadLocalPointer()

    /// Where tests hold threads after the deepest direct update, before they run what was
    /// queued below it (see `PropertyChainTests`), by thread: only a thread named runs its hold,
    /// so tests that run at once each hold their own.
    static let beforeDraining = Lock<[UInt: @Sendable () -> Void]>([:])

    /// Runs `update` now, or queues it when ``directDepth`` updates are under way on this thread.
    static func run(_ update: @escaping () -> Void) {
        let scope: Scope
        let isOutermost: Bool
        if let pointer = current.value {
            scope = Unmanaged<Scope>.fromOpaque(pointer).takeUnretainedValue()
            isOutermost = false
        } else {
            scope = Scope()
            current.value = UnsafeRawPointer(Unmanaged.passUnretained(scope).toOpaque())
            isOutermost = true
        }
        // `scope` is kept by this frame while the pointer is set.
        defer { if isOutermost { current.value = nil } }
        guard scope.depth < directDepth else {
            scope.queued.append(update)
            return
        }
        scope.depth += 1
        defer { scope.depth -= 1 }
        update()
        guard scope.depth == directDepth else { return }
        if let hold = beforeDraining.withLock({ $0[ThreadIdentity.current] }) { hold() }
        // The deepest direct update: what was queued below it runs here, one after another; what
        // those queue in turn joins the end of the queue.
        while !scope.queued.isEmpty { scope.queued.removeFirst()() }
    }

    /// The sources let go of while an outermost release is under way on one thread.
    private final class Releases {
        var pending: [[SubscriptionToken]] = []
    }

    private static let releasing = ThreadLocalPointer()

    /// Lets go of a released property's `sources`. When that releases a source, and its release
    /// its own sources, down a chain, each is let go of here in a loop: releasing a chain of
    /// 10,000 derived properties at once recursed once per level, and crashed a 512 KiB thread.
    static func release(_ sources: consuming [SubscriptionToken]) {
        if let pointer = releasing.value {
            Unmanaged<Releases>.fromOpaque(pointer).takeUnretainedValue().pending.append(consume sources)
            return
        }
        guard !sources.isEmpty else { return }
        let releases = Releases()
        releases.pending.append(consume sources)
        releasing.value = UnsafeRawPointer(Unmanaged.passUnretained(releases).toOpaque())
        defer { releasing.value = nil }
        // Each batch is dropped at once; what its release lets go of joins `pending`.
        while !releases.pending.isEmpty { _ = releases.pending.removeLast() }
    }
}
