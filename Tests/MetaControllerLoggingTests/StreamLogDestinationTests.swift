import Foundation
import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct StreamLogDestinationTests {
    private func entry(_ message: LogMessage, _ level: LogLevel = .info) -> LogEntry {
        LogEntry(
            level: level, message: message, file: "App/F.swift", function: "f()", line: 7,
            date: Date(timeIntervalSince1970: 1_795_000_000))
    }

    @Test func defaultsToStandardErrorAndTheShortcutLine() {
        let destination = StreamLogDestination()
        #expect(destination.stream == .standardError)
        #expect(destination.format == .line)
        #expect(destination.minimumLevel == .trace)
        #expect(StreamLogDestination(.standardOutput).stream == .standardOutput)
    }

    @Test func writesOneLinePerEntryInOrderByTheFlush() throws {
        let capture = try CapturedStream()
        let destination = StreamLogDestination(
            .standardError, descriptor: capture.handle.fileDescriptor, minimumLevel: .trace, format: .detailedLine)
        for index in 0..<100 { destination.write(entry("line \(index)"), revealingPrivateValues: false) }
        destination.flush()
        let lines = try capture.lines
        #expect(lines.count == 100)
        #expect(lines.first == "2026-11-18T11:06:40.000Z [info] F.swift (line 7): f(): line 0")
        #expect(lines.last == "2026-11-18T11:06:40.000Z [info] F.swift (line 7): f(): line 99")
    }

    @Test func getsOnlyTheLevelsAtOrAboveItsOwnThroughAController() throws {
        let capture = try CapturedStream()
        let problems = StreamLogDestination(
            .standardError, descriptor: capture.handle.fileDescriptor, minimumLevel: .warning, format: .line)
        let everything = MemoryLogDestination()
        let log = StandardLogController(minimumLevel: .trace, destinations: [problems, everything])
        for level in LogLevel.allCases { log.log(entry("\(level)", level)) }
        log.flush()
        #expect(try capture.lines == ["warning", "error", "critical"].map { "F.swift (line 7): f(): \($0)" })
        #expect(everything.entries.count == LogLevel.allCases.count)
    }

    @Test func redactsPrivateValuesUnlessAllowed() throws {
        let capture = try CapturedStream()
        let destination = StreamLogDestination(
            .standardOutput, descriptor: capture.handle.fileDescriptor, minimumLevel: .trace, format: .jsonLines)
        let email = "ada@example.com", password = "hunter2"
        let message: LogMessage = "\(email, privacy: .private) \(password, privacy: .sensitive)"
        destination.write(entry(message), revealingPrivateValues: false)
        destination.write(entry(message), revealingPrivateValues: true)
        destination.flush()
        let lines = try capture.lines
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix(#""message":"<private> <private>"}"#))
        #if DEBUG
        #expect(lines[1].hasSuffix(#""message":"ada@example.com <private>"}"#))
        #else
        #expect(lines[1].hasSuffix(#""message":"<private> <private>"}"#))
        #endif
        #expect(!lines.joined().contains(password))
    }
}
