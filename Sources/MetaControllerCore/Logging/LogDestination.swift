/// Where a ``StandardLogController`` sends entries: a stream, a file, memory,
/// or the platform's log.
///
/// Each destination has its own minimum level. `write` is called on the
/// logging thread, so it must not wait for I/O: queue the work, as the
/// package's destinations do, and finish it in `flush`.
///
/// ```swift
/// final class CrashReporterDestination: LogDestination {
///     let minimumLevel = LogLevel.error
///     func write(_ entry: LogEntry, revealingPrivateValues: Bool) {
///         CrashReporter.breadcrumb(LogFormat.line.format(entry, revealingPrivateValues: revealingPrivateValues))
///     }
///     func flush() {}
/// }
/// ```
public protocol LogDestination: AnyObject, Sendable {
    /// The lowest level this destination takes.
    var minimumLevel: LogLevel { get }

    /// Takes one entry at or above ``minimumLevel``, without blocking on I/O.
    ///
    /// - Parameters:
    ///   - entry: The entry.
    ///   - revealingPrivateValues: Whether private values may be shown; `true` only in debug builds that asked.
    func write(_ entry: LogEntry, revealingPrivateValues: Bool)

    /// Returns when everything written so far has reached its medium.
    func flush()
}
