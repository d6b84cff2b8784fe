import Foundation
import MetaController
import Testing
import Dispatch
@testable import MetaControllerLogging
import MetaControllerSupport
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

/// A stream nobody reads: the queue stays bounded.
extension StreamLogDestinationTests {
    @Test func aPipeNobodyReadsKeepsTheQueueBoundedAndTheDropsAreCountedAndReported() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        // Fill the pipe first, so the destination's first write already waits for a reader.
        let flags = fcntl(writer, F_GETFL)
        _ = fcntl(writer, F_SETFL, flags | O_NONBLOCK)
        var filler = 0
        let chunk = [UInt8](repeating: 0x2E, count: 4096)
        while true {
            let count = chunk.withUnsafeBytes { Foundation.write(writer, $0.baseAddress!, $0.count) }
            guard count > 0 else { break }
            filler += count
        }
        _ = fcntl(writer, F_SETFL, flags)
        let capacity = 64 * 1024
        let destination = StreamLogDestination(
            .standardError, descriptor: writer, minimumLevel: .trace, format: .line, maximumQueuedBytes: capacity)
        // 20,000 entries of about 1 KiB: 20 MiB, against a bound of 64 KiB and nobody reading.
        let padding = String(repeating: "p", count: 1000)
        for index in 0..<20_000 { destination.write(entry("\(index) \(padding)"), revealingPrivateValues: false) }
        #expect(destination.queueLoad.peak <= capacity)
        #expect(destination.queueLoad.queued <= capacity)
        let dropped = destination.droppedEntries
        #expect(dropped > 19_000)
        // Now a reader drains the pipe: what was kept arrives in order, and the drops are reported.
        let received = Lock<[UInt8]>([])
        let readerDone = DispatchSemaphore(value: 0)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Foundation.read(reader, $0.baseAddress!, $0.count) }
                guard count > 0 else { break }
                received.withLock { $0 += buffer[..<count] }
            }
            readerDone.signal()
        }.start()
        destination.flush()
        close(writer)
        try #require(readerDone.wait(timeout: .now() + 60) == .success, "the reader did not see the end of the pipe")
        let text = String(decoding: received.withLock { $0 }.dropFirst(filler), as: UTF8.self)
        let lines = text.split(separator: "\n")
        let written = lines.filter { $0.hasPrefix("F.swift (line 7): f(): ") }
        let notices = lines.filter { $0.contains(" dropped: more than \(capacity) bytes of entries waited to be written") }
        #expect(lines.count == written.count + notices.count)
        #expect(written.count == 20_000 - dropped)
        let numbers = written.compactMap { Int($0.dropFirst("F.swift (line 7): f(): ".count).prefix { $0 != " " }) }
        #expect(numbers == numbers.sorted() && numbers.first == 0)
        let reported = notices.compactMap { line in
            line.split(separator: ": ").first { $0.hasSuffix(" dropped") }.flatMap { Int($0.split(separator: " ")[0]) }
        }
        #expect(reported.reduce(0, +) == dropped)
    }
}
