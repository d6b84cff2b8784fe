import MetaController

/// An app-defined log controller that prints each entry as one line.
final class ConsoleLogController: LogController {
    private let minimumLevel: LogLevel

    init(minimumLevel: LogLevel) {
        self.minimumLevel = minimumLevel
    }

    func isLogging(_ level: LogLevel) -> Bool {
        level >= minimumLevel
    }

    func log(_ entry: LogEntry) {
        print(entry.level >= .warning ? "\(entry.level): \(entry)" : entry.description)
    }
}
