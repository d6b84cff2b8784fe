#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(WinSDK)
import WinSDK
#endif
import Dispatch

/// An observable value: subscribers hear about every value it is set to.
///
/// Controllers expose what changes (the current location, the badge count) as
/// properties, and screens subscribe instead of polling or using KVO:
///
/// ```swift
/// let badgeCount = Property(0)
///
/// // A screen subscribes; it is held weakly and receives itself in the handler.
/// badgeCount.subscribe(self, replay: true) { @MainActor screen, count in
///     screen.badgeLabel.text = "\(count)"
/// }
///
/// badgeCount.value = 3   // the screen's handler runs
/// ```
///
/// ## Subscribers
///
/// ``subscribe(_:replay:delivery:isolation:handler:)`` holds the subscriber
/// object weakly: once it is gone it receives nothing, and the next set drops
/// it (``subscriberCount`` counts it until then).
/// ``observe(replay:delivery:isolation:handler:)`` subscribes for as long as
/// its ``SubscriptionToken`` is kept, and the token keeps the property (so a
/// derived property observed through a token needs no other owner). With
/// `replay: true` the handler first receives the current value.
///
/// ## Order and reentrancy
///
/// Subscribers are called outside the property's lock, in the order they
/// subscribed, so a handler may read ``value``, subscribe or cancel. Broadcasts
/// never overlap, and each set is broadcast by the thread that made it, in the
/// order the sets were made: a set made while another thread is broadcasting
/// changes ``value`` at once, waits for the broadcasts queued before it, then
/// broadcasts its own value before it returns. A set made from a handler is
/// broadcast right after the current broadcast, by the same thread. Every
/// subscriber therefore sees the values in the order they were set, and a set
/// keeps its thread only for the broadcasts before it and its own. A handler
/// that sets the property on every call never stops.
///
/// A producer faster than its subscribers is slowed to their pace: the
/// property holds at most one waiting value per waiting thread. So a handler
/// must not wait for another thread that sets the same property: that set
/// waits for the handler's broadcast, and the two would wait for ever.
///
/// A replay waits its turn like a broadcast, so a subscriber is never called
/// twice at once. A subscription receives the values set after it was made,
/// each once, in order; with `replay: true`, first the value current when it
/// subscribed. The replay runs on the subscribing thread before `subscribe`
/// returns, after the deliveries queued before it; from a handler of this
/// property, it runs right after the current broadcast instead, on the same
/// thread. A main-actor handler subscribed from the main actor always gets its
/// replay at once.
///
/// ## Main-actor subscribers
///
/// A handler marked `@MainActor`, or subscribed with `delivery: .mainActor`,
/// is called at once, before the set returns, when the value is set on the
/// main actor: from main-actor code, or from any code running on the main
/// thread (a plain controller's method that a screen called). From anywhere
/// else it is called in a task on the main actor. Either way it receives the
/// values in order, one call at a time: a value set on the main actor is
/// handed over after those still waiting for the task, and a value the
/// handler sets from inside its own call reaches it after that call returns.
/// A value waiting for the main actor does not keep the subscriber alive.
///
/// ## Derived properties
///
/// ``map(_:)``, ``combined(with:)`` and ``removingDuplicates()`` make properties
/// that follow their sources. A derived property keeps its sources (and they
/// keep theirs) for as long as it is kept; the sources do not keep it.
public final class Property<Value: Sendable>: Sendable {
    /// One delivery waiting its turn. Broadcasts and replays share one queue so
    /// that no subscriber is ever called by two of them at once.
    private enum Delivery: Sendable {
        /// A set's value, for the subscriptions made before the set: those whose
        /// id is at most `lastID`.
        case broadcast(Value, lastID: UInt64)
        /// The value current when `entry` subscribed, for it alone.
        case replay(Value, to: SubscriberList<Value>.Entry)
    }

    /// What a new subscription receives first.
    enum Replay {
        case none
        case current
        /// The current value, unless it is still the one of `version` (see ``snapshot()``).
        case currentIfChanged(since: UInt64)
    }

