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
        let (received, readerDone) = startReading(reader)
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

/// A pipe in non-blocking mode, a pipe whose reader has gone.
extension StreamLogDestinationTests {
    /// Makes a pipe and fills it, so that the destination's first write finds it full.
    ///
    /// - Returns: The read end, the write end, and how many bytes the filling took.
    private func fullPipe(nonBlocking: Bool) throws -> (reader: Int32, writer: Int32, filler: Int) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let flags = fcntl(ends[1], F_GETFL)
        _ = fcntl(ends[1], F_SETFL, flags | O_NONBLOCK)
        var filler = 0
        let chunk = [UInt8](repeating: 0x2E, count: 4096)
        while true {
            let count = chunk.withUnsafeBytes { Foundation.write(ends[1], $0.baseAddress!, $0.count) }
            guard count > 0 else { break }
            filler += count
        }
        if !nonBlocking { _ = fcntl(ends[1], F_SETFL, flags) }
        return (ends[0], ends[1], filler)
    }

    /// Reads `reader` to its end on a thread of its own; `received` holds what came, `done` is signalled at the end.
    private func startReading(_ reader: Int32) -> (received: Lock<[UInt8]>, done: DispatchSemaphore) {
        let received = Lock<[UInt8]>([]), done = DispatchSemaphore(value: 0)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Foundation.read(reader, $0.baseAddress!, $0.count) }
                guard count > 0 else { break }
                received.withLock { $0 += buffer[..<count] }
            }
            done.signal()
        }.start()
        return (received, done)
    }

    /// A supervisor set `O_NONBLOCK` on the pipe that is standard error, and its reader is slow: the
    /// test reads nothing until the logging thread waits for room (or is done).
    @Test func aNonBlockingPipeIsWaitedOnSoEveryErrorArrives() throws {
        let (reader, writer, filler) = try fullPipe(nonBlocking: true)
        defer { close(reader) }
        let capacity = 64 * 1024
        let destination = StreamLogDestination(
            .standardError, descriptor: writer, minimumLevel: .trace, format: .line, maximumQueuedBytes: capacity)
        // 3,000 entries of about 300 bytes, every third an error: 900 KB against a 64 KiB bound.
        let padding = String(repeating: "p", count: 250)
        let logged = DispatchGroup()
        DispatchQueue.global().async(group: logged) {
            for index in 0..<3000 {
                destination.write(entry("\(index) \(padding)", index % 3 == 0 ? .error : .info), revealingPrivateValues: false)
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while logged.wait(timeout: .now()) == .timedOut, destination.queueLoad.waiting == 0, ContinuousClock.now < deadline {
            sched_yield()
        }
        let (received, readerDone) = startReading(reader)
        try #require(logged.wait(timeout: .now() + 60) == .success, "the logging thread never got room")
        destination.flush()
        close(writer)
        try #require(readerDone.wait(timeout: .now() + 60) == .success, "the reader did not see the end of the pipe")
        let text = String(decoding: received.withLock { $0 }.dropFirst(filler), as: UTF8.self)
        let lines = text.split(separator: "\n")
        let written = lines.filter { $0.hasPrefix("F.swift (line 7): f(): ") }
        let notices = lines.filter { $0.contains(" dropped: more than \(capacity) bytes of entries waited to be written") }
        #expect(lines.count == written.count + notices.count)
        let numbers = written.compactMap { Int($0.dropFirst("F.swift (line 7): f(): ".count).prefix { $0 != " " }) }
        #expect(numbers == numbers.sorted())
        // Every error arrived; what is missing was dropped below .warning, counted and reported.
        let missing = Set(stride(from: 0, to: 3000, by: 3)).subtracting(numbers)
        #expect(missing.isEmpty, "\(missing.count) of 1,000 errors missing, such as \(missing.sorted().prefix(5))")
        #expect(destination.droppedEntries == 3000 - written.count)
        let reported = notices.compactMap { line in
            line.split(separator: ": ").first { $0.hasSuffix(" dropped") }.flatMap { Int($0.split(separator: " ")[0]) }
        }
        #expect(reported.reduce(0, +) == destination.droppedEntries)
    }

    @Test func aPipeWhoseReaderHasGoneFailsWithoutEndingTheProcessAndTheEntriesAreCounted() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        var handlerBefore = sigaction(), maskBefore = sigset_t()
        sigaction(SIGPIPE, nil, &handlerBefore)
        pthread_sigmask(SIG_BLOCK, nil, &maskBefore)
        let destination = StreamLogDestination(.standardError, descriptor: ends[1], minimumLevel: .trace, format: .line)
        for index in 0..<10 { destination.write(entry("\(index)", index % 2 == 0 ? .error : .info), revealingPrivateValues: false) }
        destination.flush()
        // Still here: every write failed with EPIPE, and each entry is counted.
        #expect(destination.droppedEntries == 10)
        // The process's handling of SIGPIPE and this thread's mask are as they were; no SIGPIPE is left pending.
        var handlerAfter = sigaction(), maskAfter = sigset_t(), pending = sigset_t()
        sigaction(SIGPIPE, nil, &handlerAfter)
        pthread_sigmask(SIG_BLOCK, nil, &maskAfter)
        sigpending(&pending)
        #if canImport(Glibc)
        #expect(withUnsafeBytes(of: handlerAfter.__sigaction_handler, Array.init) == withUnsafeBytes(of: handlerBefore.__sigaction_handler, Array.init))
        #else
        #expect(withUnsafeBytes(of: handlerAfter.__sigaction_u, Array.init) == withUnsafeBytes(of: handlerBefore.__sigaction_u, Array.init))
        #endif
        #expect(sigismember(&maskAfter, SIGPIPE) == sigismember(&maskBefore, SIGPIPE))
        #expect(sigismember(&pending, SIGPIPE) == 0)
    }
}

