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
        // The revealed text is built in debug builds only: in release builds a
        // private value is never even turned into a string.
        #if DEBUG
        fileprivate var revealed = ""
        fileprivate var hasPrivateValues = false
        #endif

        /// Reserves room for the literal parts.
        public init(literalCapacity: Int, interpolationCount: Int) {
            redacted.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        /// Appends a literal part.
        public mutating func appendLiteral(_ literal: String) {
            redacted += literal
            #if DEBUG
            if hasPrivateValues { revealed += literal }
            #endif
        }

        /// Appends a value, shown as `String(describing:)` gives it unless `privacy` hides it.
        ///
        /// ```swift
        /// let message: LogMessage = "token \(token, privacy: .sensitive) for \(user, privacy: .private)"
        /// message.description   // token <private> for <private>
        /// ```
        ///
        /// - Parameters:
        ///   - value: The value.
        ///   - privacy: Whether it may be shown; public when left out.
        public mutating func appendInterpolation<Value>(_ value: Value, privacy: LogPrivacy = .public) {
            switch privacy {
            case .public:
                let text = String(describing: value)
                redacted += text
                #if DEBUG
                if hasPrivateValues { revealed += text }
                #endif
            case .private:
                #if DEBUG
                startRevealing()
                revealed += String(describing: value)
                #endif
                redacted += LogMessage.redaction
            case .sensitive:
                // Never shown: the revealed text, if any, hides it too.
                #if DEBUG
                if hasPrivateValues { revealed += LogMessage.redaction }
                #endif
                redacted += LogMessage.redaction
            }
        }

        #if DEBUG
        /// At the first private or sensitive value, starts the revealed text as a
        /// copy of the text so far, which has no hidden values yet.
        private mutating func startRevealing() {
            guard !hasPrivateValues else { return }
            hasPrivateValues = true
            revealed = redacted
        }
        #endif
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
        // Release builds never build or keep private values, so nothing can reveal them.
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
