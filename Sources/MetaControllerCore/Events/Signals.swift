/// An event bus: objects dispatch typed signals, and listeners that never
/// heard of the dispatcher receive them.
///
/// Every ``MetaController`` has one, reached by consumers as `signals`; a child
/// MetaController shares its parent's, so events cross scoped overrides.
///
/// ```swift
/// enum AppSignals {
///     static let feedLoaded = Signal<[FeedItem]>("feedLoaded")
/// }
///
/// // A screen listens; the handler receives the screen, so nothing captures it.
/// try signals?.add(self, to: AppSignals.feedLoaded) { @MainActor screen, items in
///     screen.show(items)
/// }
///
/// // A controller dispatches.
/// metaController?.signals.dispatch(AppSignals.feedLoaded, items)
/// ```
///
/// ## Listeners
///
/// - An object listens to a signal at most once: a second ``add(_:to:once:where:delivery:isolation:handler:)``
///   for the same object and signal throws ``SignalsError/Code/alreadyListening``.
/// - Listener objects are held weakly. A listener that is gone receives nothing,
///   and the bus lets go of it (its handler, and the signal when nothing else is
///   left) at the first of: the next dispatch of its signal, the next `add` to its
///   signal, or the bus's next sweep. A sweep runs when an `add`, a `listen` or a
///   `replaysLast` dispatch makes the bus keep one more signal and it then keeps twice
///   as many as after its last sweep, and at least 64: so it never keeps more than
///   64, or twice the signals still in use at its last sweep, however many signals named
///   at run time were left by listeners that went away. A dispatch never sweeps.
///   ``remove(_:from:)`` removes one listener; ``removeSignal(_:)`` removes a whole signal.
/// - ``listen(to:once:where:delivery:isolation:handler:)`` listens without an
///   object, for as long as its ``SubscriptionToken`` is kept.
/// - A signal with no listeners and nothing to replay is annulled: it takes no memory.
///
/// Options: `once` removes the listener after its first delivery; `where`
/// delivers only payloads that pass a filter; `delivery` chooses where the
/// handler runs (``SignalDelivery``); a ``Signal`` key created with
/// `replaysLast: true` hands its last payload to each new listener.
///
/// ## Order and reentrancy
///
/// A dispatch delivers to the listeners present when it starts, in the order
/// they were added. Handlers run outside the bus's lock, so a handler may add
/// or remove listeners or dispatch again:
///
/// - a listener added during a dispatch does not receive that dispatch;
/// - a listener removed during a dispatch may still receive that dispatch, and
///   receives no later one; a listener object that is gone receives nothing;
/// - a dispatch made from inside a handler is delivered in full, at once,
///   before the outer dispatch goes on to its next listener.
///
/// The bus is `Sendable`: any thread may add, remove and dispatch at once.
public final class Signals: Sendable {
    /// One signal's listeners and last payload. Immutable: a change stores a
    /// new channel, so a dispatch reads one reference under the lock and
    /// delivers from it after unlocking.
    private final class Channel<Payload: Sendable>: SweepableChannel {
        let listeners: SubscriberList<Payload>
        let last: Payload?
        /// Keeps the signal's identity, and so its number, while the bus keeps the signal.
        let identity: SignalIdentity

        init(listeners: SubscriberList<Payload> = SubscriberList(), last: Payload? = nil, identity: SignalIdentity) {
            self.listeners = listeners
            self.last = last
            self.identity = identity
        }

        var isAnnullable: Bool { listeners.isEmpty && last == nil }

        /// The channel without the listeners whose objects are gone: itself when none is, `nil`
        /// when nothing would be left to keep (see ``State/sweep()``).
        func withoutGoneListeners() -> (any AnyObject & Sendable)? {
            var kept = listeners
            kept.cullDead()
            guard kept.count != listeners.count else { return self }
            return kept.isEmpty && last == nil ? nil : Channel(listeners: kept, last: last, identity: identity)
        }

        /// Delivers `payload` to the listeners; see ``SubscriberList/deliver(_:upTo:isolation:claim:)``.
        func deliver(_ payload: Payload, isolation: isolated (any Actor)?, claim: (UInt64) -> Bool) -> Bool {
            listeners.deliver(payload, isolation: isolation, claim: claim)
        }
    }

    /// The number of signals a bus keeps before its first sweep (see ``State/sweep()``).
    static let minimumSweepCount = 64

