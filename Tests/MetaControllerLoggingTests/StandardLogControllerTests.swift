import Foundation
import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct StandardLogControllerTests {
    private func entry(_ message: LogMessage, _ level: LogLevel) -> LogEntry {
        LogEntry(level: level, message: message, file: "F.swift", function: "f()", line: 1)
    }

    @Test func sendsEachEntryToTheDestinationsWhoseLevelItReaches() {
        let everything = MemoryLogDestination(minimumLevel: .trace)
        let problems = MemoryLogDestination(minimumLevel: .warning)
        let log = StandardLogController(minimumLevel: .debug, destinations: [everything, problems])
        for level in LogLevel.allCases { log.log(entry("\(level)", level)) }
        #expect(everything.entries.map(\.level) == [.debug, .info, .notice, .warning, .error, .critical])
        #expect(problems.entries.map(\.level) == [.warning, .error, .critical])
    }

    @Test func isLoggingAnswersForTheControllerAndItsDestinations() {
        let log = StandardLogController(minimumLevel: .debug, destinations: [MemoryLogDestination(minimumLevel: .error)])
        #expect(!log.isLogging(.warning))
        #expect(log.isLogging(.error))
        #expect(!StandardLogController(minimumLevel: .trace, destinations: []).isLogging(.critical))
    }

    /// With two destinations, a level that reaches only the lower one is logged.
    @Test func isLoggingAnswersForTheLowestOfSeveralDestinations() {
        let problems = MemoryLogDestination(minimumLevel: .error)
        let details = MemoryLogDestination(minimumLevel: .info)
        let log = StandardLogController(minimumLevel: .debug, destinations: [problems, details])
        #expect(LogLevel.allCases.filter(log.isLogging) == [.info, .notice, .warning, .error, .critical])
        for level in LogLevel.allCases { log.log(entry("\(level)", level)) }
        #expect(details.entries.map(\.level) == LogLevel.allCases.filter(log.isLogging))
        #expect(problems.entries.map(\.level) == [.error, .critical])
    }

    @Test func aDisabledLevelBuildsNoMessage() {
        let metaController = MetaController()
        metaController.logController = StandardLogController(minimumLevel: .warning, destinations: [MemoryLogDestination()])
        let consumer = Consumer()
        consumer.metaController = metaController
        let built = Counter()
        func expensive() -> String {
            built.increment()
            return "expensive"
        }
        consumer.debugLog("value \(expensive())")
        consumer.infoLog("value \(expensive())")
        #expect(built.value == 0)
        consumer.warningLog("value \(expensive())")
        #expect(built.value == 1)
    }

    @Test func privateValuesAreRedactedUnlessTheDebugSwitchIsOn() {
        let hidden = MemoryLogDestination(), shown = MemoryLogDestination()
        let quiet = StandardLogController(minimumLevel: .trace, destinations: [hidden])
        let revealing = StandardLogController(minimumLevel: .trace, destinations: [shown], revealsPrivateValues: true)
        let email = "ada@example.com", token = "t0k3n"
        let message: LogMessage = "\(email, privacy: .private) \(token, privacy: .sensitive)"
        quiet.log(entry(message, .info))
        revealing.log(entry(message, .info))
        #expect(hidden.lines == ["F.swift (line 1): f(): <private> <private>"])
        #if DEBUG
        #expect(revealing.revealsPrivateValues)
        #expect(shown.lines == ["F.swift (line 1): f(): ada@example.com <private>"])
        #else
        #expect(!revealing.revealsPrivateValues)
        #expect(shown.lines == ["F.swift (line 1): f(): <private> <private>"])
        #endif
    }

    @Test func isAConsumerHoldingItsMetaControllerWeakly() {
        let log = StandardLogController()
        var metaController: MetaController? = MetaController()
        metaController?.logController = log
        #expect(log.metaController === metaController)
        weak let weakMetaController = metaController
        metaController = nil
        #expect(weakMetaController == nil)
    }

    @Test func settingUpInCodeReplacesAFailedDestinationByStandardError() throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("log-blocker-\(UUID().uuidString)")
        try Data("a file, not a directory".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let target = blocker.appendingPathComponent("logs")
        let memory = MemoryLogDestination()
        let standardError = try CapturedStream()
        let log = standardError.asStandardError {
            StandardLogController(
                minimumLevel: .debug,
                settingUp: [
                    { memory },
                    { try FileLogDestination(directory: target) },
                ])
        }
        #expect(log.setupErrors.count == 1)
        #expect(log.setupErrors.first?.action == "create the log directory")
        #expect(log.setupErrors.first?.path == target.path)
        #expect(log.setupErrors.first?.reason.isEmpty == false)
        #expect(log.destinations.count == 2)
        #expect(log.destinations[0] === memory)
        #expect((log.destinations[1] as? StreamLogDestination)?.stream == .standardError)
        #expect(log.isLogging(.debug))
        log.log(entry("still logging", .info))
        #expect(memory.lines == ["F.swift (line 1): f(): still logging"])
        // The error went to standard error at once, and the entries after it follow.
        log.flush()
        let written = try standardError.lines
        #expect(written.count == 2)
        #expect(written.first?.contains("[error] ") == true)
        #expect(written.first?.contains("cannot create the log directory \(target.path): ") == true)
        #expect(written.first?.hasSuffix("; logging to standard error instead") == true)
        #expect(written.last?.hasSuffix("[info] F.swift (line 1): f(): still logging") == true)
    }

    @Test func anErrorOfYourOwnDestinationIsKeptAsASetupError() throws {
        struct NoCrashReporter: Error, CustomStringConvertible {
            var description: String { "the crash reporter is not running" }
        }
        let standardError = try CapturedStream()
        let log = standardError.asStandardError { StandardLogController(settingUp: [{ throw NoCrashReporter() }]) }
        #expect(log.setupErrors.map(\.description) == ["cannot set up a log destination: the crash reporter is not running"])
        #expect((log.destinations.first as? StreamLogDestination)?.stream == .standardError)
        log.flush()
        let written = try standardError.lines
        #expect(written.count == 1)
        #expect(
            written.first?.hasSuffix(
                "cannot set up a log destination: the crash reporter is not running; logging to standard error instead") == true)
    }

    @Test func settingUpInCodeWithNoFailureHasNoErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("logs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = StandardLogController(settingUp: [{ try FileLogDestination(directory: directory) }])
        #expect(log.setupErrors.isEmpty)
        #expect(log.destinations.first is FileLogDestination)
        #expect(log.minimumLevel == .info)
    }

    @Test func configurationBuildsDestinationsAndFallsBackToStandardErrorOnBadSetup() throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("log-blocker-\(UUID().uuidString)")
        try Data("a file, not a directory".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let configuration = LogConfiguration(
            level: .debug,
            destinations: [
                LogDestinationConfiguration(kind: .memory, level: .info, capacity: 5),
                LogDestinationConfiguration(kind: .file, directory: blocker.appendingPathComponent("logs").path),
            ])
        let standardError = try CapturedStream()
        let log = standardError.asStandardError {
            StandardLogController(configuration: configuration, relativeTo: FileManager.default.temporaryDirectory)
        }
        #expect(log.minimumLevel == .debug)
        #expect(log.setupErrors.count == 1)
        #expect(log.setupErrors.first?.description.hasPrefix("cannot create the log directory \(blocker.path)/logs") == true)
        #expect(log.destinations.count == 2)
        #expect((log.destinations[0] as? MemoryLogDestination)?.capacity == 5)
        #expect((log.destinations[1] as? StreamLogDestination)?.stream == .standardError)
        log.flush()
        let written = try standardError.lines
        #expect(written.count == 1)
        #expect(written.first?.contains("[error] ") == true)
        #expect(written.first?.contains("cannot create the log directory \(blocker.path)/logs: ") == true)
    }

    @Test func flushThroughTheLogControllerProtocolPutsAFilesBytesOnDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("logs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, format: .line)
        let metaController = MetaController()
        metaController.logController = StandardLogController(minimumLevel: .trace, destinations: [file])
        let consumer = Consumer()
        consumer.metaController = metaController
        for index in 0..<50 { consumer.infoLog("line \(index)") }
        metaController.logController?.flush()
        let lines = try String(contentsOfFile: file.path(ofFile: 0), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 50)
        #expect(lines.last?.hasSuffix("line 49") == true)
    }
}

private final class Consumer: MetaControllerConsumer {
    var metaController: MetaController?
}
