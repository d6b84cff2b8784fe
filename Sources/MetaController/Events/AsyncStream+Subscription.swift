extension AsyncStream where Element: Sendable {
    /// A stream of what a subscription receives, for ``Property/values`` and
    /// ``Signals/values(of:)``.
    ///
    /// `subscribe` is called at once with a handler that buffers each value for
    /// the iterator. The subscription ends, its token cancelled, when the stream
    /// terminates: once the stream and every iterator of it are gone, or when the
    /// iterating task is cancelled. `source` is kept until then.
    ///
    /// The stream never finishes on its own; the cycle it makes (the source keeps
    /// the handler, which keeps the continuation, which keeps `source` through the
    /// termination handler) is broken when it terminates.
    static func subscribing(
        to source: some AnyObject & Sendable,
        bufferingNewest limit: Int?,
        subscribe: (@escaping @Sendable (Element) -> Void) -> SubscriptionToken
    ) -> AsyncStream<Element> {
        // A limit below 1 would keep nothing; it counts as 1.
        let (stream, continuation) = makeStream(
            of: Element.self, bufferingPolicy: limit.map { .bufferingNewest(Swift.max(1, $0)) } ?? .unbounded)
        let token = subscribe { continuation.yield($0) }
        continuation.onTermination = { _ in
            withExtendedLifetime(source) { token.cancel() }
        }
        return stream
    }
}
