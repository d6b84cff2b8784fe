/// Ends a subscription when cancelled or released.
///
/// ``Signals/listen(to:once:where:delivery:isolation:handler:)`` and
/// ``Property/observe(replay:delivery:isolation:handler:)`` return one. Keep it as long as
/// the handler should run; cancelling it, or letting it go, removes the handler.
///
/// ```swift
/// final class Badge {
///     private var token: SubscriptionToken?
///     init(count: Property<Int>) {
///         token = count.observe { print("badge: \($0)") }
///     }
/// }
/// ```
public final class SubscriptionToken: Sendable {
    private let onCancel: Lock<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Lock(onCancel)
    }

    /// Removes the handler. Calling it again does nothing.
    ///
    /// A dispatch or set that began before `cancel()` may still deliver to the
    /// handler (see ``Signals`` for the order); one that begins after `cancel()`
    /// returns does not.
    public func cancel() {
        let cancel = onCancel.withLock { onCancel in
            defer { onCancel = nil }
            return onCancel
        }
        cancel?()
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool { onCancel.withLock { $0 == nil } }

    deinit { cancel() }
}
