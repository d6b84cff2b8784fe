import Logging
import MetaController
import MetaControllerSwiftLog
import MetaControllerTesting
import Testing

struct MetaControllerLogHandlerTests {
    private struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    @Test func writesLevelMessageSourceLocationAndMetadata() {
        let fake = FakeLogController()
        var logger = Logger(label: "server") { _ in MetaControllerLogHandler(logController: fake) }
        logger[metadataKey: "service"] = "notes"
        let line: UInt = #line + 1
        logger.notice("started", metadata: ["port": "8080", "service": "notes-api"])
        #expect(fake.entries.count == 1)
        let entry = fake.entries[0]
        #expect(entry.level == .notice)
        #expect(entry.message == "started")
        #expect(entry.metadata == ["port": "8080", "service": "notes-api"])
        #expect(entry.file == #fileID)
        #expect(entry.function == #function)
        #expect(entry.line == line)
    }

    @Test func everyLevelArrivesAsItsOwn() {
        let fake = FakeLogController()
        let logger = Logger(label: "levels") { _ in MetaControllerLogHandler(logController: fake, logLevel: .trace) }
        for level in Logger.Level.allCases { logger.log(level: level, "\(level)") }
        #expect(fake.entries.map(\.level) == LogLevel.allCases)
        #expect(fake.messages == LogLevel.allCases.map(\.rawValue))
    }

    @Test func bothLevelsFilter() {
        let fake = FakeLogController()
        fake.minimumLevel = .warning
        let logger = Logger(label: "filter") { _ in MetaControllerLogHandler(logController: fake) }
        #expect(logger.logLevel == .info)
        logger.debug("dropped by the handler")
        logger.info("dropped by the log controller")
        logger.error("kept")
        #expect(fake.messages == ["kept"])
    }

    @Test func metadataComesFromTheHandlerTheProviderTheEventAndTheScope() {
        let fake = FakeLogController()
        let provider = Logger.MetadataProvider { ["trace": "t1", "shared": "provider"] }
        var logger = Logger(label: "merge") { _ in MetaControllerLogHandler(logController: fake, metadataProvider: provider) }
        logger[metadataKey: "shared"] = "handler"
        logger[metadataKey: "list"] = ["a", "b"]
        LogMetadata.withValues(["req": "72b5", "trace": "scope"]) {
            logger.error("failed", error: Failure(), metadata: ["shared": "event"])
        }
        #expect(
            fake.entries.first?.metadata == [
                "req": "72b5", "trace": "t1", "error": "disk full", "list": #"["a", "b"]"#, "shared": "event",
            ])
    }

    @Test func aBootstrappedLoggerOfALibraryReachesTheLogController() async {
        let fake = FakeLogController()
        let logger = Logger(label: "library") { _ in MetaControllerLogHandler(logController: fake) }
        await withTaskGroup(of: Void.self) { group in
            for request in 0..<50 {
                group.addTask {
                    LogMetadata.withValues(["req": "\(request)"]) { logger.info("request \(request)") }
                }
            }
        }
        #expect(fake.entries.count == 50)
        #expect(fake.entries.allSatisfy { $0.message == "request \($0.metadata["req"] ?? "none")" })
    }
}
