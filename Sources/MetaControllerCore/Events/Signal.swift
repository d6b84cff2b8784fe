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
        number = SignalID(name: name, payload: ObjectIdentifier(Payload.self), replaysLast: replaysLast).number
    }

    /// The signal's number, the same for every equal key: what the bus looks signals up by,
    /// so a dispatch hashes an integer rather than the name.
    let number: Int

    /// Whether two keys name the same signal.
    public static func == (lhs: Signal, rhs: Signal) -> Bool {
        lhs.number == rhs.number
    }

    /// Hashes the signal's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
    }

    /// The signal's name.
    public var description: String { name }
}

/// What makes two keys the same signal.
struct SignalID: Hashable, Sendable {
    let name: String
    let payload: ObjectIdentifier
    let replaysLast: Bool

    /// Every signal identity seen so far, numbered from 0. Keys are made once,
    /// as static constants, so this lock is taken once per key, not per dispatch.
    private static let numbers = Lock<[SignalID: Int]>([:])

    /// This identity's number, assigned on first use.
    var number: Int {
        Self.numbers.withLock { numbers in
            if let number = numbers[self] { return number }
            let number = numbers.count
            numbers[self] = number
            return number
        }
    }
}