    /// A thread waiting for its turn to deliver. The thread whose turn ends
    /// hands it over by signalling the next one's waiter.
    ///
    /// A turn usually comes within a broadcast's time, microseconds, while
    /// putting a thread to sleep and waking it costs tens of microseconds on a
    /// loaded machine. So `wait()` first checks for the turn a bounded number
    /// of times, yielding the processor between checks, and sleeps only when
    /// it has not come.
    private final class TurnWaiter: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        private let isWoken = Lock(false)

        func wait() {
            for _ in 0..<64 {
                if isWoken.withLock({ $0 }) { return }   // the semaphore's count is left at 1: never waited on
                #if canImport(WinSDK)
                SwitchToThread()
                #else
                sched_yield()
                #endif
            }
            semaphore.wait()
        }

        func wake() {
            isWoken.withLock { $0 = true }
            semaphore.signal()
        }
    }

    /// A delivery waiting its turn, and the thread that made it and will deliver it.
    private struct Turn: Sendable {
        var delivery: Delivery
        /// The ``ThreadIdentity`` of the thread that queued it.
        var owner: UInt
        /// How to wake `owner` when the turn reaches it; `nil` while `owner` is
        /// the delivering thread itself (a set made from inside a handler).
        var waiter: TurnWaiter?
    }

    /// What a thread does next with the delivery queue.
    private enum Step: Sendable {
        /// Deliver this, then ask again.
        case deliver(Delivery, SubscriberList<Value>)
        /// Nothing is left for this thread: the queue is empty, or holds only
        /// other threads' deliveries and the turn went to the first of them.
        case done(handingOverTo: TurnWaiter?)
        /// Wake `next`, whose delivery is first, then wait on `mine` for this
        /// thread's own later delivery.
        case handOver(to: TurnWaiter, thenWaitOn: TurnWaiter)
    }

    private struct State: Sendable {
        var value: Value
        var subscribers = SubscriberList<Value>()
        var nextID: UInt64 = 0
        /// The number of sets so far.
        var version: UInt64 = 0
        /// The thread that is delivering (``ThreadIdentity``); `nil` when none is.
        /// Only that thread takes deliveries off `queue`.
        var deliverer: UInt?
        /// The deliveries waiting, in the order they were made.
        var queue = FIFOQueue<Turn>()
        /// Subscriptions to the properties this one is derived from; each keeps its source.
        var sources: [SubscriptionToken] = []

        /// What `thread`, which made `delivery`, does with it: deliver it now
        /// (no one is delivering), leave it queued for its own delivery loop
        /// further up its stack (it is delivering: a set from a handler), or
        /// wait for its turn (another thread is delivering).
        mutating func start(_ delivery: Delivery, by thread: UInt) -> Start {
            guard let deliverer else {
                self.deliverer = thread
                return .deliver(delivery, subscribers)
            }
            if deliverer == thread {
                queue.append(Turn(delivery: delivery, owner: thread, waiter: nil))
                return .queued
            }
            let waiter = TurnWaiter()
            queue.append(Turn(delivery: delivery, owner: thread, waiter: waiter))
            return .wait(waiter)
        }

        /// The next step for `thread`, the delivering one, after a delivery.
        mutating func next(for thread: UInt) -> Step {
            while let first = queue.first {
                guard first.owner == thread else {
                    // Another thread's delivery is first: the turn goes to it.
                    // This thread waits for its own later ones, if any.
                    deliverer = first.owner
                    // Every thread but the deliverer has a waiter on its first
                    // delivery in the queue (see `Turn.waiter`), and `first` is one such.
                    guard let next = first.waiter else { preconditionFailure("Property: a queued delivery has no waiter") }
                    let mine = queue.changeFirst(where: { $0.owner == thread }) { turn in
                        let waiter = TurnWaiter()
                        turn.waiter = waiter
                        return waiter
                    }
                    guard let mine else { return .done(handingOverTo: next) }
                    return .handOver(to: next, thenWaitOn: mine)
                }
                let delivery = queue.removeFirst().delivery
                // A replay to a subscription that has ended since is dropped.
                if case .replay(_, let entry) = delivery, !subscribers.contains(entry) { continue }
                return .deliver(delivery, subscribers)
            }
            deliverer = nil
            return .done(handingOverTo: nil)
        }
    }

    /// What ``State/start(_:by:)`` decided.
    private enum Start: Sendable {
        case deliver(Delivery, SubscriberList<Value>)
        case queued
        case wait(TurnWaiter)
    }

    private let state: Lock<State>

    /// Creates a property holding `value`.
    public init(_ value: Value) {
        state = Lock(State(value: value))
    }

    deinit {
        // A derived property's sources go with it when nothing else keeps them, and theirs with
        // them: let go of in a loop, not one deinitializer inside the other down a long chain.
        DerivedUpdates.release(
            state.withLock { state in
                defer { state.sources = [] }
                return state.sources
            })
    }

    /// The current value. Setting it broadcasts the new value to every subscriber.
    ///
    /// Main-actor subscribers are called at once when the value is set on the
    /// main thread, and in a task on the main actor otherwise (see "Main-actor
    /// subscribers" above).
    public var value: Value {
        get { state.withLock { $0.value } }
        set { set(newValue, isolation: nil) }
    }

    /// Sets the value and broadcasts it, as setting ``value`` does.
    ///
    /// ```swift
    /// badgeCount.set(4)
    /// ```
    ///
    /// - Parameters:
    ///   - newValue: The new value.
    ///   - isolation: The caller's actor; leave the default.
    public func set(_ newValue: Value, isolation: isolated (any Actor)? = #isolation) {
        change(isolation: isolation) { value in
            value = newValue
            return true
        }
    }

    /// Changes the value in place, as one step that no other set can come
    /// between, and broadcasts the result once.
    ///
    /// Reading ``value`` and then setting it is two steps: a set from another
    /// thread in between is lost. `update` is one:
    ///
    /// ```swift
    /// let isFavorite = Property(false)
    /// isFavorite.update { $0.toggle() }
    ///
    /// let favorites = Property<Set<Int>>([])
    /// let added = favorites.update { $0.insert(42).inserted }
    /// ```
    ///
    /// `body` runs outside the property's lock, on a copy of the current
    /// value, and the result is stored only if no other set came meanwhile;
    /// otherwise `body` runs again on the newer value. So `body` may run more
    /// than once when other threads set the property at the same time, and
    /// only its last run counts. It may read ``value`` and subscribe, but must
    /// not set this property: each of its own sets would make it run again,
    /// for ever. When `body` throws, nothing changes and nothing is broadcast.
    ///
    /// Subscribers hear the result as they hear a set (see "Order and
    /// reentrancy"), once, even when `body` left the value as it was. Like a
    /// set, the store waits for the broadcasts queued before it.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor; leave the default.
    ///   - body: Changes the value it is given; may return a result.
    /// - Returns: What the last run of `body` returned.
    /// - Throws: What `body` throws.
    @discardableResult
    public func update<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (inout Value) throws -> Result
    ) rethrows -> Result {
        while true {
            var (value, version) = snapshot()
            let result = try body(&value)
            if store(value, ifVersion: version, isolation: isolation) { return result }
        }
    }

    /// The number of subscriptions held, including those whose subscriber is
    /// gone but has not been dropped by a set yet.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    // MARK: - Subscribing

    /// Subscribes `subscriber`, held weakly, calling `handler` with it and each new value.
    ///
    /// ```swift
    /// location.subscribe(self) { listener, location in listener.recenter(on: location) }
    /// ```
    ///
    /// - Parameters:
    ///   - subscriber: The object that subscribes. Held weakly; it may subscribe more than once.
    ///   - replay: Whether the handler first receives the current value, on this
    ///     thread, after the deliveries queued before it (see "Order and reentrancy").
    ///   - delivery: Where the handler runs; at once, on the setting thread, by default.
    ///   - isolation: The caller's actor; leave the default.
    ///   - handler: Receives the subscriber and the value.
    public func subscribe<Subscriber: AnyObject & Sendable>(
        _ subscriber: Subscriber,
        replay: Bool = false,
        delivery: SignalDelivery = .synchronous,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping @Sendable (Subscriber, Value) -> Void
    ) {
        _ = add(
            object: subscriber, replay: replay ? .current : .none, handler: .plain(SubscriberList.erasing(handler), delivery),
            isolation: isolation)
    }

    /// Subscribes `subscriber`, held weakly, with a handler that runs on the main actor.
    ///
    /// Mark the closure `@MainActor` to choose this variant; it is the one for screens.
    ///
    /// ```swift
    /// badgeCount.subscribe(self, replay: true) { @MainActor screen, count in
    ///     screen.showBadge(count)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - subscriber: The object that subscribes, held weakly.
    ///   - replay: Whether the handler first receives the current value, on this
    ///     thread, after the deliveries queued before it (see "Order and reentrancy").
    ///   - isolation: The caller's actor; leave the default.
    ///   - handler: Receives the subscriber and the value on the main actor.
    public func subscribe<Subscriber: AnyObject & Sendable>(
        _ subscriber: Subscriber,
        replay: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping @MainActor @Sendable (Subscriber, Value) -> Void
    ) {
        _ = add(
            object: subscriber, replay: replay ? .current : .none, handler: .mainActor(SubscriberList.erasingOnMainActor(handler)),
            isolation: isolation)
    }

    /// Calls `handler` with each new value for as long as the returned token is kept.
    ///
    /// ```swift
    /// let token = badgeCount.observe(replay: true) { print("badge: \($0)") }
    /// ```
    ///
    /// - Parameters:
    ///   - replay: Whether the handler first receives the current value, on this
    ///     thread, after the deliveries queued before it (see "Order and reentrancy").
    ///   - delivery: Where the handler runs; at once, on the setting thread, by default.
    ///   - isolation: The caller's actor; leave the default.
    ///   - handler: Receives each value.
    /// - Returns: A token; cancelling or releasing it ends the subscription.
    ///   Until then it keeps this property alive, and with it what the
    ///   property is derived from: `count.map { … }.observe { … }` follows
    ///   `count` for as long as the token is kept.
    public func observe(
        replay: Bool = false,
        delivery: SignalDelivery = .synchronous,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping @Sendable (Value) -> Void
    ) -> SubscriptionToken {
        let id = add(object: nil, replay: replay ? .current : .none, handler: .plain({ _, value in handler(value) }, delivery), isolation: isolation)
        // The token holds the property strongly: a derived property that only
        // the token's owner keeps (`x.map { … }.observe { … }`) must go on following.
        return SubscriptionToken { [self] in
            _ = state.withLock { $0.subscribers.remove(id: id) }
        }
    }

    /// Ends every subscription of `subscriber`.
    ///
    /// - Returns: Whether it had any.
    @discardableResult
    public func unsubscribe(_ subscriber: AnyObject) -> Bool {
        let id = ObjectIdentifier(subscriber)
        return state.withLock { $0.subscribers.remove(object: id) }
    }

    // MARK: - Internals

    private func add(
        object: (any AnyObject & Sendable)?,
        replay: Replay,
        handler: SubscriberList<Value>.Handler,
        isolation: isolated (any Actor)?
    ) -> UInt64 {
        // A main-actor handler subscribed on the main actor gets its replay at once,
        // outside the queue: every call of it runs on the main actor, one at a time
        // (its mailbox sees to that), so none can overlap it.
        let atOnce = handler.runsOnMainActor && MainActorContext.isCurrent(isolation)
        let thread = ThreadIdentity.current
        // The replay is queued under the same lock that adds the entry: a set
        // in between would queue a newer value for it ahead of its replay.
        let (entry, replayed): (SubscriberList<Value>.Entry, Start?) = state.withLock { state in
            state.nextID += 1
            let entry = SubscriberList<Value>.Entry(
                id: state.nextID, object: object, once: false, filter: nil, handler: handler)
            state.subscribers.append(entry)
            switch replay {
            case .none: return (entry, nil)
            case .current: break
            case .currentIfChanged(let version): if state.version == version { return (entry, nil) }
            }
            let delivery = Delivery.replay(state.value, to: entry)
            return (entry, atOnce ? .deliver(delivery, state.subscribers) : state.start(delivery, by: thread))
        }
        switch replayed {
        case .deliver(let delivery, let subscribers) where atOnce:
            _ = deliver(delivery, to: subscribers, isolation: isolation)
        case let start?:
            proceed(start, thread: thread, isolation: isolation)
        case nil:
            break
        }
        return entry.id
    }

    /// Changes the value under the lock and broadcasts it when `body` returns `true`.
    ///
    /// `body` is the package's own code, never a user's, so it may run under the lock.
    func change(isolation: isolated (any Actor)?, _ body: (inout Value) -> Bool) {
        let thread = ThreadIdentity.current
        let start = state.withLock { state -> Start? in
            guard body(&state.value) else { return nil }
            state.version += 1
            return state.start(.broadcast(state.value, lastID: state.nextID), by: thread)
        }
        if let start { proceed(start, thread: thread, isolation: isolation) }
    }

    /// Stores `newValue` and broadcasts it if the property still holds the
    /// value of set number `version` (``snapshot()``).
    ///
    /// A function of its own rather than a parameter of ``change(isolation:_:)``,
    /// which every set goes through: the check and the extra result made a set
    /// slower in the property benchmark (1,342 against 1,164 ns an iteration,
    /// one run each; 1,192 with this split).
    ///
    /// - Returns: Whether it was stored.
    private func store(_ newValue: Value, ifVersion version: UInt64, isolation: isolated (any Actor)?) -> Bool {
        let thread = ThreadIdentity.current
        let start = state.withLock { state -> Start? in
            guard state.version == version else { return nil }
            state.value = newValue
            state.version += 1
            return state.start(.broadcast(newValue, lastID: state.nextID), by: thread)
        }
        guard let start else { return false }
        proceed(start, thread: thread, isolation: isolation)
        return true
    }

    /// Carries out what ``State/start(_:by:)`` decided for a delivery that
    /// `thread` made. When it returns, every delivery this thread made has been
    /// delivered, unless the thread is delivering already further up its stack
    /// (a set from a handler), which then delivers it.
    ///
    /// A thread delivers its own deliveries, in their turn: those queued before
    /// them are delivered first, each by the thread that made it, and the turn
    /// passes from thread to thread in queue order. So no thread delivers a
    /// value another thread set, and a thread that sets while another delivers
    /// waits for the deliveries before its own (the set's back-pressure).
    private func proceed(_ start: Start, thread: UInt, isolation: isolated (any Actor)?) {
        var step: Step
        switch start {
        case .queued:
            return
        case .deliver(let delivery, let subscribers):
            step = .deliver(delivery, subscribers)
        case .wait(let waiter):
            waiter.wait()
            step = state.withLock { $0.next(for: thread) }
        }
        while true {
            switch step {
            case .deliver(let delivery, let subscribers):
                let sawDead = deliver(delivery, to: subscribers, isolation: isolation)
                step = state.withLock { state in
                    if sawDead { state.subscribers.cullDead() }
                    return state.next(for: thread)
                }
            case .done(let next):
                next?.wake()
                return
            case .handOver(let next, let mine):
                next.wake()
                mine.wait()
                step = state.withLock { $0.next(for: thread) }
            }
        }
    }

    /// Makes one delivery. - Returns: Whether a subscriber was found gone.
    private func deliver(
        _ delivery: Delivery, to subscribers: SubscriberList<Value>, isolation: isolated (any Actor)?
    ) -> Bool {
        switch delivery {
        case .broadcast(let value, let lastID):
            return subscribers.deliver(value, upTo: lastID, isolation: isolation)
        case .replay(let value, let entry):
            let object = entry.object
            if entry.objectID != nil, object == nil { return true }
            SubscriberList.deliver(value, to: entry, object: object, isolation: isolation)
            return false
        }
    }

    /// The current value and the number of sets that made it, read together.
    func snapshot() -> (value: Value, version: UInt64) {
        state.withLock { ($0.value, $0.version) }
    }

    /// Subscribes `handler`, called on the setting thread, to every value set
    /// after `version`, first replaying the current value if it is no longer
    /// the one of `version`.
    ///
    /// - Returns: A token that keeps this property alive until it is cancelled or released.
    func follow(since version: UInt64, handler: @escaping @Sendable (Value) -> Void) -> SubscriptionToken {
        let id = add(
            object: nil, replay: .currentIfChanged(since: version),
            handler: .plain({ _, value in handler(value) }, .synchronous), isolation: nil)
        return SubscriptionToken { [self] in
            _ = state.withLock { $0.subscribers.remove(id: id) }
        }
    }

    /// The number of deliveries waiting for their turn (for tests of the queue's bound).
    var queuedDeliveryCount: Int { state.withLock { $0.queue.count } }

    /// Keeps a subscription to a source, and with it the source, for as long as this property is kept.
    func keep(_ source: SubscriptionToken) {
        state.withLock { $0.sources.append(source) }
    }
}
