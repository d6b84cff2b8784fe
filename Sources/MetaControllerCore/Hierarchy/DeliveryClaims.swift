import Dispatch

/// Lets one thread at a time give a consumer a MetaController, so that a consumer passed its
/// MetaController by several threads at once receives it once, and its
/// ``MetaControllerConsumer/metaControllerDidArrive()`` runs once.
///
/// A delivery reads what the consumer holds, decides, and sets it: two threads doing that at
/// once both read "nothing" and both set and call the hook. The protocol's property is a plain
/// `get`/`set`, so the consumer cannot compare and swap; instead a delivery claims the consumer
/// here, by identity, for the read and the set (not the hook), and a second thread delivering to
/// the same consumer waits for the first and then reads what it left.
///
/// Claims are kept in a few striped tables, each behind its own lock, and a claim is one short
/// lock to take and one to release: uncontended, a pass pays that and nothing else (see
/// Docs/Performance.md). A thread that waits sleeps on a semaphore made only then. A claim is
/// not held while user code other than the consumer's own `metaController` setter runs; a
/// setter that delivers to the same consumer again, on the same thread, goes through (the
/// claim is its own), and one that waits for another thread delivering to it deadlocks, as any
/// lock would.
enum DeliveryClaims {
    /// Points where a test holds one side of a race (see `MetaControllerConsumerTests`).
    struct Seams: Sendable {
        /// Called by the delivery that holds the claim, after it read what the consumer holds and before it sets it.
        var claimed: @Sendable () -> Void = {}
        /// Called by a delivery that found the consumer claimed by another thread, before it waits.
        var waiting: @Sendable () -> Void = {}
    }

    /// What ``claim(_:)`` got.
    enum Claim {
        /// The claim is this call's: release it with ``release(_:)``.
        case owned(Seams?)
        /// This thread holds the claim already, further up its stack (a setter that delivers
        /// to its own consumer): nothing to release.
        case nested
    }

    private struct Entry: Sendable {
        let consumer: ObjectIdentifier
        let owner: UInt
        /// How many threads wait for this claim to go, and what wakes them.
        var waiters = 0
        var wake: DispatchSemaphore?
    }

    private struct Stripe: Sendable {
        /// The claims held now: almost always none or one, so a list beats a dictionary.
        var entries: [Entry] = []
        /// The consumers tests watch, with their seams: none outside tests.
        var watched: [(consumer: ObjectIdentifier, seams: Seams)] = []
    }

    private static let stripes: [Lock<Stripe>] = (0..<16).map { _ in Lock(Stripe()) }

    private static func stripe(of consumer: ObjectIdentifier) -> Lock<Stripe> {
        stripes[consumer.hashValue & (stripes.count - 1)]
    }

    /// Claims `consumer` for the current thread, waiting while another thread holds it.
    static func claim(_ consumer: AnyObject) -> Claim {
        let id = ObjectIdentifier(consumer)
        let thread = ThreadIdentity.current
        let stripe = stripe(of: id)
        while true {
            let (wait, claim) = stripe.withLock { state -> (DispatchSemaphore?, Claim) in
                let seams = state.watched.isEmpty ? nil : state.watched.first { $0.consumer == id }?.seams
                guard let index = state.entries.firstIndex(where: { $0.consumer == id }) else {
                    state.entries.append(Entry(consumer: id, owner: thread))
                    return (nil, .owned(seams))
                }
                if state.entries[index].owner == thread { return (nil, .nested) }
                let wake = state.entries[index].wake ?? DispatchSemaphore(value: 0)
                state.entries[index].wake = wake
                state.entries[index].waiters += 1
                return (wake, .owned(seams))
            }
            guard let wait else { return claim }
            if case .owned(let seams) = claim { seams?.waiting() }
            wait.wait()
        }
    }

    /// Releases the claim ``claim(_:)`` gave this thread, waking the threads that wait for it.
    static func release(_ consumer: AnyObject) {
        let id = ObjectIdentifier(consumer)
        let (wake, waiters) = stripe(of: id).withLock { state -> (DispatchSemaphore?, Int) in
            guard let index = state.entries.firstIndex(where: { $0.consumer == id }) else { return (nil, 0) }
            let entry = state.entries.remove(at: index)
            return (entry.wake, entry.waiters)
        }
        for _ in 0..<waiters { wake?.signal() }
    }

    /// Runs `body` with `seams` called at the critical points of deliveries to `consumer`.
    static func watching<Result>(_ consumer: AnyObject, with seams: Seams, _ body: () throws -> Result) rethrows -> Result {
        let id = ObjectIdentifier(consumer)
        stripe(of: id).withLock { $0.watched.append((id, seams)) }
        defer { stripe(of: id).withLock { $0.watched.removeAll { $0.consumer == id } } }
        return try body()
    }
}
