/// The controller that takes log entries and sends them where they belong.
///
/// Every ``MetaControllerConsumer`` logs through the MetaController's log
/// controller with one call (``MetaControllerReader/debugLog(_:metadata:file:function:line:)``
/// and its siblings). A log controller decides which levels it keeps with
/// ``isLogging(_:)``; a shortcut whose level is not kept does not even build
/// its message.
///
/// A log controller lives in a `Sendable` ``MetaController`` and is called
/// from any thread, so it must be `Sendable` itself.
///
/// ```swift
/// final class PrintLogController: LogController {
///     func log(_ entry: LogEntry) { print(entry) }
/// }
/// metaController.logController = PrintLogController()
/// ```
public protocol LogController: AnyObject, Sendable {
    /// Whether entries of `level` would be kept. The default keeps every level.
    ///
    /// The logging shortcuts ask this before they evaluate their message, so
    /// answering `false` makes a disabled level cost almost nothing.
    func isLogging(_ level: LogLevel) -> Bool

    /// Takes one entry.
    func log(_ entry: LogEntry)

    /// Returns when everything logged before the call has been written.
    ///
    /// Call it before the app exits, and in tests before reading what was
    /// written. The default does nothing: right for a controller that has
    /// written each entry by the time ``log(_:)`` returns.
    ///
    /// ```swift
    /// func applicationWillTerminate(_ application: UIApplication) {
    ///     metaController.logController?.flush()
    /// }
    /// ```
    func flush()
}

extension LogController {
    /// Keeps every level.
    public func isLogging(_ level: LogLevel) -> Bool { true }

    /// Does nothing: there is nothing queued to wait for.
    public func flush() {}
}