    private struct State: Sendable {
        /// Channels by signal number. Each is a `Channel<Payload>` of its signal's
        /// payload: the number stands for the payload type too, so the downcast
        /// in ``channel(_:)`` cannot be wrong, and it costs no type check.
        var channels: [Int: any AnyObject & Sendable] = [:]
        var nextID: UInt64 = 0
        /// How many signals the table may hold before the next sweep: twice what the last
        /// sweep left, and at least ``minimumSweepCount``.
        var sweepCount = Signals.minimumSweepCount
        /// What the last sweep dropped, for the caller to let go of once the lock is released:
        /// a handler's captures may run code that uses the bus.
        var swept: [any AnyObject & Sendable] = []

        func channel<Payload>(_ signal: Signal<Payload>) -> Channel<Payload>? {
            channels[signal.number].map { unsafeDowncast($0, to: Channel<Payload>.self) }
        }

        mutating func store<Payload>(_ listeners: SubscriberList<Payload>, last: Payload?, for signal: Signal<Payload>) {
            let channel = Channel(listeners: listeners, last: last, identity: signal.identity)
            if channel.isAnnullable {
                remove(signal.number)
            } else if channels.updateValue(channel, forKey: signal.number) == nil, channels.count >= sweepCount {
                sweep()
            }
        }

        /// Forgets the listeners whose objects are gone, in every signal, and the signals left
        /// with nothing to keep. It runs when the table has grown to ``sweepCount``, so its cost,
        /// a look at every listener, is spread over the signals added since the last one: a
        /// dispatch never pays it.
        mutating func sweep() {
            var changes: [(number: Int, kept: (any AnyObject & Sendable)?)] = []
            for (number, channel) in channels {
                guard let sweepable = channel as? any SweepableChannel else { continue }
                let kept = sweepable.withoutGoneListeners()
                if kept !== channel { changes.append((number, kept)) }
            }
            for (number, kept) in changes {
                let dropped: (any AnyObject & Sendable)?
                if let kept { dropped = channels.updateValue(kept, forKey: number) } else { dropped = channels.removeValue(forKey: number) }
                if let dropped { swept.append(dropped) }
            }
            if channels.capacity > 1024, channels.count * 8 < channels.capacity {
                channels = Dictionary(uniqueKeysWithValues: channels.map { ($0.key, $0.value) })
            }
            sweepCount = max(Signals.minimumSweepCount, 2 * channels.count)
        }

        /// Takes what the last sweep dropped, for the caller to let go of after the lock.
        mutating func takeSwept() -> [any AnyObject & Sendable] {
            guard !swept.isEmpty else { return [] }
            defer { swept = [] }
            return swept
        }

        /// Forgets a signal; a table left mostly empty is rebuilt, which gives its memory back.
        mutating func remove(_ number: Int) {
            guard channels.removeValue(forKey: number) != nil else { return }
            if channels.capacity > 1024, channels.count * 8 < channels.capacity {
                channels = Dictionary(uniqueKeysWithValues: channels.map { ($0.key, $0.value) })
            }
        }
    }

    private let state = Lock(State())

    /// Creates an empty bus.
    public init() {}

    // MARK: - Listening

    /// Makes `listener` listen to `signal`, calling `handler` with the listener and each payload.
    ///
    /// The listener is held weakly: when it is gone, it stops listening. The
    /// handler receives it as its first argument, so it need not capture it.
    ///
    /// ```swift
    /// try signals.add(self, to: AppSignals.itemSaved, where: { $0.isFavourite }) { listener, item in
    ///     listener.refresh(item)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - listener: The object that listens; at most once per signal.
    ///   - signal: The signal to listen to.
    ///   - once: Whether to stop listening after the first delivered payload.
    ///   - filter: Delivers only payloads for which it returns `true`.
    ///   - delivery: Where the handler runs; at once, on the dispatching thread, by default.
    ///   - isolation: The caller's actor; leave the default.
    ///   - handler: Receives the listener and the payload.
    /// - Throws: ``SignalsError/Code/alreadyListening`` when `listener` already listens to `signal`.
    public func add<Listener: AnyObject & Sendable, Payload>(
        _ listener: Listener,
        to signal: Signal<Payload>,
        once: Bool = false,
        where filter: (@Sendable (Payload) -> Bool)? = nil,
        delivery: SignalDelivery = .synchronous,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping @Sendable (Listener, Payload) -> Void
    ) throws(SignalsError) {
        try add(
            listener, to: signal, once: once, filter: filter, handler: .plain(SubscriberList.erasing(handler), delivery),
            isolation: isolation)
    }

