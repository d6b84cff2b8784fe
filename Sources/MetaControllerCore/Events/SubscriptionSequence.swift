/// What a subscription receives, as an asynchronous sequence: the type of
/// ``Property/values`` and ``Signals/values(of:)``.
///
/// The sequence subscribes when it is made, and keeps what it subscribed to
/// (the property or the bus) until the subscription ends. It never ends by
/// itself. The subscription ends, and the loop's values with it, when any of
/// these happens:
///
/// - the loop is left (`break`, `return`, a thrown error), even when the
///   sequence itself is still kept: it is for one loop;
/// - the iterating task is cancelled;
/// - the sequence is released without being iterated.
///
/// ```swift
/// let counts = badgeCount.values          // subscribes now
/// let task = Task {
///     for await count in counts {
///         if count > 99 { break }         // ends the subscription, though `counts` is still kept
///     }
/// }
/// ```
///
/// Iterating it again after its loop was left ends at once. Values wait in a
/// buffer while the loop is busy: all of them, or the newest `limit` when it
/// was made with `bufferingNewest`.
public struct SubscriptionSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// The sequence never throws.
    public typealias Failure = Never

    private let stream: AsyncStream<Element>
    private let ending: Ending

    /// Ends the subscription once: when the loop is left (its iterator is
    /// released) or when the stream terminates (the task is cancelled, or the
    /// stream and every iterator are released).
    fileprivate final class Ending: Sendable {
        private let end: Lock<(@Sendable () -> Void)?>

        init(_ end: @escaping @Sendable () -> Void) {
            self.end = Lock(end)
        }

        func callAsFunction() {
            end.withLock { end in
                defer { end = nil }
                return end
            }?()
        }
    }

    /// Calls `subscribe` at once with a handler that buffers each value for the
    /// loop; the token it returns is cancelled when the subscription ends.
    /// `source` is kept until then.
    init(
        subscribingTo source: some AnyObject & Sendable,
        bufferingNewest limit: Int?,
        subscribe: (@escaping @Sendable (Element) -> Void) -> SubscriptionToken
    ) {
        // A limit below 1 would keep nothing; it counts as 1.
        let (stream, continuation) = AsyncStream.makeStream(
            of: Element.self, bufferingPolicy: limit.map { .bufferingNewest(Swift.max(1, $0)) } ?? .unbounded)
        let token = subscribe { continuation.yield($0) }
        // The cycle (the source keeps the handler, which keeps the continuation,
        // which keeps the termination handler, which keeps the source) is broken
        // when the subscription ends.
        let ending = Ending {
            withExtendedLifetime(source) { token.cancel() }
            continuation.finish()
        }
        continuation.onTermination = { _ in ending() }
        self.stream = stream
        self.ending = ending
    }

    /// Makes the iterator of the sequence's one loop.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), leaving: Leaving(ending))
    }

    /// The iterator of a ``SubscriptionSequence``; releasing it (leaving the
    /// loop) ends the subscription.
    public struct Iterator: AsyncIteratorProtocol {
        /// The iterator never throws.
        public typealias Failure = Never

        fileprivate var base: AsyncStream<Element>.Iterator
        fileprivate let leaving: Leaving

        /// The next value, or `nil` once the subscription has ended.
        public mutating func next() async -> Element? {
            await base.next()
        }
    }

    /// Ends the subscription when the loop's iterator is released.
    fileprivate final class Leaving: Sendable {
        private let ending: Ending

        init(_ ending: Ending) { self.ending = ending }

        deinit { ending() }
    }
}
