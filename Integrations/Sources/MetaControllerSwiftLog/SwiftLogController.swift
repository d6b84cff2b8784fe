public import Logging
public import MetaController

/// A ``MetaController/LogController`` that writes every entry to a swift-log `Logger`,
/// so an app's lines go wherever the process's swift-log backend sends them.
///
/// ```swift
/// metaController.logController = SwiftLogController(logger: Logger(label: "notes"))
/// infoLog("listed 3 notes", metadata: ["user": "ada"])
/// // the Logger receives .info "listed 3 notes" with metadata ["user": "ada"]
/// ```
///
/// Each entry keeps its level (the seven levels map one to one), its file,
/// function and line, and its metadata as `.string` values, including the
/// pairs of the ``MetaController/LogMetadata/withValues(_:operation:)`` scopes
/// around the code that logged it. swift-log's `source` is the module of the
/// entry's file. The entry's date is not passed on: a swift-log backend
/// stamps the time it writes.
///
/// Private values (``MetaController/LogPrivacy``) reach the `Logger` as `<private>`
/// unless ``revealsPrivateValues`` is on, which takes effect in debug builds only.
public final class SwiftLogController: LogController {
    /// The logger entries are written to; its `logLevel` decides which levels are kept.
    public let logger: Logger
    /// Whether private values are shown: `true` only in a debug build that asked for it.
    public let revealsPrivateValues: Bool

    /// Creates a controller that writes to `logger`.
    ///
    /// - Parameters:
    ///   - logger: The swift-log logger; set its `logLevel` before passing it.
    ///   - revealsPrivateValues: Whether private values are shown; ignored in release builds.
    public init(logger: Logger, revealsPrivateValues: Bool = false) {
        self.logger = logger
        #if DEBUG
        self.revealsPrivateValues = revealsPrivateValues
        #else
        self.revealsPrivateValues = false
        #endif
    }

    /// Whether `level` is at or above the logger's `logLevel`.
    ///
    /// - Parameter level: The level asked about.
    /// - Returns: `true` when the logger keeps it.
    public func isLogging(_ level: LogLevel) -> Bool {
        Logger.Level(level) >= logger.logLevel
    }

    /// Writes `entry` to the logger.
    ///
    /// - Parameter entry: The entry.
    public func log(_ entry: LogEntry) {
        logger.log(
            level: Logger.Level(entry.level),
            "\(entry.message(revealingPrivateValues: revealsPrivateValues))",
            metadata: entry.metadata.isEmpty ? nil : Logger.Metadata(entry.metadata),
            file: entry.file,
            function: entry.function,
            line: entry.line
        )
    }
}
