import Dispatch

/// The listeners of one signal or the subscribers of one property: the part
/// Signals and Property share.
///
/// It is a value kept inside its owner's lock. Delivering never happens under
/// that lock: the owner copies the list out (which copies no storage, the array
/// is shared until the next change) and calls ``deliver(_:to:isolation:)`` for
/// each entry after unlocking.
struct SubscriberList<Value: Sendable>: Sendable {
    /// How an entry's handler is called.
    enum Handler: Sendable {
        case plain(@Sendable (AnyObject?, Value) -> Void, SignalDelivery)
        case mainActor(@MainActor @Sendable (AnyObject?, Value) -> Void)

        /// Whether every call of the handler runs on the main actor.
        var runsOnMainActor: Bool {
            switch self {
            case .plain(_, let delivery):
                if case .mainActor = delivery.kind { return true }
                return false
            case .mainActor:
                return true
            }
        }
    }

    /// `handler` as an entry's handler, which receives the entry's object
    /// (the very object the entry was made with, so the cast cannot fail).
    ///
    /// No `if let` binds the object: that would retain it again, and an object
    /// held weakly counts its references in a side table, where each retain
    /// costs several times an ordinary one.
    static func erasing<Object: AnyObject & Sendable>(
        _ handler: @escaping @Sendable (Object, Value) -> Void
    ) -> @Sendable (AnyObject?, Value) -> Void {
        { object, value in
            guard object != nil else { return }
            handler(unsafeDowncast(object.unsafelyUnwrapped, to: Object.self), value)
        }
    }

    /// `handler`, run on the main actor, as an entry's handler; see ``erasing(_:)``.
    static func erasingOnMainActor<Object: AnyObject & Sendable>(
        _ handler: @escaping @MainActor @Sendable (Object, Value) -> Void
    ) -> @MainActor @Sendable (AnyObject?, Value) -> Void {
        { object, value in
            guard object != nil else { return }
            handler(unsafeDowncast(object.unsafelyUnwrapped, to: Object.self), value)
        }
    }

    /// One listener or subscriber. A class, so that copying the list (and
    /// handing an entry around) retains one reference instead of copying a
    /// weak reference and closures.
    final class Entry: Sendable {
        let id: UInt64
        /// The listener object, held weakly; `nil` for a token subscription.
        weak let object: (any AnyObject & Sendable)?
        let objectID: ObjectIdentifier?
        let once: Bool
        let filter: (@Sendable (Value) -> Bool)?
        let handler: Handler
        /// The values waiting for a handler that runs on the main actor; `nil` for other handlers.
        let mailbox: MainActorMailbox<Value>?
        /// The handler, when every delivery is a plain call of it on the
        /// dispatching thread: no filter, not `once`, synchronous. Most entries
        /// are so, and a dispatch calls it without looking at the rest.
        let direct: (@Sendable (AnyObject?, Value) -> Void)?

        init(
            id: UInt64, object: (any AnyObject & Sendable)?, once: Bool,
            filter: (@Sendable (Value) -> Bool)?, handler: Handler
        ) {
            self.id = id
            self.object = object
            objectID = object.map { ObjectIdentifier($0) }
            self.once = once
            self.filter = filter
            self.handler = handler
            mailbox = handler.runsOnMainActor ? MainActorMailbox() : nil
            if filter == nil, !once, case .plain(let call, let delivery) = handler, case .synchronous = delivery.kind {
                direct = call
            } else {
                direct = nil
            }
        }

        /// Calls the handler on the main actor with the listener object as it is
        /// now: nothing, when the object is gone.
        @MainActor
        func callOnMainActor(_ value: Value) {
            let object = self.object
            if objectID != nil, object == nil { return }
            switch handler {
            case .plain(let handler, _): handler(object, value)
            case .mainActor(let handler): handler(object, value)
            }
        }

        /// Whether the entry's listener object is gone.
        var isDead: Bool { objectID != nil && object == nil }

        /// What ``deliverDirectly(_:upTo:)`` did.
        enum DirectDelivery {
            case delivered
            /// The entry was added after the dispatch began (its id is past the last one).
            case later
            /// The listener object is gone.
            case dead
            /// The entry needs its filter, `once` or delivery applied.
            case needsMore
        }

        /// Calls the handler at once when it is a plain call on this thread
        /// (``direct``), as most are.
        ///
        /// A method rather than code in ``SubscriberList/deliver(_:upTo:isolation:claim:)``:
        /// here the entry's fields are found through the entry itself, while
        /// generic code outside it would look up the metadata of
        /// `Entry<Value>` on every dispatch.
        func deliverDirectly(_ value: Value, upTo lastID: UInt64) -> DirectDelivery {
            if id > lastID { return .later }
            guard let direct else { return isDead ? .dead : .needsMore }
            // One load of the weak reference, handed on as it is: a listener
            // held weakly counts its references in a side table, so each
            // further retain of it costs several times an ordinary one.
            let object: AnyObject? = self.object
            if object == nil, objectID != nil { return .dead }
            direct(object, value)
            return .delivered
        }
    }

