public import MetaControllerCore

/// What a signal or a property delivered, recorded for a test to assert on.
///
/// Make one with ``MetaControllerCore/Signals/record(_:)`` or
/// ``MetaControllerCore/Property/record(replay:)``. It records synchronously, on
/// the dispatching or setting thread, for as long as it is kept or until
/// ``cancel()``; it is safe to read while other threads deliver.
///
/// ```swift
/// let shared = metaController.signals.record(AppSignals.itemShared)
/// screen.share()
/// #expect(shared.values.map(\.id) == [2])
/// ```
public final class Recording<Value: Sendable>: Sendable {
    private let received = Lock<[Value]>([])
    private let token = Lock<SubscriptionToken?>(nil)

    init() {}

    /// Every value delivered so far, oldest first.
    public var values: [Value] { received.withLock { $0 } }

    /// The number of values delivered so far.
    public var count: Int { received.withLock { $0.count } }

    /// The latest value delivered, if any.
    public var last: Value? { received.withLock { $0.last } }

    /// Forgets the values recorded so far; recording goes on.
    public func removeAll() {
        received.withLock { $0.removeAll() }
    }

    /// Stops recording. The values recorded so far stay.
    public func cancel() {
        token.withLock { $0 }?.cancel()
    }

    func append(_ value: Value) {
        received.withLock { $0.append(value) }
    }

    func keep(_ subscription: SubscriptionToken) {
        token.withLock { $0 = subscription }
    }
}

extension Signals {
    /// Records every payload dispatched on `signal` from now on.
    ///
    /// A `replaysLast` signal's last payload, if any, is recorded first.
    ///
    /// ```swift
    /// let signedIn = metaController.signals.record(AppSignals.signedIn)
    /// try await loginScreen.submit()
    /// #expect(signedIn.values == ["ada"])
    /// ```
    ///
    /// - Parameter signal: The signal to record.
    /// - Returns: The recording; it records until cancelled or released.
    public func record<Payload>(_ signal: Signal<Payload>) -> Recording<Payload> {
        let recording = Recording<Payload>()
        recording.keep(listen(to: signal, isolation: nil) { [weak recording] in recording?.append($0) })
        return recording
    }
}

extension Property {
    /// Records every value this property is set to from now on.
    ///
    /// ```swift
    /// let badge = controller.badgeCount.record()
    /// controller.receive(payload)
    /// #expect(badge.values == [1])
    /// ```
    ///
    /// - Parameter replay: Whether the current value is recorded first.
    /// - Returns: The recording; it records until cancelled or released.
    public func record(replay: Bool = false) -> Recording<Value> {
        let recording = Recording<Value>()
        recording.keep(observe(replay: replay, isolation: nil) { [weak recording] in recording?.append($0) })
        return recording
    }
}