    /// Makes `listener` listen to `signal` with a handler that runs on the main actor.
    ///
    /// Mark the closure `@MainActor` to choose this variant; it is the one for
    /// screens. A dispatch made on the main actor (main-actor code, or any code
    /// on the main thread) calls the handler at once, after any payloads still
    /// waiting for it; a dispatch from elsewhere calls it in a task on the main
    /// actor. It receives payloads in order, one call at a time, and is never
    /// re-entered: a payload it dispatches to itself reaches it after it returns.
    ///
    /// ```swift
    /// try signals.add(self, to: AppSignals.feedLoaded) { @MainActor screen, items in
    ///     screen.show(items)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - listener: The object that listens; at most once per signal.
    ///   - signal: The signal to listen to.
    ///   - once: Whether to stop listening after the first delivered payload.
    ///   - filter: Delivers only payloads for which it returns `true`.
    ///   - isolation: The caller's actor; leave the default.
    ///   - handler: Receives the listener and the payload on the main actor.
    /// - Throws: ``SignalsError/Code/alreadyListening`` when `listener` already listens to `signal`.
    public func add<Listener: AnyObject & Sendable, Payload>(
        _ listener: Listener,
        to signal: Signal<Payload>,
        once: Bool = false,
        where filter: (@Sendable (Payload) -> Bool)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping @MainActor @Sendable (Listener, Payload) -> Void
    ) throws(SignalsError) {
        try add(
            listener, to: signal, once: once, filter: filter, handler: .mainActor(SubscriberList.erasingOnMainActor(handler)),
            isolation: isolation)
    }

    /// Listens to `signal` without a listener object, for as long as the returned token is kept.
    ///
    /// ```swift
    /// let token = signals.listen(to: AppSignals.signedIn) { userName in
    ///     print("hello, \(userName)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - signal: The signal to listen to.
    ///   - once: Whether to stop listening after the first delivered payload.
    ///   - filter: Delivers only payloads for which it returns `true`.
    ///   - delivery: Where the handler runs; at once, on the dispatching thread, by default.
    ///   - isolation: The caller's actor; leave the default.
    ///   - handler: Receives each payload.
    /// - Returns: A token; cancelling or releasing it stops the listening.
    public func listen<Payload>(
        to signal: Signal<Payload>,
        once: Bool = false,
        where filter: (@Sendable (Payload) -> Bool)? = nil,
        delivery: SignalDelivery = .synchronous,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping @Sendable (Payload) -> Void
    ) -> SubscriptionToken {
        let entry = makeEntry(object: nil, once: once, filter: filter, handler: .plain({ _, payload in handler(payload) }, delivery))
        // What a sweep dropped is let go of here, after the lock.
        let (replay, _): (Payload?, [any AnyObject & Sendable]) = state.withLock { state in
            let channel = state.channel(signal)
            var listeners = channel?.listeners ?? SubscriberList()
            listeners.append(entry)
            state.store(listeners, last: channel?.last, for: signal)
            return (channel?.last, state.takeSwept())
        }
        if let replay { replayLast(replay, to: entry, on: signal, isolation: isolation) }
        return SubscriptionToken { [weak self] in self?.remove(entry: entry.id, from: signal) }
    }

    // MARK: - Removing

    /// Stops `listener` listening to `signal`.
    ///
    /// - Returns: Whether it was listening.
    @discardableResult
    public func remove<Payload>(_ listener: AnyObject, from signal: Signal<Payload>) -> Bool {
        let id = ObjectIdentifier(listener)
        return state.withLock { state in
            guard let channel = state.channel(signal) else { return false }
            var listeners = channel.listeners
            let removed = listeners.remove(object: id)
            state.store(listeners, last: channel.last, for: signal)
            return removed
        }
    }

    /// Removes `signal`: every listener of it, and the payload it would replay.
    public func removeSignal<Payload>(_ signal: Signal<Payload>) {
        state.withLock { $0.remove(signal.number) }
    }

    /// The number of signals the bus keeps an entry for (for tests of annulment).
    var keptSignalCount: Int { state.withLock { $0.channels.count } }

    /// The capacity of the table of signals the bus keeps (for tests that memory is given back).
    var keptSignalCapacity: Int { state.withLock { $0.channels.capacity } }

    /// The number of listeners of `signal` whose listener object is still alive.
    public func listenerCount<Payload>(for signal: Signal<Payload>) -> Int {
        state.withLock { $0.channel(signal)?.listeners.liveCount ?? 0 }
    }

    // MARK: - Dispatching

