public import MetaControllerCore
import MetaControllerSupport
public import Foundation

/// A push notification as APNs delivers it: the `aps` dictionary's keys, typed,
/// and the app's own keys beside it.
///
/// Parsing never crashes: a payload that is too large, not JSON, or has a
/// value of the wrong type or out of range throws a ``PushNotificationError``
/// naming the key.
///
/// ```swift
/// let notification = try PushNotification(payload: data)
/// notification.alert?.title      // .text("Game Request")
/// notification.badge             // 9
/// notification.category          // "GAME_INVITATION"
/// notification.customValues["gameID"]?.stringValue   // "12345678"
/// ```
public struct PushNotification: Sendable, Equatable {
    /// Text shown as is, or a localization key with arguments the app resolves.
    public enum Text: Sendable, Equatable {
        /// Text to show as is.
        case text(String)
        /// A key in the app's `Localizable.strings` and the arguments of its format.
        case localized(key: String, arguments: [String])
    }

    /// The alert's parts.
    public struct Alert: Sendable, Equatable {
        /// The title: `title`, or `title-loc-key` with `title-loc-args`.
        public var title: Text?
        /// The subtitle: `subtitle`, or `subtitle-loc-key` with `subtitle-loc-args`.
        public var subtitle: Text?
        /// The body: `body` (or the alert itself when it is a string), or `loc-key` with `loc-args`.
        public var body: Text?
        /// `launch-image`: an image to show while the app launches.
        public var launchImage: String?

        /// Creates an alert.
        public init(title: Text? = nil, subtitle: Text? = nil, body: Text? = nil, launchImage: String? = nil) {
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.launchImage = launchImage
        }
    }

    /// The sound to play: a name, and for critical alerts a volume.
    public struct Sound: Sendable, Equatable {
        /// The sound file's name, or `default`.
        public var name: String?
        /// Whether it is a critical alert's sound (`critical: 1`).
        public var isCritical: Bool
        /// The volume of a critical alert's sound, from 0 to 1.
        public var volume: Double?

        /// Creates a sound.
        public init(name: String?, isCritical: Bool = false, volume: Double? = nil) {
            self.name = name
            self.isCritical = isCritical
            self.volume = volume
        }
    }

    /// How and when the notification interrupts (`interruption-level`).
    public enum InterruptionLevel: String, Sendable, Equatable, CaseIterable {
        /// Added to the list quietly.
        case passive
        /// Shown at once, the default.
        case active
        /// Breaks through Focus.
        case timeSensitive = "time-sensitive"
        /// Breaks through Focus and the mute switch; needs an entitlement.
        case critical
    }

    /// The keys of a Live Activity update.
    public struct LiveActivity: Sendable, Equatable {
        /// `timestamp`: when the update was sent.
        public var timestamp: Date?
        /// `event`: `start`, `update` or `end`.
        public var event: String?
        /// `content-state`: the activity's new content.
        public var contentState: [String: JSONValue]?
        /// `stale-date`: when the content goes out of date.
        public var staleDate: Date?
        /// `dismissal-date`: when an ended activity leaves the Lock Screen.
        public var dismissalDate: Date?
        /// `attributes-type`: the activity's attributes type, for `start`.
        public var attributesType: String?
        /// `attributes`: the activity's attributes, for `start`.
        public var attributes: [String: JSONValue]?
    }

    /// The signal notification controllers dispatch each delivered notification on, on the MetaController's bus.
    ///
    /// ```swift
    /// try signals?.add(self, to: PushNotification.received, where: { $0.category == "CHAT" }) { @MainActor screen, _ in
    ///     screen.refreshChats()
    /// }
    /// ```
    public static let received = Signal<PushNotification>("pushNotificationReceived")

    /// Which APNs size limit applies.
    public enum Kind: Sendable, Equatable {
        /// Ordinary notifications: at most 4096 bytes.
        case regular
        /// VoIP notifications: at most 5120 bytes.
        case voip

        /// The largest payload APNs accepts for this kind, in bytes.
        public var maximumBytes: Int { self == .voip ? 5120 : 4096 }
    }

    /// `alert`.
    public var alert: Alert?
    /// `badge`: the number on the app's icon; 0 removes it.
    public var badge: Int?
    /// `sound`.
    public var sound: Sound?
    /// `thread-id`: groups related notifications.
    public var threadID: String?
    /// `category`: the notification's type, which chooses its actions and, here, its handler.
    public var category: String?
    /// `content-available: 1`: a background update.
    public var isContentAvailable: Bool
    /// `mutable-content: 1`: a notification service extension may change it.
    public var isMutableContent: Bool
    /// `target-content-id`: the window to bring forward.
    public var targetContentID: String?
    /// `interruption-level`.
    public var interruptionLevel: InterruptionLevel?
    /// `relevance-score`, from 0 to 1: how the summary orders notifications.
    public var relevanceScore: Double?
    /// `filter-criteria`: which Focus filter it belongs to.
    public var filterCriteria: String?
    /// The Live Activity keys, when the payload has any.
    public var liveActivity: LiveActivity?
    /// `aps` keys this version does not know, kept as they came.
    public var otherAPSValues: [String: JSONValue]
    /// The app's own keys, beside `aps`.
    public var customValues: [String: JSONValue]

