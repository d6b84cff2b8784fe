/// A key for one kind of event on a ``Signals`` bus, with the type of its payload.
///
/// Declare keys once, as static constants, so every dispatch and every listener
/// names the same signal and a typo is a compile error rather than a silent miss:
///
/// ```swift
/// enum AppSignals {
///     static let feedLoaded = Signal<[FeedItem]>("feedLoaded")
///     static let signedIn = Signal<String>("signedIn", replaysLast: true)
/// }
///
/// signals.dispatch(AppSignals.feedLoaded, items)
/// ```
///
/// Two keys are the same signal when their names, payload types and replay
/// settings are equal.
public struct Signal<Payload: Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// The signal's name, used in errors and descriptions.
    public let name: String

    /// Whether a listener added after a dispatch receives the last payload at once.
    ///
    /// Use it for state-like events (signed in, location changed) where a late
    /// listener needs the current state rather than the next change.
    public let replaysLast: Bool

    /// Creates a key.
    ///
    /// - Parameters:
    ///   - name: The signal's name.
    ///   - replaysLast: Whether a new listener receives the last payload dispatched, if any.
    public init(_ name: String, replaysLast: Bool = false) {
        self.name = name
        self.replaysLast = replaysLast
    }

    /// The signal's name.
    public var description: String { name }

    var id: SignalID { SignalID(name: name, payload: ObjectIdentifier(Payload.self), replaysLast: replaysLast) }
}

/// Identifies a signal across payload types, for the bus's table.
struct SignalID: Hashable, Sendable {
    let name: String
    let payload: ObjectIdentifier
    let replaysLast: Bool
}