    /// Delivers `payload` to every listener of `signal`.
    ///
    /// Synchronous listeners have run when `dispatch` returns; see ``Signals``
    /// for the order and for what handlers may do. A `replaysLast` signal keeps
    /// `payload` for listeners added later, even when none listens now.
    ///
    /// ```swift
    /// signals.dispatch(AppSignals.feedLoaded, items)
    /// ```
    ///
    /// - Parameters:
    ///   - signal: The signal to dispatch.
    ///   - payload: What the listeners receive.
    ///   - isolation: The caller's actor; leave the default.
    public func dispatch<Payload>(
        _ signal: Signal<Payload>,
        _ payload: Payload,
        isolation: isolated (any Actor)? = #isolation
    ) {
        // The channel comes out of the lock as a plain object and is delivered
        // from by a method of its own: generic code that named
        // `Channel<Payload>` here would look up its metadata on every dispatch.
        let number = signal.number
        let found: (any AnyObject & Sendable)?
        if signal.replaysLast {
            // What a sweep dropped is let go of here, after the lock.
            let (channel, _): ((any AnyObject & Sendable)?, [any AnyObject & Sendable]) = state.withLock { state in
                let channel = state.channel(signal)
                state.store(channel?.listeners ?? SubscriberList(), last: payload, for: signal)
                return (channel, state.takeSwept())
            }
            found = channel
        } else {
            found = state.withLock { $0.channels[number] }
        }
        guard let found else { return }
        let sawDead = unsafeDowncast(found, to: Channel<Payload>.self).deliver(payload, isolation: isolation) { id in
            remove(entry: id, from: signal)
        }
        if sawDead { cullDead(signal) }
    }

    // MARK: - Internals

    private func add<Payload>(
        _ listener: some AnyObject & Sendable,
        to signal: Signal<Payload>,
        once: Bool,
        filter: (@Sendable (Payload) -> Bool)?,
        handler: SubscriberList<Payload>.Handler,
        isolation: isolated (any Actor)?
    ) throws(SignalsError) {
        let entry = makeEntry(object: listener, once: once, filter: filter, handler: handler)
        // What a sweep dropped is let go of here, after the lock.
        let (result, _): (Result<Payload?, SignalsError>, [any AnyObject & Sendable]) = state.withLock { state in
            let channel = state.channel(signal)
            var listeners = channel?.listeners ?? SubscriberList()
            listeners.cullDead()
            guard !listeners.contains(object: ObjectIdentifier(listener)) else {
                return (.failure(.alreadyListening(listener, signal.name)), [])
            }
            listeners.append(entry)
            state.store(listeners, last: channel?.last, for: signal)
            return (.success(channel?.last), state.takeSwept())
        }
        if let replay = try result.get() { replayLast(replay, to: entry, on: signal, isolation: isolation) }
    }

    private func makeEntry<Payload>(
        object: (any AnyObject & Sendable)?,
        once: Bool,
        filter: (@Sendable (Payload) -> Bool)?,
        handler: SubscriberList<Payload>.Handler
    ) -> SubscriberList<Payload>.Entry {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return SubscriberList.Entry(id: id, object: object, once: once, filter: filter, handler: handler)
    }

    /// Hands a `replaysLast` signal's last payload to a listener that was just added.
    private func replayLast<Payload>(
        _ payload: Payload,
        to entry: SubscriberList<Payload>.Entry,
        on signal: Signal<Payload>,
        isolation: isolated (any Actor)?
    ) {
        var single = SubscriberList<Payload>()
        single.append(entry)
        _ = single.deliver(payload, isolation: isolation) { id in remove(entry: id, from: signal) }
    }

    /// Removes one entry. - Returns: Whether it was there.
    @discardableResult
    private func remove<Payload>(entry id: UInt64, from signal: Signal<Payload>) -> Bool {
        state.withLock { state in
            guard let channel = state.channel(signal) else { return false }
            var listeners = channel.listeners
            let removed = listeners.remove(id: id)
            state.store(listeners, last: channel.last, for: signal)
            return removed
        }
    }

    private func cullDead<Payload>(_ signal: Signal<Payload>) {
        state.withLock { state in
            guard let channel = state.channel(signal) else { return }
            var listeners = channel.listeners
            listeners.cullDead()
            state.store(listeners, last: channel.last, for: signal)
        }
    }
}

/// A channel of any payload, as the sweep sees it.
private protocol SweepableChannel: AnyObject, Sendable {
    /// The channel without the listeners whose objects are gone: itself when none is, `nil`
    /// when nothing would be left to keep.
    func withoutGoneListeners() -> (any AnyObject & Sendable)?
}
