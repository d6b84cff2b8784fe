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
        /// The payloads dispatched, on a bus that records (``Signals/recording``); `nil` on every other.
        var record: DispatchRecord?

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

    private let state: Lock<State>

    /// What the bus does beside delivering when it records its dispatches, for the listeners
    /// of a key's test or preview value to catch up with; `nil`, for a bus that does not
    /// record, on every bus but those the test and preview MetaControllers make for themselves.
    /// A dispatch and an `add` pay a check of it and nothing else when it is `nil`.
    private let recording: Recording?

    /// Creates an empty bus.
    public init() {
        state = Lock(State())
        recording = nil
    }

    /// Creates an empty bus that keeps the last `limit` dispatches, of all signals together,
    /// for MetaControllerTesting's test and preview MetaControllers: a listener added while a
    /// key's declared value is handed its MetaController (``catchingUp(_:)``) first hears what
    /// was dispatched on its signal before, in order. `reportMissed` is told when such a
    /// listener's signal had payloads that fell out of the record.
    package convenience init(
        recordingUpTo limit: Int = Signals.recordedDispatchLimit,
        reportingMissed reportMissed: (@Sendable (_ signal: String, _ listener: String?, _ missed: Int) -> Void)? = nil
    ) {
        self.init(recordingUpTo: limit, reportingMissed: reportMissed, seams: CatchUpSeams())
    }

    /// ``init(recordingUpTo:reportingMissed:)`` with the points where a test holds one side of a race.
    init(
        recordingUpTo limit: Int,
        reportingMissed reportMissed: (@Sendable (_ signal: String, _ listener: String?, _ missed: Int) -> Void)?,
        seams: CatchUpSeams
    ) {
        state = Lock(State(record: DispatchRecord(limit: limit)))
        recording = Recording(reportMissed: reportMissed, seams: seams)
    }

    /// Whether the bus records its dispatches for listeners that catch up.
    var records: Bool { recording != nil }

    /// The points where a test holds one side of a race; `nil` on a bus that does not record.
    var catchUpSeams: CatchUpSeams? { recording?.seams }

    /// The number of dispatches the bus keeps for listeners that catch up (for tests of its bound).
    var recordedDispatchCount: Int { state.withLock { $0.record?.count ?? 0 } }

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
        if catchesUpHere {
            // A token listener never throws: it has no object to be listening already.
            try? addCatchingUp(entry, of: nil, to: signal, isolation: isolation)
            return SubscriptionToken { [weak self] in self?.remove(entry: entry.id, from: signal) }
        }
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
            // A listener still catching up (a test bus only) is not among the listeners yet.
            let wasCatchingUp = state.record?.removeCatchingUp(of: signal.number, object: id) ?? false
            guard let channel = state.channel(signal) else { return wasCatchingUp }
            var listeners = channel.listeners
            let removed = listeners.remove(object: id)
            state.store(listeners, last: channel.last, for: signal)
            return removed || wasCatchingUp
        }
    }

    /// Removes `signal`: every listener of it, and the payload it would replay.
    public func removeSignal<Payload>(_ signal: Signal<Payload>) {
        state.withLock { state in
            state.remove(signal.number)
            state.record?.forget(signal.number)
        }
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
        // Only the bus of a test or preview MetaController records: every other pays this check.
        if recording != nil { return dispatchRecorded(signal, payload, isolation: isolation) }
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
        if catchesUpHere { return try addCatchingUp(entry, of: listener, to: signal, isolation: isolation) }
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

    /// ``dispatch(_:_:isolation:)`` on a bus that records: the payload is kept, under the same
    /// lock as the listeners are read, so a listener that catches up (``addCatchingUp(_:of:to:isolation:)``)
    /// either finds it recorded or is among the listeners it is delivered to, never both, never neither.
    @inline(never)   // out of the hot path: only the bus of a test or preview MetaController gets here
    private func dispatchRecorded<Payload>(_ signal: Signal<Payload>, _ payload: Payload, isolation: isolated (any Actor)?) {
        // What a sweep dropped is let go of here, after the lock.
        let (found, _): (Channel<Payload>?, [any AnyObject & Sendable]) = state.withLock { state in
            state.record?.append(payload, of: signal.number)
            let channel = state.channel(signal)
            guard signal.replaysLast else { return (channel, []) }
            state.store(channel?.listeners ?? SubscriberList(), last: payload, for: signal)
            return (channel, state.takeSwept())
        }
        guard let found else { return }
        let sawDead = found.deliver(payload, isolation: isolation) { id in remove(entry: id, from: signal) }
        if sawDead { cullDead(signal) }
    }

    /// What one round of ``addCatchingUp(_:of:to:isolation:)`` found under the lock.
    private enum CatchUpStep<Payload> {
        /// Nothing new to hear: the entry is a listener now.
        case added(missed: Int)
        /// A `remove` or `removeSignal` removed the entry while it caught up: it is not added.
        case removed
        /// Payloads to hear first, and the last dispatch they run to.
        case hear([Payload], through: UInt64, missed: Int)
        /// The last round: the entry is a listener now, and still hears these, beside live dispatches.
        case addedHearing([Payload], missed: Int)
    }

    /// The rounds a listener that catches up takes before it joins the listeners anyway: a
    /// dispatcher that outpaces its handler would otherwise keep it catching up for as long as
    /// it dispatches.
    static let catchUpRounds = 16

    /// Adds `entry` to `signal` after handing it, in order, every payload dispatched on the
    /// signal before (a listener of a key's declared value, ``catchingUp(_:)``).
    ///
    /// The entry hears the recorded payloads before it becomes a listener, outside the lock,
    /// and then looks again: what was dispatched meanwhile it hears in the next round, and when
    /// a look under the lock finds nothing new it becomes a listener in that same lock, so the
    /// next dispatch is delivered to it live. So it hears each payload once, none is missed, and
    /// the recorded ones come before the live ones, on any thread and for any delivery. A
    /// `replaysLast` signal's recorded payloads end with its last one, which it does not hear
    /// again; when they all fell out of the record, it hears the last one alone. Its filter
    /// applies; a `once` entry that heard a payload is not added; an entry whose object is gone,
    /// or that was removed (``remove(_:from:)``, ``removeSignal(_:)``) while it caught up, hears
    /// nothing more and is not added.
    ///
    /// When dispatches on the signal keep coming faster than it hears them, it stops looking
    /// after ``catchUpRounds`` rounds: it becomes a listener with what it has not heard yet, and
    /// hears that beside the live dispatches, each once, though no longer all before them.
    @inline(never)   // out of the hot path: only the bus of a test or preview MetaController gets here
    private func addCatchingUp<Payload>(
        _ entry: SubscriberList<Payload>.Entry,
        of listener: (any AnyObject & Sendable)?,
        to signal: Signal<Payload>,
        isolation: isolated (any Actor)?
    ) throws(SignalsError) {
        guard let recording else { return }
        var single = SubscriberList<Payload>()
        single.append(entry)
        var heardThrough: UInt64 = 0
        var isFirstRound = true
        var round = 0
        var claimed = false
        defer { state.withLock { $0.record?.stopCatchingUp(entry.id) } }
        while true {
            let firstRound = isFirstRound
            let after = heardThrough
            round += 1
            let lastRound = round >= Self.catchUpRounds
            let (result, _): (Result<CatchUpStep<Payload>, SignalsError>, [any AnyObject & Sendable]) = state.withLock { state in
                let channel = state.channel(signal)
                var listeners = channel?.listeners ?? SubscriberList()
                if let listener {
                    listeners.cullDead()
                    guard !listeners.contains(object: ObjectIdentifier(listener)) else {
                        return (.failure(.alreadyListening(listener, signal.name)), [])
                    }
                }
                if firstRound {
                    state.record?.startCatchingUp(entry.id, of: signal.number, object: listener.map { ObjectIdentifier($0) })
                } else if state.record?.wasRemoved(entry.id) ?? false {
                    return (.success(.removed), [])
                }
                var (payloads, through) = state.record?.payloads(of: signal.number, as: Payload.self, after: after) ?? ([], after)
                let missed = firstRound ? state.record?.droppedCount(of: signal.number) ?? 0 : 0
                if firstRound, payloads.isEmpty, let last = channel?.last { payloads = [last] }
                guard payloads.isEmpty || lastRound else { return (.success(.hear(payloads, through: through, missed: missed)), []) }
                listeners.append(entry)
                state.store(listeners, last: channel?.last, for: signal)
                let step: CatchUpStep<Payload> = payloads.isEmpty ? .added(missed: missed) : .addedHearing(payloads, missed: missed)
                return (.success(step), state.takeSwept())
            }
            let step = try result.get()
            isFirstRound = false
            switch step {
            case .added(let missed):
                reportMissed(missed, on: signal, by: listener, recording)
                return
            case .removed:
                return
            case .addedHearing(let payloads, let missed):
                reportMissed(missed, on: signal, by: listener, recording)
                // A listener now: a `once` entry is claimed as a live dispatch claims it, so it hears one in all.
                for payload in payloads {
                    guard state.withLock({ $0.channel(signal)?.listeners.contains(entry) ?? false }) else { return }
                    let sawDead = single.deliver(payload, isolation: isolation) { id in remove(entry: id, from: signal) }
                    if sawDead { cullDead(signal) }
                }
                return
            case .hear(let payloads, let through, let missed):
                reportMissed(missed, on: signal, by: listener, recording)
                heardThrough = through
                recording.seams.took()
                for payload in payloads {
                    let sawDead = single.deliver(payload, isolation: isolation) { _ in
                        defer { claimed = true }
                        return !claimed
                    }
                    // A `once` entry that heard one is done; so is one whose object is gone.
                    if (entry.once && claimed) || sawDead { return }
                    if state.withLock({ $0.record?.wasRemoved(entry.id) ?? false }) { return }
                }
            }
        }
    }

    /// Tells the recording's reporter that a listener catching up on `signal` missed `missed` payloads.
    private func reportMissed<Payload>(
        _ missed: Int, on signal: Signal<Payload>, by listener: (any AnyObject & Sendable)?, _ recording: Recording
    ) {
        guard missed > 0, let report = recording.reportMissed else { return }
        report(signal.name, listener.map { String(describing: type(of: $0)) }, missed)
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
