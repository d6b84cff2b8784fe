/// Why a ``MockAPIServer`` could not start.
///
/// Either a system call failed (creating the socket, binding 127.0.0.1,
/// listening), and the error names the step and the system's reason, or the
/// server had already been stopped: a stopped server does not start again.
///
/// ```swift
/// do {
///     try server.start()
/// } catch {
///     Issue.record("\(error)")   // cannot bind to 127.0.0.1: Address already in use (errno 98)
/// }
/// ```
public struct MockAPIServerError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Reason: Sendable, Equatable {
        case systemCall(step: String, errno: Int32)
        case stopped
    }

    let reason: Reason

    init(step: String, errno: Int32) {
        reason = .systemCall(step: step, errno: errno)
    }

    init(_ reason: Reason) {
        self.reason = reason
    }

    /// The step that failed, such as `bind to 127.0.0.1`, or `start a stopped server`.
    public var step: String {
        switch reason {
        case .systemCall(let step, _): step
        case .stopped: "start a stopped server"
        }
    }

    /// The system's error number when a system call failed; `nil` when the server was stopped.
    public var errno: Int32? {
        guard case .systemCall(_, let errno) = reason else { return nil }
        return errno
    }

    /// Whether the server had been stopped; a stopped server does not start again.
    ///
    /// ```swift
    /// server.stop()
    /// #expect(throws: MockAPIServerError.stopped) { try server.start() }
    /// ```
    public var isStopped: Bool { reason == .stopped }

    /// The error ``MockAPIServer/start()`` throws after ``MockAPIServer/stop()``.
    public static let stopped = MockAPIServerError(.stopped)

    /// The step and the system's explanation, such as
    /// `cannot listen: Too many open files (errno 24)`.
    public var description: String {
        switch reason {
        case .systemCall(let step, let errno): "cannot \(step): \(systemErrorText(errno)) (errno \(errno))"
        case .stopped: "cannot start a stopped server: create a new MockAPIServer instead"
        }
    }
}
