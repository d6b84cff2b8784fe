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
        /// Called by the delivery that holds the claim, after it read that the consumer holds
        /// another MetaController or none, and before it sets it or refuses.
        var claimed: @Sendable () -> Void = {}
        /// Called by a delivery that found the consumer claimed by another thread, before it waits.
        var waiting: @Sendable () -> Void = {}
    }

    /// What ``claim(_:)`` got.
    enum Claim {
        /// The claim is this call's: release it with ``release(_:)``. `seams` are a test's.
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
        /// A claim held now, if any: almost always none or one, so the first is kept inline.
        var first: Entry?
        /// The claims held beside the first.
        var more: [Entry] = []
        /// The consumers tests watch, with their seams: none outside tests.
        var watched: [(consumer: ObjectIdentifier, seams: Seams)] = []

        /// Runs `body` on the claim of `consumer`, if one is held.
        mutating func withEntry<Result>(of consumer: ObjectIdentifier, _ body: (inout Entry) -> Result) -> Result? {
            if first?.consumer == consumer { return body(&first!) }
            guard let index = more.firstIndex(where: { $0.consumer == consumer }) else { return nil }
            return body(&more[index])
        }

        mutating func add(_ entry: Entry) {
            if first == nil { first = entry } else { more.append(entry) }
        }

        mutating func remove(_ consumer: ObjectIdentifier) -> Entry? {
            if first?.consumer == consumer {
                defer { first = more.popLast() }
                return first
            }
            guard let index = more.firstIndex(where: { $0.consumer == consumer }) else { return nil }
            return more.remove(at: index)
        }
    }

    /// What a claim found under its stripe's lock.
    private enum Found {
        case claimed(watched: Bool)
        case nested
        case wait(DispatchSemaphore)
    }

    private static let stripes: [Lock<Stripe>] = (0..<16).map { _ in Lock(Stripe()) }

    /// Runs `body` with the stripe of `consumer` locked.
    @inline(__always)
    private static func withStripe<Result>(of consumer: ObjectIdentifier, _ body: (inout Stripe) -> Result) -> Result {
        // The object's address, past the 16-byte alignment of heap objects: hashing the identifier
        // (SipHash) cost as much as taking the lock.
        let index = Int((UInt(bitPattern: consumer) >> 4) & UInt(stripes.count - 1))
        // Through the buffer, the stripe is borrowed in place rather than copied (a retain and a release).
        return stripes.withUnsafeBufferPointer { $0[index].withLock(body) }
    }

    /// Claims `consumer` for the current thread, waiting while another thread holds it.
    static func claim(_ consumer: AnyObject) -> Claim {
        let id = ObjectIdentifier(consumer)
        let thread = ThreadIdentity.current
        while true {
            let found = withStripe(of: id) { state -> Found in
                let existing = state.withEntry(of: id) { entry -> Found in
                    if entry.owner == thread { return .nested }
                    let wake = entry.wake ?? DispatchSemaphore(value: 0)
                    entry.wake = wake
                    entry.waiters += 1
                    return .wait(wake)
                }
                if let existing { return existing }
                state.add(Entry(consumer: id, owner: thread))
                return .claimed(watched: !state.watched.isEmpty)
            }
            switch found {
            case .nested: return .nested
            case .claimed(let watched): return .owned(watched ? seams(of: id) : nil)
            case .wait(let wake):
                seams(of: id)?.waiting()
                wake.wait()
            }
        }
    }

    /// Releases the claim ``claim(_:)`` gave this thread, waking the threads that wait for it.
    static func release(_ consumer: AnyObject) {
        let id = ObjectIdentifier(consumer)
        guard let entry = withStripe(of: id, { $0.remove(id) }), let wake = entry.wake else { return }
        for _ in 0..<entry.waiters { wake.signal() }
    }

    /// The seams a test watches `consumer` with, if any.
    private static func seams(of consumer: ObjectIdentifier) -> Seams? {
        withStripe(of: consumer) { state in state.watched.first { $0.consumer == consumer }?.seams }
    }

    /// Runs `body` with `seams` called at the critical points of deliveries to `consumer`.
    static func watching<Result>(_ consumer: AnyObject, with seams: Seams, _ body: () throws -> Result) rethrows -> Result {
        let id = ObjectIdentifier(consumer)
        withStripe(of: id) { $0.watched.append((id, seams)) }
        defer { withStripe(of: id) { $0.watched.removeAll { $0.consumer == id } } }
        return try body()
    }
}
