import InMemoryLogging
import Logging
import MetaController
import MetaControllerSwiftLog
import MetaControllerTesting
import Testing

struct SwiftLogControllerTests {
    private func logger(level: Logger.Level = .trace) -> (Logger, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = level
        return (Logger(label: "test", factory: { _ in handler }), handler)
    }

    @Test func writesLevelMessageAndMetadataIncludingTheScopes() {
        let (logger, handler) = logger()
        let metaController = MetaController()
        metaController.logController = SwiftLogController(logger: logger)
        let reader = Reader(metaController: metaController)
        LogMetadata.withValues(["req": "72b5"]) {
            reader.infoLog("listed 3 notes", metadata: ["user": "ada"])
        }
        reader.errorLog("failed")
        #expect(
            handler.entries == [
                InMemoryLogHandler.Entry(level: .info, message: "listed 3 notes", metadata: ["req": "72b5", "user": "ada"]),
                InMemoryLogHandler.Entry(level: .error, message: "failed", metadata: [:]),
            ])
    }

    @Test func isLoggingFollowsTheLoggersLevel() {
        let controller = SwiftLogController(logger: logger(level: .notice).0)
        #expect(LogLevel.allCases.filter(controller.isLogging) == [.notice, .warning, .error, .critical])
    }

    @Test func privateValuesStayRedactedUnlessRevealedInADebugBuild() {
        let email = "ada@example.com"
        let entry = LogEntry(level: .info, message: "signed in as \(email, privacy: .private)", file: "A/B.swift", function: "f()", line: 1)
        let (redacting, redacted) = logger()
        SwiftLogController(logger: redacting).log(entry)
        #expect(redacted.entries.map(\.message.description) == ["signed in as <private>"])
        let (revealing, revealed) = logger()
        let controller = SwiftLogController(logger: revealing, revealsPrivateValues: true)
        controller.log(entry)
        #if DEBUG
        #expect(controller.revealsPrivateValues)
        #expect(revealed.entries.map(\.message.description) == ["signed in as ada@example.com"])
        #else
        #expect(revealed.entries.map(\.message.description) == ["signed in as <private>"])
        #endif
    }

    @Test func theSourceIsTheModuleOfTheEntrysFile() {
        let fake = FakeLogController()
        let controller = SwiftLogController(logger: Logger(label: "source") { _ in SourceRecordingHandler(fake: fake) })
        controller.log(LogEntry(level: .info, message: "m", file: "NotesServer/NotesHandler.swift", function: "f()", line: 1))
        #expect(fake.messages == ["NotesServer"])
    }

    /// MetaController to swift-log and back: the file, function and line of the
    /// original call survive both bridges, with the level, message and metadata.
    @Test func aRoundTripKeepsTheSourceLocation() {
        let fake = FakeLogController()
        var handler = MetaControllerLogHandler(logController: fake)
        handler.logLevel = .trace
        let metaController = MetaController()
        metaController.logController = SwiftLogController(logger: Logger(label: "round trip", factory: { _ in handler }))
        let line: UInt = #line + 1
        Reader(metaController: metaController).debugLog("there and back", metadata: ["k": "v"])
        let entry = fake.entries.first
        #expect(fake.entries.count == 1)
        #expect(entry?.level == .debug)
        #expect(entry?.message == "there and back")
        #expect(entry?.metadata == ["k": "v"])
        #expect(entry?.file == #fileID)
        #expect(entry?.function == #function)
        #expect(entry?.line == line)
    }
}

/// A swift-log handler that records each event's `source` as the message of an entry in a fake.
private struct SourceRecordingHandler: LogHandler {
    let fake: FakeLogController
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        fake.log(LogEntry(level: .info, message: event.source, file: event.file, function: event.function, line: event.line))
    }
}

/// A server-style handler that logs through its MetaController.
struct Reader: MetaControllerReader, Sendable {
    let metaController: MetaController?
}