/// The bound's minimum, and the notice of one dropped entry.
extension StreamLogDestinationTests {
    /// A bound asked below 1 KiB is 1 KiB: with the writer held by a full pipe, two entries of 300
    /// bytes fit in its four fifths (819 bytes), a third is dropped.
    @Test func aBoundBelowOneKiBIsOneKiBAndOneDropIsReportedAsOneEntry() throws {
        let (reader, writer, filler) = try fullPipe(nonBlocking: false)
        defer { close(reader) }
        let destination = StreamLogDestination(
            .standardError, descriptor: writer, minimumLevel: .trace, format: .line, maximumQueuedBytes: 10)
        #expect(destination.maximumQueuedBytes == 1024)
        // Each counts 200 + the bytes of its message (86), file (11) and function (3): 300.
        let message = { (index: Int) in "\(index) " + String(repeating: "m", count: 84) }
        for index in 0..<3 { destination.write(entry("\(message(index))"), revealingPrivateValues: false) }
        #expect(destination.droppedEntries == 1)
        let (received, readerDone) = startReading(reader)
        destination.flush()
        close(writer)
        try #require(readerDone.wait(timeout: .now() + 60) == .success, "the reader did not see the end of the pipe")
        let lines = String(decoding: received.withLock { $0 }.dropFirst(filler), as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(lines)")
        #expect(Array(lines[..<2]) == (0..<2).map { "F.swift (line 7): f(): \(message($0))" })
        #expect(lines[2].hasSuffix(": 1 entry dropped: more than 1024 bytes of entries waited to be written"))
    }

    /// A flush reports the drops itself, and may write the notice on the caller's thread: when the
    /// reader has gone by then, the caller's thread is still there and its signal mask is as it was
    /// (SIGPIPE not left blocked, none left pending), so the app's own handling of SIGPIPE holds on it.
    @Test func aFlushThatReportsDropsToAPipeWhoseReaderHasGoneLeavesTheCallersThreadAsItWas() throws {
        let (reader, writer, _) = try fullPipe(nonBlocking: false)
        defer { close(writer) }
        let destination = StreamLogDestination(
            .standardError, descriptor: writer, minimumLevel: .trace, format: .line, maximumQueuedBytes: 1024)
        let message = String(repeating: "m", count: 86)
        for _ in 0..<3 { destination.write(entry("\(message)"), revealingPrivateValues: false) }
        #expect(destination.droppedEntries == 1)
        close(reader)
        // On a thread of its own, with SIGPIPE unblocked there, as on any thread an app starts.
        let seen = Lock<(blocked: Int32, pending: Int32)?>(nil), done = DispatchSemaphore(value: 0)
        Thread {
            var pipeSignal = sigset_t(), mask = sigset_t(), pending = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_UNBLOCK, &pipeSignal, nil)
            destination.flush()
            pthread_sigmask(SIG_BLOCK, nil, &mask)
            sigpending(&pending)
            seen.withLock { $0 = (sigismember(&mask, SIGPIPE), sigismember(&pending, SIGPIPE)) }
            done.signal()
        }.start()
        try #require(done.wait(timeout: .now() + 60) == .success, "the flush did not return")
        let after = try #require(seen.withLock { $0 })
        #expect(after.blocked == 0, "SIGPIPE was left blocked on the thread that flushed")
        #expect(after.pending == 0, "a SIGPIPE was left pending on the thread that flushed")
        // The two entries that waited and the notice all met the closed pipe: every entry is counted.
        #expect(destination.droppedEntries == 3)
    }
}
