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
        identity = SignalIdentity.of(SignalID(name: name, payload: ObjectIdentifier(Payload.self), replaysLast: replaysLast))
    }

    /// The signal's identity, shared by every equal key alive and by the channels of buses that
    /// keep the signal: once none is left, the identity and its number are forgotten.
    let identity: SignalIdentity

    /// The signal's number, the same for every equal key: what the bus looks signals up by,
    /// so a dispatch hashes an integer rather than the name.
    var number: Int { identity.number }

    /// Whether two keys name the same signal.
    public static func == (lhs: Signal, rhs: Signal) -> Bool {
        lhs.identity === rhs.identity
    }

    /// Hashes what makes two keys the same signal (the name, the payload type and the replay
    /// setting), so equal keys hash alike whenever each was made: a key made after every equal
    /// one went away, which has a new number, finds what they stored in a `Set` or a `Dictionary`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity.id)
    }

    /// The signal's name.
    public var description: String { name }
}

/// What makes two keys the same signal.
struct SignalID: Hashable, Sendable {
    let name: String
    let payload: ObjectIdentifier
    let replaysLast: Bool
}

/// The one object every equal key alive shares, with the number buses key the signal by.
///
/// Keys are interned by their ``SignalID`` while any of them, or a bus's channel of the signal,
/// is alive; then the entry goes. So signals named at run time (`"user-\(id)"`) take memory
/// only while used, as an annulled signal takes none on its bus. Numbers are never reused.
final class SignalIdentity: Sendable {
    let id: SignalID
    let number: Int

    private init(id: SignalID, number: Int) {
        self.id = id
        self.number = number
    }

    private struct Entry: Sendable {
        weak var identity: SignalIdentity?
    }

    private struct Table: Sendable {
        var entries: [SignalID: Entry] = [:]
        var nextNumber = 0
    }

    /// The identities alive, by what makes them equal. Keys are made once, as static constants
    /// mostly, so this lock is taken once per key, not per dispatch.
    private static let table = Lock(Table())

    /// The identity of `id`: the one alive, or a new one with the next number.
    static func of(_ id: SignalID) -> SignalIdentity {
        table.withLock { table in
            if let identity = table.entries[id]?.identity { return identity }
            let identity = SignalIdentity(id: id, number: table.nextNumber)
            table.nextNumber += 1
            table.entries[id] = Entry(identity: identity)
            return identity
        }
    }

    /// Where a test holds the release of an identity between its last key going and its entry
    /// being looked at (see `SignalsMemoryTests`): called with the signal's name, outside the table's lock.
    static let beforeForgetting = Lock<(@Sendable (String) -> Void)?>(nil)

    deinit {
        let id = self.id
        if let seam = Self.beforeForgetting.withLock({ $0 }) { seam(id.name) }
        Self.table.withLock { table in
            // A new identity of the same signal may have taken the entry meanwhile: it stays.
            guard let entry = table.entries[id], entry.identity == nil else { return }
            table.entries[id] = nil
            // A dictionary keeps its capacity when entries go: rebuilt once mostly empty, it gives the memory back.
            if table.entries.capacity > 1024, table.entries.count * 8 < table.entries.capacity {
                table.entries = Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, $0.value) })
            }
        }
    }

    /// How many identities whose names start with `prefix` are kept, and the table's capacity (for tests).
    static func kept(namedFrom prefix: String) -> (count: Int, capacity: Int) {
        table.withLock { table in (table.entries.keys.count { $0.name.hasPrefix(prefix) }, table.entries.capacity) }
    }
}
