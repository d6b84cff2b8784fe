extension Signals {
    /// The payloads of `signal` dispatched from now on, as an asynchronous sequence.
    ///
    /// The sequence starts listening when it is made (`for await item in
    /// signals.values(of: signal)` makes it as the loop starts) and receives every
    /// payload dispatched after that, each once, in the order they reach it. A
    /// `replaysLast` signal's last payload, if any, comes first, as for any new
    /// listener. None is lost: payloads dispatched while the loop is busy wait in
    /// a buffer that grows as needed; see ``values(of:bufferingNewest:)``.
    ///
    /// ```swift
    /// for await name in signals.values(of: AppSignals.signedIn) {
    ///     print("hello, \(name)")
    /// }
    /// ```
    ///
    /// The sequence never ends by itself. Leaving the loop, releasing the
    /// sequence and its iterator, or cancelling the iterating task stops the
    /// listening, and ``listenerCount(for:)`` drops. The sequence keeps the bus
    /// until then.
    ///
    /// - Parameter signal: The signal to listen to.
    /// - Returns: A sequence that listens from now on.
    public func values<Payload>(of signal: Signal<Payload>) -> SubscriptionSequence<Payload> {
        makeValues(of: signal, bufferingNewest: nil)
    }

    /// The payloads of `signal` dispatched from now on, keeping at most the
    /// newest `limit` payloads the loop has not received yet.
    ///
    /// Like ``values(of:)``, except when the loop falls behind: a payload
    /// dispatched when `limit` payloads are already waiting pushes out the oldest
    /// of them.
    ///
    /// - Parameters:
    ///   - signal: The signal to listen to.
    ///   - limit: How many unreceived payloads to keep; at least 1 (a smaller limit counts as 1).
    /// - Returns: A sequence that listens from now on; see ``values(of:)`` for when it ends.
    public func values<Payload>(of signal: Signal<Payload>, bufferingNewest limit: Int) -> SubscriptionSequence<Payload> {
        makeValues(of: signal, bufferingNewest: limit)
    }

    private func makeValues<Payload>(of signal: Signal<Payload>, bufferingNewest limit: Int?) -> SubscriptionSequence<Payload> {
        SubscriptionSequence(subscribingTo: self, bufferingNewest: limit) { yield in
            listen(to: signal, delivery: .synchronous, isolation: nil, handler: yield)
        }
    }
}
