/// A log message whose interpolated values can be marked private.
///
/// Write it as a string literal; the logging shortcuts take one:
///
/// ```swift
/// debugLog("loaded \(items.count) items for \(user.email, privacy: .private)")
/// ```
///
/// Its ``description`` shows private and sensitive values as `<private>`. A
/// log controller that reveals private values (in debug builds only) renders
/// it with ``rendered(revealingPrivateValues:)``.
public struct LogMessage: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// Builds a message from a string literal with interpolations.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        fileprivate var redacted = ""
        fileprivate var revealed = ""
        fileprivate var hasPrivateValues = false

        /// Reserves room for the literal parts.
        public init(literalCapacity: Int, interpolationCount: Int) {
            redacted.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        /// Appends a literal part.
        public mutating func appendLiteral(_ literal: String) {
            redacted += literal
            if hasPrivateValues { revealed += literal }
        }

        /// Appends a value, shown as `String(describing:)` gives it unless `privacy` hides it.
        public mutating func appendInterpolation<Value>(_ value: Value, privacy: LogPrivacy = .public) {
            switch privacy {
            case .public:
                let text = String(describing: value)
                redacted += text
                if hasPrivateValues { revealed += text }
            case .private:
                if !hasPrivateValues {
                    hasPrivateValues = true
                    revealed = redacted
                }
                redacted += LogMessage.redaction
                revealed += String(describing: value)
            case .sensitive:
                if !hasPrivateValues {
                    hasPrivateValues = true
                    revealed = redacted
                }
                redacted += LogMessage.redaction
                revealed += LogMessage.redaction
            }
        }
    }

    /// What a hidden value is shown as.
    public static let redaction = "<private>"

    /// The message with private and sensitive values shown as `<private>`.
    public let description: String

    /// The message with private values shown; `nil` when it has none. Kept in debug builds only.
    let revealed: String?

    /// Creates a message from a literal without interpolations.
    public init(stringLiteral value: String) {
        description = value
        revealed = nil
    }

    /// Creates a message from a literal with interpolations.
    public init(stringInterpolation: StringInterpolation) {
        description = stringInterpolation.redacted
        #if DEBUG
        revealed = stringInterpolation.hasPrivateValues ? stringInterpolation.revealed : nil
        #else
        // Release builds never keep private values, so nothing can reveal them.
        revealed = nil
        #endif
    }

    /// Creates a message from text that has no private parts.
    public init(_ text: String) {
        description = text
        revealed = nil
    }

    /// The message, with private values shown when `revealingPrivateValues` is
    /// `true` in a debug build. Sensitive values are never shown.
    public func rendered(revealingPrivateValues: Bool) -> String {
        revealingPrivateValues ? revealed ?? description : description
    }
}
