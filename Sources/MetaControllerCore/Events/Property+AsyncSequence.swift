extension Property {
    /// The current value, then every value set afterwards, as an asynchronous sequence.
    ///
    /// The sequence subscribes when it is made: `for await value in property.values`
    /// makes it as the loop starts, so the loop receives the value current then,
    /// followed by each later value once, in the order it was set (as a subscriber
    /// with `replay: true` does). None is lost: values set while the loop is busy
    /// wait in a buffer that grows as needed. Use ``values(bufferingNewest:)`` when
    /// only the latest values matter.
    ///
    /// ```swift
    /// for await count in badgeCount.values {
    ///     print("badge: \(count)")
    /// }
    /// ```
    ///
    /// The sequence never ends by itself. Leaving the loop (`break`, `return`, a
    /// thrown error), releasing the sequence and its iterator, or cancelling the
    /// iterating task ends the subscription. The sequence keeps the property, and
    /// a derived property its sources, until then.
    public var values: SubscriptionSequence<Value> {
        makeValues(bufferingNewest: nil)
    }

    /// The current value, then every value set afterwards, keeping at most the
    /// newest `limit` values the loop has not received yet.
    ///
    /// Like ``values``, except when the loop falls behind: a value set when
    /// `limit` values are already waiting pushes out the oldest of them. With a
    /// limit of 1 the loop always receives the latest value, and skips the ones
    /// it was too busy to see; it is the choice for state that is only ever drawn
    /// as it is now.
    ///
    /// ```swift
    /// for await count in badgeCount.values(bufferingNewest: 1) {
    ///     await render(count)   // slow: values set meanwhile are skipped, the latest is kept
    /// }
    /// ```
    ///
    /// - Parameter limit: How many unreceived values to keep; at least 1 (a smaller limit counts as 1).
    /// - Returns: A sequence that subscribes now; see ``values`` for when it ends.
    public func values(bufferingNewest limit: Int) -> SubscriptionSequence<Value> {
        makeValues(bufferingNewest: limit)
    }

    private func makeValues(bufferingNewest limit: Int?) -> SubscriptionSequence<Value> {
        SubscriptionSequence(subscribingTo: self, bufferingNewest: limit) { yield in
            observe(replay: true, delivery: .synchronous, isolation: nil, handler: yield)
        }
    }
}
