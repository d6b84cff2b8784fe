/// Why a log destination could not be set up, naming the path and the reason.
///
/// ```swift
/// do {
///     let file = try FileLogDestination(directory: logsURL)
/// } catch {
///     print(error)   // cannot create the log directory /var/app/logs: Permission denied
/// }
/// ```
public struct LogSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What could not be done, such as `create the log directory`.
    public let action: String
    /// The file or directory concerned; empty when there is none, as for an
    /// error thrown by a destination of your own.
    public let path: String
    /// The system's explanation.
    public let reason: String

    /// `cannot <action> <path>: <reason>`, or `cannot <action>: <reason>` when there is no path.
    public var description: String {
        path.isEmpty ? "cannot \(action): \(reason)" : "cannot \(action) \(path): \(reason)"
    }
}
