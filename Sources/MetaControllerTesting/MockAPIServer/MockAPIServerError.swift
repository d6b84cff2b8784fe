/// Why a ``MockAPIServer`` could not start.
///
/// ```swift
/// do {
///     try server.start()
/// } catch {
///     Issue.record("\(error)")   // cannot bind to 127.0.0.1: Address already in use (errno 98)
/// }
/// ```
public struct MockAPIServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step that failed, such as `bind to 127.0.0.1`.
    public let step: String
    /// The system's error number.
    public let errno: Int32
    /// The step and the system's explanation.
    public var description: String { "cannot \(step): \(systemErrorText(errno)) (errno \(errno))" }
}