    /// Parses a payload from its JSON bytes.
    ///
    /// - Parameters:
    ///   - payload: The JSON APNs delivered.
    ///   - kind: Which size limit applies; regular by default.
    /// A key that appears twice in one object, even spelled with escapes (`"badge"`
    /// and `"\u0062adge"`), is refused as ``PushNotificationError/Code/duplicateKey``
    /// naming its path, such as `aps.badge`.
    ///
    /// - Throws: ``PushNotificationError`` naming the key that is wrong.
    public init(payload: Data, kind: Kind = .regular) throws(PushNotificationError) {
        guard payload.count <= kind.maximumBytes else {
            throw PushNotificationError(
                code: .tooLarge, keyPath: "", reason: "the payload is \(payload.count) bytes; APNs allows \(kind.maximumBytes)")
        }
        switch JSONStructure.problem(in: payload, depthLimit: Self.maximumNesting) {
        case .tooDeep?, .unfollowable?:   // JSON scans find no unfollowable references
            throw Self.tooDeep
        case .duplicateKey(let path)?:
            // JSONDecoder would keep the first value and ignore the rest; RFC 8259 leaves the outcome unpredictable.
            throw PushNotificationError(code: .duplicateKey, keyPath: path, reason: "the key appears twice")
        case nil:
            break
        }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: payload)
        } catch {
            throw PushNotificationError(code: .malformed, keyPath: "", reason: "the payload is not valid JSON")
        }
        guard case .object(let dictionary) = root else {
            throw PushNotificationError(code: .malformed, keyPath: "", reason: "the payload is \(root.kindName), not a dictionary")
        }
        try self.init(dictionary: dictionary)
    }

    /// Parses a payload as an app receives it: the `userInfo` dictionary of a
    /// remote notification.
    ///
    /// Its nesting is measured, without recursion, before Foundation turns it
    /// into JSON: more than 32 levels is ``PushNotificationError/Code/malformed``.
    ///
    /// - Throws: ``PushNotificationError`` naming the key that is wrong.
    public init(userInfo: [AnyHashable: Any], kind: Kind = .regular) throws(PushNotificationError) {
        var strings: [String: Any] = [:]
        for (key, value) in userInfo {
            guard let key = key as? String else {
                throw PushNotificationError(code: .malformed, keyPath: "", reason: "a key is not a string: \(key)")
            }
            strings[key] = value
        }
        // JSONSerialization recurses once per level, and overflows the stack some thousands deep.
        guard !NestingDepth.object(strings, exceeds: Self.maximumNesting) else { throw Self.tooDeep }
        guard JSONSerialization.isValidJSONObject(strings),
            let data = try? JSONSerialization.data(withJSONObject: strings)
        else {
            throw PushNotificationError(code: .malformed, keyPath: "", reason: "the dictionary holds values JSON cannot")
        }
        try self.init(payload: data, kind: kind)
    }

    private init(dictionary: [String: JSONValue]) throws(PushNotificationError) {
        guard let apsValue = dictionary["aps"] else {
            throw PushNotificationError(code: .missingKey, keyPath: "aps", reason: "every APNs payload has an aps dictionary")
        }
        let aps = try PayloadReader.dictionary(apsValue, at: "aps")
        let reader = PayloadReader(values: aps, path: "aps")
        alert = try reader.alert()
        badge = try reader.int("badge", minimum: 0)
        sound = try reader.sound()
        threadID = try reader.string("thread-id")
        category = try reader.string("category")
        isContentAvailable = try reader.flag("content-available")
        isMutableContent = try reader.flag("mutable-content")
        targetContentID = try reader.string("target-content-id")
        interruptionLevel = try reader.string("interruption-level").map { (text) throws(PushNotificationError) in
            guard let level = InterruptionLevel(rawValue: text) else {
                throw reader.invalid("interruption-level", "expected one of passive, active, time-sensitive, critical, found \"\(text)\"")
            }
            return level
        }
        relevanceScore = try reader.number("relevance-score", in: 0...1)
        filterCriteria = try reader.string("filter-criteria")
        liveActivity = try reader.liveActivity()
        otherAPSValues = aps.filter { !PayloadReader.knownAPSKeys.contains($0.key) }
        customValues = dictionary.filter { $0.key != "aps" }
    }

    /// How deeply dictionaries and arrays may nest in a payload, the outermost dictionary included.
    static let maximumNesting = 32

    private static let tooDeep = PushNotificationError(
        code: .malformed, keyPath: "", reason: "the payload is nested more than \(maximumNesting) levels deep")
}
