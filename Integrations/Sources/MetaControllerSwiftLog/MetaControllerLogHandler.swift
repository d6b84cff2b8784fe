public import Logging
public import MetaController

/// A swift-log `LogHandler` that writes into a MetaController ``MetaController/LogController``,
/// so that what Hummingbird, Vapor, SwiftNIO or ServiceLifecycle log reaches
/// the same destinations as the app's own lines.
///
/// ```swift
/// let log = StandardLogController(minimumLevel: .info)
/// LoggingSystem.bootstrap { _ in MetaControllerLogHandler(logController: log) }
/// Logger(label: "server").info("started", metadata: ["port": "8080"])
/// // Server.swift (line 12): start(): started [port=8080]
/// ```
///
/// Each event becomes a ``MetaController/LogEntry`` with its level (the seven levels map
/// one to one), message, file, function and line. Its metadata is the
/// handler's ``metadata``, then the ``metadataProvider``'s, then the event's
/// own (later ones win on a shared key), keys sorted, plus `error` when the
/// event carries an error. The entry is made on the logging task, so it also
/// carries the pairs of the ``MetaController/LogMetadata/withValues(_:operation:)``
/// scopes around the code that logged. swift-log messages have no private
/// parts: the whole message is public.
///
/// Two levels filter: the handler's ``logLevel`` (swift-log's `Logger` checks it
/// before it builds the message), then the log controller's
/// ``MetaController/LogController/isLogging(_:)``.
public struct MetaControllerLogHandler: LogHandler {
    /// The log controller events are written to.
    public let logController: any LogController
    /// The lowest level the `Logger` passes on; `.info` by default, as swift-log's own handlers.
    public var logLevel: Logger.Level
    /// Metadata added to every event of this handler.
    public var metadata: Logger.Metadata = [:]
    /// Metadata asked for at each event, such as a tracing context's ids.
    public var metadataProvider: Logger.MetadataProvider?

    /// Creates a handler that writes into `logController`.
    ///
    /// - Parameters:
    ///   - logController: The log controller, such as the app's ``MetaController/StandardLogController``.
    ///   - logLevel: The lowest level passed on; `.info` by default.
    ///   - metadataProvider: Metadata asked for at each event; none by default.
    public init(
        logController: any LogController,
        logLevel: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.logController = logController
        self.logLevel = logLevel
        self.metadataProvider = metadataProvider
    }

    /// One pair of ``metadata``.
    ///
    /// - Parameter key: The key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` into the log controller, when it keeps the event's level.
    ///
    /// - Parameter event: The event.
    public func log(event: LogEvent) {
        let level = LogLevel(event.level)
        guard logController.isLogging(level) else { return }
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        if let error = event.error { merged["error"] = .string(String(describing: error)) }
        logController.log(
            LogEntry(
                level: level, message: event.message.description,
                file: event.file, function: event.function, line: event.line,
                metadata: LogMetadata(merged)))
    }
}
