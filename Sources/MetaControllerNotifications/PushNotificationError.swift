/// Why a push payload was refused, naming the key.
///
/// ```swift
/// do {
///     let notification = try PushNotification(payload: data)
/// } catch {
///     print(error)   // aps.badge: expected a whole number of 0 or more, found -1
/// }
/// ```
public struct PushNotificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The payload is over APNs' limit: 4096 bytes, or 5120 for VoIP.
        public static let tooLarge = Code(name: "tooLarge")
        /// The payload is not a JSON object, or is nested too deeply.
        public static let malformed = Code(name: "malformed")
        /// A key appears twice in one object: `aps.badge: the key appears twice`.
        public static let duplicateKey = Code(name: "duplicateKey")
        /// A key that must be there is missing: `aps`.
        public static let missingKey = Code(name: "missingKey")
        /// A value has the wrong type: text where a number belongs, say.
        public static let wrongType = Code(name: "wrongType")
        /// A value has the right type but is out of range or not one of the allowed values.
        public static let invalidValue = Code(name: "invalidValue")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of problem this is.
    public let code: Code
    /// Where, such as `aps.sound.volume`; empty for the payload as a whole.
    public let keyPath: String
    /// What is wrong, without the key path.
    public let reason: String

    /// `keyPath: reason`, or the reason alone for the whole payload.
    public var description: String { keyPath.isEmpty ? reason : "\(keyPath): \(reason)" }
}
