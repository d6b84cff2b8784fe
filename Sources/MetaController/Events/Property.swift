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
/// its ``SubscriptionToken`` is kept. With `replay: true` the handler first
/// receives the current value.
///
/// ## Order and reentrancy
///
/// Subscribers are called outside the property's lock, in the order they
/// subscribed, so a handler may read ``value``, subscribe or cancel. Broadcasts
/// never overlap: a set made while a broadcast is under way (from a handler,
/// or from another thread) changes ``value`` at once and is broadcast right
/// after the current broadcast, by the thread that is broadcasting. Every
/// subscriber therefore sees the values in the order they were set. A handler
/// that sets the property on every call never stops.
///
/// ## Derived properties
///
/// ``map(_:)``, ``combined(with:)`` and ``removingDuplicates()`` make properties
/// that follow their sources for as long as they are kept.
public final class Property<Value: Sendable>: Sendable {
    private struct State: Sendable {
        var value: Value
        var subscribers = SubscriberList<Value>()
        var nextID: UInt64 = 0
        var isBroadcasting = false
        var pending: [Value] = []
        var sources: [SubscriptionToken] = []
    }

    private let state: Lock<State>

    /// Creates a property holding `value`.
    public init(_ value: Value) {
        state = Lock(State(value: value))
    }

    /// The current value. Setting it broadcasts the new value to every subscriber.
    ///
    /// Main-actor subscribers are called in a task on the main actor when the
    /// value is set this way; call ``set(_:isolation:)`` from main-actor code
    /// to call them at once.
    public var value: Value {
        get { state.withLock { $0.value } }
        set { set(newValue, isolation: nil) }
    }

    /// Sets the value and broadcasts it, calling main-actor subscribers at once
    /// when the caller is on the main actor.
    ///
    /// ```swift
    /// badgeCount.set(4)
    /// ```
    ///
    /// - Parameters:
    ///   - newValue: The new value.
    ///   - isolation: The caller's actor; leave the default.
    public func set(_ newValue: Value, isolation: isolated (any Actor)? = #isolation) {
        update(isolation: isolation) { value in
            value = newValue
            return true
        }
    }

    /// The number of subscriptions held, including those whose subscriber is
    /// gone but has not been dropped by a set yet.
    public var subscriberCount: Int { state.withLock { $0.subscribers.entries.count } }

    // MARK: - Subscribing

    /// Subscribes `subscriber`, held weakly, calling `handler` with it and each new value.
    ///
    /// ```swift
    /// location.subscribe(self) { listener, location in listener.recenter(on: location) }
    /// ```
    ///
    /// - Parameters:
    ///   - subscriber: The object that subscribes. Held weakly; it may subscribe more than once.
    ///   - replay: Whether the handler first receives the current value.
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
        let erased: @Sendable (AnyObject?, Value) -> Void = { object, value in
            // The entry hands back the very object it was made with: the cast cannot fail.
            if let object { handler(unsafeDowncast(object, to: Subscriber.self), value) }
        }
        _ = add(object: subscriber, replay: replay, handler: .plain(erased, delivery), isolation: isolation)
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
    ///   - replay: Whether the handler first receives the current value.
    ///   - isolation: The caller's actor; leave the default.
    ///   - handler: Receives the subscriber and the value on the main actor.
    public func subscribe<Subscriber: AnyObject & Sendable>(
        _ subscriber: Subscriber,
        replay: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping @MainActor @Sendable (Subscriber, Value) -> Void
    ) {
        let erased: @MainActor @Sendable (AnyObject?, Value) -> Void = { object, value in
            // The entry hands back the very object it was made with: the cast cannot fail.
            if let object { handler(unsafeDowncast(object, to: Subscriber.self), value) }
        }
        _ = add(object: subscriber, replay: replay, handler: .mainActor(erased), isolation: isolation)
    }

    /// Calls `handler` with each new value for as long as the returned token is kept.
    ///
    /// ```swift
    /// let token = badgeCount.observe(replay: true) { print("badge: \($0)") }
    /// ```
    ///
    /// - Parameters:
    ///   - replay: Whether the handler first receives the current value.
    ///   - delivery: Where the handler runs; at once, on the setting thread, by default.
    ///   - isolation: The caller's actor; leave the default.
    ///   - handler: Receives each value.
    /// - Returns: A token; cancelling or releasing it ends the subscription.
    public func observe(
        replay: Bool = false,
        delivery: SignalDelivery = .synchronous,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping @Sendable (Value) -> Void
    ) -> SubscriptionToken {
        let id = add(object: nil, replay: replay, handler: .plain({ _, value in handler(value) }, delivery), isolation: isolation)
        return SubscriptionToken { [weak self] in
            _ = self?.state.withLock { $0.subscribers.remove(id: id) }
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
        replay: Bool,
        handler: SubscriberList<Value>.Handler,
        isolation: isolated (any Actor)?
    ) -> UInt64 {
        let (entry, current) = state.withLock { state in
            state.nextID += 1
            let entry = SubscriberList<Value>.Entry(
                id: state.nextID, object: object, once: false, filter: nil, handler: handler)
            state.subscribers.append(entry)
            return (entry, state.value)
        }
        if replay { SubscriberList.deliver(current, to: entry, object: entry.object, isolation: isolation) }
        return entry.id
    }

    /// Changes the value under the lock and broadcasts it when `body` returns `true`.
    ///
    /// `body` is the package's own code, never a user's, so it may run under the lock.
    func update(isolation: isolated (any Actor)?, _ body: (inout Value) -> Bool) {
        var next: (Value, SubscriberList<Value>)? = state.withLock { state in
            guard body(&state.value) else { return nil }
            guard !state.isBroadcasting else {
                state.pending.append(state.value)
                return nil
            }
            state.isBroadcasting = true
            return (state.value, state.subscribers)
        }
        while let (value, subscribers) = next {
            let sawDead = subscribers.deliver(value, isolation: isolation)
            next = state.withLock { state in
                if sawDead { state.subscribers.cullDead() }
                guard !state.pending.isEmpty else {
                    state.isBroadcasting = false
                    return nil
                }
                return (state.pending.removeFirst(), state.subscribers)
            }
        }
    }

    /// Keeps a subscription to a source alive for as long as this property is.
    func keep(_ source: SubscriptionToken) {
        state.withLock { $0.sources.append(source) }
    }
}
