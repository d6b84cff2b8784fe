public import Dispatch

/// Where a listener's or subscriber's handler runs.
///
/// ```swift
/// try signals.add(self, to: AppSignals.feedLoaded, delivery: .queue(renderQueue)) { listener, items in
///     listener.render(items)
/// }
/// ```
public struct SignalDelivery: Sendable {
    enum Kind: Sendable {
        case synchronous
        case mainActor
        case queue(DispatchQueue)
    }

    let kind: Kind

    /// On the dispatching thread, before `dispatch` (or the property's set) returns. The default.
    public static let synchronous = SignalDelivery(kind: .synchronous)

    /// On the main actor: at once when the dispatch (or set) is made on the main
    /// actor, from main-actor code or any code on the main thread; otherwise in a
    /// task on the main actor, after the dispatch returns. In order either way,
    /// one call at a time.
    public static let mainActor = SignalDelivery(kind: .mainActor)

    /// Asynchronously on `queue`, in dispatch order when the queue is serial.
    public static func queue(_ queue: DispatchQueue) -> SignalDelivery {
        SignalDelivery(kind: .queue(queue))
    }
}
