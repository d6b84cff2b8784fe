import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct LogControllerTests {
    /// A controller that writes each entry as it logs and so keeps the default `flush()`.
    private final class ImmediateLogController: LogController {
        let entries = Lock<[LogEntry]>([])
        func log(_ entry: LogEntry) { entries.withLock { $0.append(entry) } }
    }

    @Test func theDefaultsKeepEveryLevelAndFlushDoesNothing() {
        let immediate = ImmediateLogController()
        let log: any LogController = immediate
        #expect(LogLevel.allCases.allSatisfy { log.isLogging($0) })
        log.log(LogEntry(level: .info, message: "kept", file: "A.swift", function: "f()", line: 1))
        log.flush()
        log.flush()
        #expect(immediate.entries.withLock { $0.map(\.message) } == ["kept"])
    }
}
