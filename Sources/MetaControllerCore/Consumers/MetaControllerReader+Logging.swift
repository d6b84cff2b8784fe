extension MetaControllerReader {
    /// Logs a debug message through the MetaController's log controller.
    ///
    /// The entry carries the caller's file, function and line, and renders as
    /// one line:
    ///
    /// ```swift
    /// debugLog("Bazinga!")
    /// // LocationController.swift (line 34): updateLocation(): Bazinga!
    /// ```
    ///
    /// The message is evaluated only when it will be logged: not when there is
    /// no MetaController or log controller, and not when the log controller
    /// does not keep `.debug` (``LogController/isLogging(_:)``). Interpolated
    /// values can be marked private (``LogPrivacy``):
    ///
    /// ```swift
    /// debugLog("signed in as \(email, privacy: .private)")   // signed in as <private>
    /// ```
    ///
    /// Metadata travels beside the message, and every format writes it
    /// (``LogFormat``); its values are always shown:
    ///
    /// ```swift
    /// debugLog("listed \(notes.count) notes", metadata: ["user": userID])
    /// // NotesHandler.swift (line 12): list(): listed 3 notes [user=ada]
    /// ```
    ///
    /// - Parameters:
    ///   - message: The message, evaluated only if it is logged.
    ///   - metadata: Pairs to carry besides the message, evaluated only if it is
    ///     logged; they follow those of the enclosing ``LogMetadata/withValues(_:operation:)`` scopes.
    ///   - file: The caller's file; leave the default.
    ///   - function: The caller's function; leave the default.
    ///   - line: The caller's line; leave the default.
    public func debugLog(
        _ message: @autoclosure () -> LogMessage,
        metadata: @autoclosure () -> LogMetadata = [:],
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        metaController?.log(.debug, message(), metadata(), file: file, function: function, line: line)
    }

    /// Logs an informational message through the MetaController's log controller.
    ///
    /// Behaves as ``debugLog(_:metadata:file:function:line:)`` at the `.info` level.
    ///
    /// - Parameters:
    ///   - message: The message, evaluated only if it is logged.
    ///   - metadata: Pairs to carry besides the message, evaluated only if it is logged.
    ///   - file: The caller's file; leave the default.
    ///   - function: The caller's function; leave the default.
    ///   - line: The caller's line; leave the default.
    public func infoLog(
        _ message: @autoclosure () -> LogMessage,
        metadata: @autoclosure () -> LogMetadata = [:],
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        metaController?.log(.info, message(), metadata(), file: file, function: function, line: line)
    }

    /// Logs a warning through the MetaController's log controller.
    ///
    /// Behaves as ``debugLog(_:metadata:file:function:line:)`` at the `.warning` level.
    ///
    /// - Parameters:
    ///   - message: The message, evaluated only if it is logged.
    ///   - metadata: Pairs to carry besides the message, evaluated only if it is logged.
    ///   - file: The caller's file; leave the default.
    ///   - function: The caller's function; leave the default.
    ///   - line: The caller's line; leave the default.
    public func warningLog(
        _ message: @autoclosure () -> LogMessage,
        metadata: @autoclosure () -> LogMetadata = [:],
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        metaController?.log(.warning, message(), metadata(), file: file, function: function, line: line)
    }

    /// Logs an error through the MetaController's log controller.
    ///
    /// Behaves as ``debugLog(_:metadata:file:function:line:)`` at the `.error` level.
    ///
    /// - Parameters:
    ///   - message: The message, evaluated only if it is logged.
    ///   - metadata: Pairs to carry besides the message, evaluated only if it is logged.
    ///   - file: The caller's file; leave the default.
    ///   - function: The caller's function; leave the default.
    ///   - line: The caller's line; leave the default.
    public func errorLog(
        _ message: @autoclosure () -> LogMessage,
        metadata: @autoclosure () -> LogMetadata = [:],
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        metaController?.log(.error, message(), metadata(), file: file, function: function, line: line)
    }
}

extension MetaController {
    /// Sends one entry to the log controller, building the message only when
    /// the log controller keeps `level`.
    func log(
        _ level: LogLevel, _ message: @autoclosure () -> LogMessage, _ metadata: @autoclosure () -> LogMetadata = [:],
        file: String, function: String, line: UInt
    ) {
        guard let logController, logController.isLogging(level) else { return }
        logController.log(
            LogEntry(level: level, message: message(), file: file, function: function, line: line, metadata: metadata()))
    }
}
