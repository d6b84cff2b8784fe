/// How important a log entry is, from the most verbose to the most severe.
///
/// Levels are ordered: `.trace < .debug < ... < .critical`, so a log
/// controller can compare an entry against its minimum level.
///
/// ```swift
/// LogLevel.warning >= .info   // true
/// ```
public enum LogLevel: String, CaseIterable, Codable, Comparable, Sendable, CustomStringConvertible {
    /// Step-by-step detail, usually off.
    case trace
    /// Detail that helps while developing, such as `debugLog("Bazinga!")`.
    case debug
    /// Something normal happened that is worth knowing about.
    case info
    /// Something normal but significant happened.
    case notice
    /// Something unexpected happened; the app carries on.
    case warning
    /// An operation failed.
    case error
    /// The app cannot carry on as intended.
    case critical

    /// The level's name, such as `warning`.
    public var description: String { rawValue }

    private var severity: Int {
        switch self {
        case .trace: 0
        case .debug: 1
        case .info: 2
        case .notice: 3
        case .warning: 4
        case .error: 5
        case .critical: 6
        }
    }

    /// Orders levels by severity: `.trace` is the lowest, `.critical` the highest.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.severity < rhs.severity
    }
}
