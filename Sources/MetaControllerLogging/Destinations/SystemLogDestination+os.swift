import MetaControllerCore
#if canImport(os)
import os

/// On Apple platforms, the platform's log is `os.Logger`.
func makeSystemLogSink(subsystem: String, category: String) -> any LogDestination {
    OSLoggerSink(logger: Logger(subsystem: subsystem, category: category))
}

/// Hands entries to an `os.Logger`.
private final class OSLoggerSink: LogDestination {
    let minimumLevel = LogLevel.trace
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    func write(_ entry: LogEntry, revealingPrivateValues: Bool) {
        let line = LogFormat.line.format(entry, revealingPrivateValues: revealingPrivateValues)
        let type: OSLogType
        switch entry.level {
        case .trace, .debug: type = .debug
        case .info, .notice: type = .info
        case .warning, .error: type = .error
        case .critical: type = .fault
        }
        logger.log(level: type, "\(line, privacy: .public)")
    }

    func flush() {}
}
#endif
