/// Writes entries to the platform's log: the unified logging system
/// (`os.Logger`) on Apple platforms, standard error elsewhere.
///
/// Entries arrive already redacted by the log controller, so they are passed
/// on as public text; levels map to the closest `OSLogType`.
///
/// ```swift
/// let log = StandardLogController(destinations: [
///     SystemLogDestination(subsystem: "com.example.app", category: "app"),
/// ])
/// ```
public final class SystemLogDestination: LogDestination {
    /// The lowest level written.
    public let minimumLevel: LogLevel
    /// The subsystem, such as `com.example.app`.
    public let subsystem: String
    /// The category, such as `network`.
    public let category: String

    private let sink: any LogDestination

    /// Creates a destination for a subsystem and category.
    ///
    /// - Parameters:
    ///   - subsystem: The subsystem, usually the app's bundle identifier.
    ///   - category: The category within it.
    ///   - minimumLevel: The lowest level written; everything by default.
    public init(subsystem: String, category: String, minimumLevel: LogLevel = .trace) {
        self.subsystem = subsystem
        self.category = category
        self.minimumLevel = minimumLevel
        sink = makeSystemLogSink(subsystem: subsystem, category: category)
    }

    /// Sends `entry` to the platform's log.
    public func write(_ entry: LogEntry, revealingPrivateValues: Bool) {
        sink.write(entry, revealingPrivateValues: revealingPrivateValues)
    }

    /// Returns when the entries are handed over.
    public func flush() {
        sink.flush()
    }
}

public import MetaControllerCore
#if !canImport(os)
/// Elsewhere than on Apple platforms, the platform's log is standard error.
func makeSystemLogSink(subsystem: String, category: String) -> any LogDestination {
    StreamLogDestination(.standardError)
}
#endif