    /// The entries, each an ``Entry``, in the order added. Kept as plain
    /// objects: walking an array of `Entry<Value>` in generic code looks up the
    /// element type's metadata, and dispatching a signal is such code.
    private var objects: [any AnyObject & Sendable] = []

    /// An object of ``objects`` as the ``Entry`` it is.
    @inline(__always)
    private static func entry(_ object: any AnyObject & Sendable) -> Entry {
        // Only entries are stored, so the cast is unchecked.
        unsafeDowncast(object, to: Entry.self)
    }

    var isEmpty: Bool { objects.isEmpty }

    /// The number of entries, live or not.
    var count: Int { objects.count }

    /// Whether `entry` is one of the entries.
    func contains(_ entry: Entry) -> Bool {
        objects.contains { $0 === entry }
    }

    /// The number of entries whose listener is alive (token entries are always alive).
    var liveCount: Int { objects.count { !Self.entry($0).isDead } }

    func contains(object: ObjectIdentifier) -> Bool {
        objects.contains { Self.entry($0).objectID == object && !Self.entry($0).isDead }
    }

    mutating func append(_ entry: Entry) {
        objects.append(entry)
    }

    /// Removes the entry with `id`. - Returns: Whether it was there.
    @discardableResult
    mutating func remove(id: UInt64) -> Bool {
        guard let index = objects.firstIndex(where: { Self.entry($0).id == id }) else { return false }
        objects.remove(at: index)
        return true
    }

    /// Removes the entries of `object`. - Returns: Whether there were any.
    @discardableResult
    mutating func remove(object: ObjectIdentifier) -> Bool {
        let before = objects.count
        objects.removeAll { Self.entry($0).objectID == object }
        return objects.count != before
    }

    /// Removes entries whose listener object is gone.
    mutating func cullDead() {
        // Closures, not key paths: in generic code a key path is looked up on every call.
        if objects.contains(where: { Self.entry($0).isDead }) { objects.removeAll(where: { Self.entry($0).isDead }) }
    }

    /// Calls one entry's handler with `value`, where its delivery says. The
    /// entry's filter and `once` are the caller's to apply.
    ///
    /// A handler that runs on the main actor is called at once when the caller
    /// is on the main actor (``MainActorContext``), after any values still
    /// waiting for it; from anywhere else the value waits for a task on the
    /// main actor (see ``MainActorMailbox``).
    ///
    /// - Parameter object: The entry's listener object, loaded once by the
    ///   caller (`nil` for a token subscription).
    static func deliver(
        _ value: Value, to entry: Entry, object: (any AnyObject & Sendable)?, isolation: isolated (any Actor)?
    ) {
        if let mailbox = entry.mailbox {
            if MainActorContext.isCurrent(isolation) {
                MainActor.assumeIsolated { mailbox.deliverNow(value, call: entry.callOnMainActor) }
            } else {
                mailbox.post(value, call: entry.callOnMainActor)
            }
            return
        }
        guard case .plain(let handler, let delivery) = entry.handler else { return }
        switch delivery.kind {
        case .synchronous, .mainActor:   // a main-actor handler has a mailbox and never gets here
            handler(object, value)
        case .queue(let queue):
            queue.async { handler(object, value) }
        }
    }

    /// Delivers `value` to every live entry, in order, skipping filtered-out
    /// values and claiming `once` entries through `claim` first.
    ///
    /// - Parameter lastID: Deliver only to entries whose id is at most this.
    ///   Entries are appended with increasing ids, so these are a prefix.
    /// - Returns: Whether an entry's listener object was found gone, so the caller can cull.
    func deliver(
        _ value: Value, upTo lastID: UInt64 = .max, isolation: isolated (any Actor)?,
        claim: (UInt64) -> Bool = { _ in true }
    ) -> Bool {
        var sawDead = false
        for object in objects {
            let entry = Self.entry(object)
            switch entry.deliverDirectly(value, upTo: lastID) {
            case .delivered: continue
            case .later: return sawDead
            case .dead:
                sawDead = true
                continue
            case .needsMore: break
            }
            let object = entry.object
            if entry.objectID != nil, object == nil {
                sawDead = true
                continue
            }
            if let filter = entry.filter, !filter(value) { continue }
            if entry.once, !claim(entry.id) { continue }
            Self.deliver(value, to: entry, object: object, isolation: isolation)
        }
        return sawDead
    }
}
