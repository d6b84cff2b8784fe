import Foundation
import MetaController
@testable import MetaControllerLogging
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

@Suite struct FileLogDestinationTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("logs-\(UUID().uuidString)")
    }

    private func entry(_ message: String) -> LogEntry {
        LogEntry(level: .info, message: message, file: "F.swift", function: "f()", line: 1)
    }

    private func lines(at path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func writesJSONLinesThatSurviveAFlush() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory)
        file.write(entry("one"), revealingPrivateValues: false)
        file.write(entry("two"), revealingPrivateValues: false)
        file.flush()
        let written = try lines(at: file.path(ofFile: 0))
        #expect(written.count == 2)
        #expect(written[1].contains(#""message":"two""#))
        #expect(file.lastFailure == nil)
    }

    @Test func filesAndTheDirectoryAreTheOwnersOnly() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory)
        file.write(entry("x"), revealingPrivateValues: false)
        file.flush()
        let fileMode = try FileManager.default.attributesOfItem(atPath: file.path(ofFile: 0))[.posixPermissions] as? Int
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(directoryMode == 0o700)
    }

    @Test func rotatesBySizeKeepingNFiles() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        // Each line is 100 bytes: 10 fit in a file, so 45 lines make 5 files, of which 3 are kept.
        let padding = String(repeating: "x", count: 100 - "F.swift (line 1): f(): 00 ".count - 1)
        for index in 0..<45 { file.write(entry(String(format: "%02d ", index) + padding), revealingPrivateValues: false) }
        file.flush()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["app.1.log", "app.2.log", "app.log"])
        let current = try lines(at: file.path(ofFile: 0)), previous = try lines(at: file.path(ofFile: 1)),
            oldest = try lines(at: file.path(ofFile: 2))
        #expect(current.count == 5 && previous.count == 10 && oldest.count == 10)
        #expect(oldest.first?.contains(": 20 x") == true)   // lines 0 to 19 were rotated away
        #expect(current.last?.contains(": 44 x") == true)
        #expect((oldest + previous + current).allSatisfy { $0.utf8.count == 99 })
    }

    @Test func nothingLoggedFromManyThreadsIsLostAcrossAFlush() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, maximumFileBytes: 64 * 1024, keptFiles: 100)
        let log = StandardLogController(minimumLevel: .trace, destinations: [file])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { for index in 0..<250 { log.log(entry("\(task)-\(index)")) } }
            }
        }
        log.flush()
        var messages: Set<String> = []
        for index in 0..<100 where FileManager.default.fileExists(atPath: file.path(ofFile: index)) {
            for line in try lines(at: file.path(ofFile: index)) {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                messages.insert(object?["message"] as? String ?? "")
            }
        }
        #expect(messages.count == 2000)
    }

    @Test func aDirectoryThatCannotBeCreatedIsAClearError() throws {
        let blocker = temporaryDirectory()
        try Data().write(to: blocker)   // a file where the directory's parent should be
        defer { try? FileManager.default.removeItem(at: blocker) }
        let target = blocker.appendingPathComponent("logs")
        #expect {
            try FileLogDestination(directory: target)
        } throws: { error in
            let error = error as? LogSetupError
            return error?.action == "create the log directory" && error?.path == target.path
        }
    }

    @Test func aBadFileNameIsRefused() {
        #expect(throws: LogSetupError.self) { try FileLogDestination(directory: temporaryDirectory(), fileName: "../escape.log") }
    }
}

extension FileLogDestinationTests {
    @Test func releasingItWithWritesStillQueuedWritesThemAllWithoutCrashing() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        weak var released: FileLogDestination?
        let path: String
        do {
            let file = try FileLogDestination(directory: directory, format: .line)
            path = file.path(ofFile: 0)
            released = file
            // Every queued write holds the destination, so the last one to run releases it, on the queue itself:
            // the destination must close without waiting for its own queue.
            for index in 0..<2000 { file.write(entry("\(index)"), revealingPrivateValues: false) }
        }
        // The reference goes when the last queued write has run; wait for that event, within a generous bound.
        let deadline = ContinuousClock.now + .seconds(30)
        while released != nil, ContinuousClock.now < deadline { await Task.yield() }
        #expect(released == nil)
        let written = try lines(at: path)
        #expect(written.count == 2000)
        #expect(written.last == "F.swift (line 1): f(): 1999")
    }
}

/// Faults: a log file on a full disk.
@Suite struct FileLogDestinationFaultTests {
    #if os(Linux)
    @Test func aFullDiskIsReportedAndNothingCrashes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // /dev/full accepts an open and refuses every write with ENOSPC, as a full disk does. The
        // destination refuses a device as its file, so the test hands it one.
        let file = try FileLogDestination(
            directory: directory,
            openingFilesWith: { _ in
                let descriptor = open("/dev/full", O_WRONLY | O_CLOEXEC)
                return descriptor >= 0 ? .opened(descriptor: descriptor, size: 0) : .failed(errno)
            })
        let log = StandardLogController(minimumLevel: .trace, destinations: [file])
        for index in 0..<10 {
            log.log(LogEntry(level: .info, message: "line \(index)", file: "F.swift", function: "f()", line: 1))
        }
        log.flush()
        #expect(file.lastFailure?.contains("No space left on device") == true)
    }
    #endif
}

/// Hostile file systems: links, FIFOs and loose directories.
extension FileLogDestinationTests {
    @Test func anAppLogThatIsASymbolicLinkIsRefusedAndItsTargetGetsNothing() throws {
        let directory = temporaryDirectory(), outside = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: outside)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: outside)
        let path = directory.appendingPathComponent("app.log").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside.path)
        var file: FileLogDestination?
        #expect {
            file = try FileLogDestination(directory: directory)
        } throws: { error in
            (error as? LogSetupError)
                == LogSetupError(
                    action: "open the log file", path: path, reason: "it is a symbolic link, not a regular file")
        }
        // Had it opened, this is where a line would reach the link's target.
        file?.write(entry("leaked"), revealingPrivateValues: false)
        file?.flush()
        #expect(try Data(contentsOf: outside) == Data("mine\n".utf8))
    }

    @Test func anAppLogThatIsAFIFOIsRefusedWithoutWaitingForAReader() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("app.log").path
        try #require(mkfifo(path, 0o600) == 0, "cannot make a FIFO here")
        let refusal = LogSetupError(action: "open the log file", path: path, reason: "it is a FIFO, not a regular file")
        // With nobody reading: opening for writing would wait for a reader.
        let result = BoundedCall.run(
            within: 10,
            release: {
                let reader = open(path, O_RDONLY | O_NONBLOCK)
                if reader >= 0 { close(reader) }
            }
        ) {
            Result { () throws(LogSetupError) in try FileLogDestination(directory: directory) }
        }
        let unread = try #require(result, "the destination waited for a reader to open the FIFO")
        #expect(throws: refusal) { try unread.get() }
        // With a reader: the open succeeds, and the FIFO is still refused.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        #expect(throws: refusal) { try FileLogDestination(directory: directory) }
    }

    @Test func aLogDirectoryOpenToEveryoneIsRestrictedToItsOwner() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makeLooseDirectory(directory)
        _ = try FileLogDestination(directory: directory)
        #expect(try permissions(of: directory) == 0o700)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func aLooseLogDirectoryOfAnotherUserIsRefused() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makeLooseDirectory(directory, owner: 4242)
        #expect(
            throws: LogSetupError(
                action: "use the log directory", path: directory.path,
                reason: "it is open to other users (mode 0777) and belongs to another user")
        ) {
            try FileLogDestination(directory: directory)
        }
        #expect(try permissions(of: directory) == 0o777)
    }
}

/// Faults: a file that cannot be reopened at rotation, and comes back.
extension FileLogDestinationFaultTests {
    /// Opens files as the destination does, or fails with `ENOSPC` while `failing` is set; counts the attempts.
    final class FlakyOpener: Sendable {
        let state = Lock((failing: false, attempts: 0))
        var failing: Bool {
            get { state.withLock { $0.failing } }
            set { state.withLock { $0.failing = newValue } }
        }
        var attempts: Int { state.withLock { $0.attempts } }
        func open(_ path: String) -> POSIXFile.OpenedFile {
            let failing = state.withLock { state in
                state.attempts += 1
                return state.failing
            }
            return failing ? .failed(ENOSPC) : POSIXFile.openRegularFile(path, flags: O_WRONLY | O_APPEND | O_CREAT)
        }
    }

    /// A clock that moves only when the test moves it.
    final class ManualClock: Sendable {
        let instant = Lock(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(by duration: Duration) { instant.withLock { $0 += duration } }
    }

    private func entry(_ message: String) -> LogEntry {
        LogEntry(level: .info, message: message, file: "F.swift", function: "f()", line: 1)
    }

    @Test func aFailedReopenAtRotationIsRetriedAfterTheBackOffAndTheFailureClears() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reopen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let opener = FlakyOpener(), clock = ManualClock()
        let file = try FileLogDestination(
            directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line, reopenInterval: .seconds(1),
            openingFilesWith: { opener.open($0) }, now: { clock.now })
        // Each line is 100 bytes: ten fill the file, the eleventh rotates it.
        let padding = String(repeating: "x", count: 100 - "F.swift (line 1): f(): 00 ".count - 1)
        for index in 0..<10 { file.write(entry(String(format: "%02d ", index) + padding), revealingPrivateValues: false) }
        file.flush()
        #expect(opener.attempts == 1)
        // The disk's inodes run out: the rotation's reopen fails, and so would every attempt.
        opener.failing = true
        for index in 10..<15 { file.write(entry("lost \(index)"), revealingPrivateValues: false) }
        file.flush()
        #expect(file.lastFailure?.contains("cannot open \(file.path(ofFile: 0)): No space left on device") == true)
        #expect(file.droppedEntries == 5)
        // Within the back-off nothing tries the file again, even once it could open.
        #expect(opener.attempts == 2)
        opener.failing = false
        clock.advance(by: .milliseconds(999))
        file.write(entry("lost 15"), revealingPrivateValues: false)
        file.flush()
        #expect(opener.attempts == 2)
        #expect(file.droppedEntries == 6)
        #expect(file.lastFailure != nil)
        // After it, the next write reopens the file, reports what was lost, and clears the failure.
        clock.advance(by: .milliseconds(1))
        for index in 0..<5 { file.write(entry("back \(index)"), revealingPrivateValues: false) }
        file.flush()
        #expect(opener.attempts == 3)
        #expect(file.lastFailure == nil)
        #expect(file.droppedEntries == 6)
        let lines = try String(contentsOfFile: file.path(ofFile: 0), encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(lines.count == 6, "\(lines)")
        #expect(lines[0].hasSuffix(": 6 entries not written: cannot open \(file.path(ofFile: 0)): No space left on device"))
        #expect(Array(lines[1...]) == (0..<5).map { "F.swift (line 1): f(): back \($0)" })
        // The ten lines before the rotation are in the previous file, whole.
        #expect(try String(contentsOfFile: file.path(ofFile: 1), encoding: .utf8).split(separator: "\n").count == 10)
    }

    @Test func aWriteThatFailsPartWayIsEndedBeforeTheNextLineAndTheFailureClears() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("torn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The disk fills after half of a line: the half reaches the file and the write fails.
        let full = Lock(false)
        let file = try FileLogDestination(
            directory: directory, format: .line,
            openingFilesWith: { POSIXFile.openRegularFile($0, flags: O_WRONLY | O_APPEND | O_CREAT) },
            writingWith: { bytes, descriptor in
                guard full.withLock({ $0 }) else { return POSIXFile.write(bytes, to: descriptor) }
                POSIXFile.write(Array(bytes.prefix(bytes.count / 2)), to: descriptor)
                return ENOSPC
            })
        file.write(entry("first"), revealingPrivateValues: false)
        file.flush()
        full.withLock { $0 = true }
        file.write(entry("torn"), revealingPrivateValues: false)
        file.flush()
        #expect(file.lastFailure?.contains("No space left on device") == true)
        full.withLock { $0 = false }
        file.write(entry("after"), revealingPrivateValues: false)
        file.flush()
        #expect(file.lastFailure == nil)
        #expect(file.droppedEntries == 1)
        let lines = try String(contentsOfFile: file.path(ofFile: 0), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.first == "F.swift (line 1): f(): first")
        let torn = Array("F.swift (line 1): f(): torn\n".utf8)
        #expect(lines[1] == String(decoding: torn.prefix(torn.count / 2), as: UTF8.self))
        #expect(lines[2].hasSuffix(": 1 entry not written: cannot write \(file.path(ofFile: 0)): No space left on device"))
        #expect(lines.last == "F.swift (line 1): f(): after")
    }
}

/// A burst faster than the disk: the queue stays bounded.
extension FileLogDestinationTests {
    @Test func aBurstFasterThanTheWriterKeepsTheQueueBoundedDropsOnlyLowLevelsAndSaysHowMany() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let capacity = 64 * 1024
        // The writer holds its first write until the test opens the gate, then takes 10 µs a line.
        let gate = DispatchSemaphore(value: 0), firstWrite = Lock(true)
        let file = try FileLogDestination(
            directory: directory, maximumFileBytes: 1 << 30, format: .line, maximumQueuedBytes: capacity,
            openingFilesWith: { POSIXFile.openRegularFile($0, flags: O_WRONLY | O_APPEND | O_CREAT) },
            writingWith: { bytes, descriptor in
                if firstWrite.withLock({ first in
                    defer { first = false }; return first
                }) {
                    gate.wait()
                }
                let until = ContinuousClock.now + .microseconds(10)
                while ContinuousClock.now < until {}
                return POSIXFile.write(bytes, to: descriptor)
            })
        // Should the test stop early, the writer is let go all the same.
        let opened = Lock(false)
        let openGate: @Sendable () -> Void = {
            if opened.withLock({ opened in
                defer { opened = true }; return !opened
            }) {
                gate.signal()
            }
        }
        defer { openGate() }
        let padding = String(repeating: "p", count: 240)
        let produced = Lock((total: 0, severe: Set<String>()))
        let produce: @Sendable (LogLevel, String) -> Void = { level, name in
            file.write(
                LogEntry(level: level, message: "\(name) \(padding)", file: "F.swift", function: "f()", line: 1),
                revealingPrivateValues: false)
            produced.withLock { produced in
                produced.total += 1
                if level >= .warning { produced.severe.insert(name) }
            }
        }
        // With the writer held: info entries fill four fifths of the queue, the rest are dropped.
        for index in 0..<1000 { produce(.info, "held-\(index)") }
        #expect(file.droppedEntries > 800)
        // Errors take the last fifth, then their thread waits for room rather than drop one.
        let errorsDone = DispatchGroup()
        DispatchQueue.global().async(group: errorsDone) {
            for index in 0..<200 { produce(.error, "error-\(index)") }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while file.queueLoad.waiting == 0, ContinuousClock.now < deadline { sched_yield() }
        try #require(file.queueLoad.waiting == 1, "the error thread never waited for room")
        #expect(file.queueLoad.queued <= capacity && file.queueLoad.queued > capacity - 1000)
        openGate()
        // Four threads log as fast as they can, every tenth entry a warning, beside the slow writer.
        let burst = DispatchGroup()
        for thread in 0..<4 {
            DispatchQueue.global().async(group: burst) {
                for index in 0..<2000 {
                    produce(index % 10 == 0 ? .warning : .debug, "burst-\(thread)-\(index)")
                }
            }
        }
        try #require(errorsDone.wait(timeout: .now() + 300) == .success, "the error thread never got room")
        try #require(burst.wait(timeout: .now() + 300) == .success, "the burst did not finish")
        file.flush()
        let lines = try lines(at: file.path(ofFile: 0))
        let notices = lines.filter { $0.contains(" dropped: more than \(capacity) bytes of entries waited to be written") }
        let written = lines.filter { $0.hasPrefix("F.swift (line 1): f(): ") }
        let (total, severe) = produced.withLock { ($0.total, $0.severe) }
        #expect(lines.count == written.count + notices.count)
        #expect(file.queueLoad.peak <= capacity)
        #expect(file.queueLoad.queued == 0)
        #expect(file.droppedEntries == total - written.count)
        #expect(file.droppedEntries > 0)
        // Every warning and error was written; the notices add up to the count.
        let writtenNames = Set(written.map { $0.dropFirst("F.swift (line 1): f(): ".count).split(separator: " ")[0] }.map(String.init))
        #expect(severe.subtracting(writtenNames).isEmpty)
        #expect(severe.count == 200 + 800)
        let reported = notices.compactMap { line in
            line.split(separator: ": ").first { $0.hasSuffix(" dropped") }.flatMap { Int($0.split(separator: " ")[0]) }
        }
        #expect(reported.reduce(0, +) == file.droppedEntries)
        #expect(notices.allSatisfy { $0.contains("FileLogDestination.swift") })
    }

    @Test func aFlushWritesTheNoticeOfDropsThatNoEntryFollowed() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gate = DispatchSemaphore(value: 0), firstWrite = Lock(true)
        let file = try FileLogDestination(
            directory: directory, format: .detailedLine, maximumQueuedBytes: 4096,
            openingFilesWith: { POSIXFile.openRegularFile($0, flags: O_WRONLY | O_APPEND | O_CREAT) },
            writingWith: { bytes, descriptor in
                if firstWrite.withLock({ first in
                    defer { first = false }; return first
                }) {
                    gate.wait()
                }
                return POSIXFile.write(bytes, to: descriptor)
            })
        defer { gate.signal() }
        for index in 0..<20 { file.write(entry("\(index)"), revealingPrivateValues: false) }
        let dropped = file.droppedEntries
        #expect(dropped > 0 && dropped < 20)
        gate.signal()
        file.flush()
        let lines = try lines(at: file.path(ofFile: 0))
        #expect(lines.count == 20 - dropped + 1)
        #expect(lines.last?.contains(" [warning] FileLogDestination.swift ") == true)
        #expect(lines.last?.contains(": \(dropped) entries dropped: more than 4096 bytes of entries waited to be written") == true)
    }
}

/// Log injection: what an entry holds cannot forge another line.
extension FileLogDestinationTests {
    @Test(arguments: [LogFormat.line, .detailedLine])
    func aForgedEntryInAnInterpolationStaysOnItsOwnLine(format: LogFormat) throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, format: format)
        let log = StandardLogController(minimumLevel: .trace, destinations: [file])
        let user = "mallory\n2026-11-22T10:15:03.120Z [critical] Auth.swift (line 1): login(): FORGED"
        let message: LogMessage = "signed in as \(user)\r\u{1B}[2K"
        log.log(LogEntry(level: .info, message: message, file: "App/Auth.swift", function: "login()", line: 7))
        log.flush()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file.path(ofFile: 0)))
        #expect(bytes.filter { $0 == 0x0A }.count == 1)
        #expect(bytes.last == 0x0A)
        #expect(!bytes.contains(0x0D) && !bytes.contains(0x1B))
        #expect(
            String(decoding: bytes, as: UTF8.self).hasSuffix(
                "Auth.swift (line 7): login(): signed in as mallory\\x0A2026-11-22T10:15:03.120Z [critical] Auth.swift (line 1): "
                    + "login(): FORGED\\x0D\\x1B[2K\n"))
    }
}

#if os(Linux)
/// A small tmpfs (root and `mount -t tmpfs` needed), whose inodes a test can use up.
enum SmallTmpfs {
    /// Whether one can be mounted here; when not, says why once.
    static let isAvailable: Bool = {
        guard let directory = mount() else { return false }
        unmount(directory)
        return true
    }()

    /// Mounts a tmpfs of 1 MiB and 16 inodes on a new directory; `nil`, with the reason printed, when it cannot.
    static func mount() -> URL? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfs-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            print("SmallTmpfs: skipped: cannot make a mount point: \(error)")
            return nil
        }
        guard Glibc.mount("tmpfs", directory.path, "tmpfs", 0, "size=1m,nr_inodes=16,mode=0700") == 0 else {
            print("SmallTmpfs: skipped: cannot mount a tmpfs (root and CAP_SYS_ADMIN needed): \(String(cString: strerror(errno)))")
            try? FileManager.default.removeItem(at: directory)
            return nil
        }
        return directory
    }

    static func unmount(_ directory: URL) {
        _ = umount2(directory.path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(at: directory)
    }
}

extension FileLogDestinationFaultTests {
    @Test(.enabled(if: SmallTmpfs.isAvailable, "needs root and mount -t tmpfs"))
    func inodesUsedUpAtRotationThenFreedTheNextEntriesReachTheFile() throws {
        let mount = try #require(SmallTmpfs.mount())
        defer { SmallTmpfs.unmount(mount) }
        let directory = mount.appendingPathComponent("logs"), clock = ManualClock()
        let file = try FileLogDestination(
            directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line,
            openingFilesWith: { POSIXFile.openRegularFile($0, flags: O_WRONLY | O_APPEND | O_CREAT) }, now: { clock.now })
        // Use up every inode left.
        var fillers: [String] = []
        while true {
            let path = mount.appendingPathComponent("filler-\(fillers.count)").path
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                try #require(errno == ENOSPC, "filling the tmpfs failed otherwise: \(errno)")
                break
            }
            close(descriptor)
            fillers.append(path)
        }
        let padding = String(repeating: "x", count: 100 - "F.swift (line 1): f(): 00 ".count - 1)
        for index in 0..<15 {
            file.write(
                LogEntry(level: .info, message: String(format: "%02d ", index) + padding, file: "F.swift", function: "f()", line: 1),
                revealingPrivateValues: false)
        }
        file.flush()
        #expect(file.lastFailure?.contains("No space left on device") == true)
        #expect(file.droppedEntries == 5)
        // Space is freed; after the back-off the next five entries reach the file.
        for path in fillers { unlink(path) }
        clock.advance(by: .seconds(1))
        for index in 0..<5 {
            file.write(LogEntry(level: .info, message: "after \(index)", file: "F.swift", function: "f()", line: 1), revealingPrivateValues: false)
        }
        file.flush()
        #expect(file.lastFailure == nil)
        let lines = try String(contentsOfFile: file.path(ofFile: 0), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines.last == "F.swift (line 1): f(): after 4")
    }
}
#endif

/// Faults: an `fsync` that fails.
extension FileLogDestinationFaultTests {
    @Test func aFailedSyncInAFlushIsReportedUntilAFlushSyncs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The disk reports an I/O error on every fsync while `failing` is set.
        let failing = Lock(false)
        let file = try FileLogDestination(
            directory: directory, format: .line,
            openingFilesWith: { POSIXFile.openRegularFile($0, flags: O_WRONLY | O_APPEND | O_CREAT) },
            seams: FileLogSeams(syncFile: { descriptor in
                guard failing.withLock({ $0 }) else { return fsync(descriptor) }
                errno = EIO
                return -1
            }))
        file.write(entry("one"), revealingPrivateValues: false)
        file.flush()
        #expect(file.lastFailure == nil)
        failing.withLock { $0 = true }
        file.write(entry("two"), revealingPrivateValues: false)
        file.flush()
        #expect(file.lastFailure == "cannot sync \(file.path(ofFile: 0)): \(String(cString: strerror(EIO)))")
        // A line reaching the file does not prove the earlier ones reached the disk: still reported.
        failing.withLock { $0 = false }
        file.write(entry("three"), revealingPrivateValues: false)
        file.write(entry("four"), revealingPrivateValues: false)
        #expect(file.lastFailure != nil)
        file.flush()
        #expect(file.lastFailure == nil)
    }
}

/// A file deleted or replaced while it is open.
extension FileLogDestinationTests {
    @Test func aLogFileDeletedWhileOpenIsCreatedAgainAndTheNextEntriesReachIt() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, format: .line)
        file.write(entry("before"), revealingPrivateValues: false)
        file.flush()
        // A user clears the logs.
        try FileManager.default.removeItem(atPath: file.path(ofFile: 0))
        for index in 0..<20 { file.write(entry("after \(index)"), revealingPrivateValues: false) }
        file.flush()
        #expect(try lines(at: file.path(ofFile: 0)) == (0..<20).map { "F.swift (line 1): f(): after \($0)" })
        #expect(file.droppedEntries == 0)
        #expect(file.lastFailure == nil)
    }

    @Test func aLogFileReplacedWhileOpenIsOpenedAgainAndTheMovedFileGetsNoMore() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, format: .line)
        file.write(entry("before"), revealingPrivateValues: false)
        file.flush()
        // logrotate moves the file away and puts another in its place.
        let moved = directory.appendingPathComponent("app.log.old").path
        try FileManager.default.moveItem(atPath: file.path(ofFile: 0), toPath: moved)
        let replacement = directory.appendingPathComponent("replacement").path
        try Data("fresh\n".utf8).write(to: URL(fileURLWithPath: replacement))
        try FileManager.default.moveItem(atPath: replacement, toPath: file.path(ofFile: 0))
        for index in 0..<20 { file.write(entry("after \(index)"), revealingPrivateValues: false) }
        file.flush()
        #expect(try lines(at: file.path(ofFile: 0)) == ["fresh"] + (0..<20).map { "F.swift (line 1): f(): after \($0)" })
        #expect(try lines(at: moved) == ["F.swift (line 1): f(): before"])
        #expect(file.droppedEntries == 0)
        #expect(file.lastFailure == nil)
    }
}

/// Rotation meets what it did not write.
extension FileLogDestinationTests {
    @Test func rotationLeavesADirectoryNamedLikeARotatedFileInPlaceAndSaysSo() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        let foreign = URL(fileURLWithPath: file.path(ofFile: 2))
        try FileManager.default.createDirectory(at: foreign.appendingPathComponent("keep"), withIntermediateDirectories: true)
        let important = foreign.appendingPathComponent("keep/important.txt")
        try Data("important\n".utf8).write(to: important)
        // Each line is 100 bytes: ten fill a file, so 25 lines rotate twice.
        let padding = String(repeating: "x", count: 100 - "F.swift (line 1): f(): 00 ".count - 1)
        for index in 0..<25 { file.write(entry(String(format: "%02d ", index) + padding), revealingPrivateValues: false) }
        file.flush()
        #expect(try Data(contentsOf: important) == Data("important\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["app.1.log", "app.2.log", "app.log"])
        // The files below it shift up to it: two are kept, and each new file starts with the notice.
        let current = try lines(at: file.path(ofFile: 0)), previous = try lines(at: file.path(ofFile: 1))
        let notice = "rotation left \(foreign.path) in place: it is a directory, not a regular file; 2 files are kept until it is removed"
        #expect(current.first?.hasSuffix(notice) == true)
        #expect(previous.first?.hasSuffix(notice) == true)
        // Lines 10 to 24 follow the notices, in order; 0 to 9 were in the file removed to make room.
        let kept = (previous.dropFirst() + current.dropFirst()).map { $0.dropFirst("F.swift (line 1): f(): ".count).prefix(2) }
        #expect(kept == (10..<25).map { Substring(String($0)) })
        #expect(file.lastFailure == nil)
    }
}

/// The directory swapped for a symbolic link after the destination started.
extension FileLogDestinationTests {
    @Test func aLogDirectorySwappedForALinkIsNotFollowedAndTheLinksTargetIsUntouched() throws {
        let directory = temporaryDirectory(), other = temporaryDirectory()
        let moved = directory.appendingPathExtension("moved")
        defer {
            for url in [directory, other, moved] { try? FileManager.default.removeItem(at: url) }
        }
        let file = try FileLogDestination(directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        file.write(entry("before"), revealingPrivateValues: false)
        file.flush()
        // Another program's directory, with a file named like a rotated log; the log directory is swapped for a link to it.
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let theirs = other.appendingPathComponent("app.2.log")
        try Data("another program's\n".utf8).write(to: theirs)
        try FileManager.default.moveItem(at: directory, to: moved)
        try FileManager.default.createSymbolicLink(at: directory, withDestinationURL: other)
        // 35 lines of 100 bytes: three rotations, each by way of the directory's path were it followed.
        let padding = String(repeating: "x", count: 100 - "F.swift (line 1): f(): 00 ".count - 1)
        for index in 0..<35 { file.write(entry(String(format: "%02d ", index) + padding), revealingPrivateValues: false) }
        file.flush()
        #expect(try Data(contentsOf: theirs) == Data("another program's\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path) == ["app.2.log"])
        // Everything went on in the directory the destination opened.
        #expect(try FileManager.default.contentsOfDirectory(atPath: moved.path).sorted() == ["app.1.log", "app.2.log", "app.log"])
        let current = try lines(at: moved.appendingPathComponent("app.log").path)
        #expect(current.last?.contains(": 34 x") == true)
        #expect(file.droppedEntries == 0 && file.lastFailure == nil)
    }
}

/// Order: an entry waiting for room is not overtaken.
extension FileLogDestinationTests {
    @Test func entriesLoggedWhileAWarningWaitsForRoomDoNotOvertakeIt() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The writer holds its first write until the test opens the gate; the test hears when the warning waits.
        let gate = DispatchSemaphore(value: 0), firstWrite = Lock(true), waiting = DispatchSemaphore(value: 0)
        let file = try FileLogDestination(
            directory: directory, format: .line, maximumQueuedBytes: 4096,
            openingFilesWith: { POSIXFile.openRegularFile($0, flags: O_WRONLY | O_APPEND | O_CREAT) },
            writingWith: { bytes, descriptor in
                if firstWrite.withLock({ first in
                    defer { first = false }; return first
                }) {
                    gate.wait()
                }
                return POSIXFile.write(bytes, to: descriptor)
            },
            seams: FileLogSeams(waitingForRoom: { waiting.signal() }))
        let opened = Lock(false)
        let openGate: @Sendable () -> Void = {
            if opened.withLock({ opened in
                defer { opened = true }; return !opened
            }) {
                gate.signal()
            }
        }
        defer { openGate() }
        // Three infos of about 700 bytes each are queued; a warning of about 2,500 does not fit beside them.
        let held = String(repeating: "h", count: 500), large = String(repeating: "W", count: 2300)
        for index in 0..<3 { file.write(entry("held-\(index) \(held)"), revealingPrivateValues: false) }
        let warned = DispatchGroup()
        DispatchQueue.global().async(group: warned) {
            file.write(
                LogEntry(level: .warning, message: "warning \(large)", file: "F.swift", function: "f()", line: 1),
                revealingPrivateValues: false)
        }
        try #require(waiting.wait(timeout: .now() + 60) == .success, "the warning never waited for room")
        // Logged after the warning began waiting: small enough to fit in the queue, yet they must not overtake it.
        for index in 0..<5 { file.write(entry("after-\(index)"), revealingPrivateValues: false) }
        openGate()
        try #require(warned.wait(timeout: .now() + 60) == .success, "the warning never got room")
        // Written out before the next entry, so that it finds room whatever the writer has done by now.
        file.flush()
        file.write(entry("later"), revealingPrivateValues: false)
        file.flush()
        let written = try lines(at: file.path(ofFile: 0)).map { line in
            line.contains(" dropped: ") ? "notice" : String(line.dropFirst("F.swift (line 1): f(): ".count).prefix { $0 != " " })
        }
        // The five were dropped (the queue was full for the warning), and the notice follows the warning.
        #expect(written == ["held-0", "held-1", "held-2", "warning", "notice", "later"])
        #expect(file.droppedEntries == 5)
    }
}

/// Two processes rotating one file.
extension FileLogDestinationTests {
    /// DataCrashWriter is built into the same folder as the test bundle.
    static func helperURL() -> URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            for name in ["DataCrashWriter", "DataCrashWriter.exe"] {
                let candidate = folder.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// A process that closed its standard input (a daemon may) is given descriptor 0 for the file
    /// the destination opens after its file was removed: that is a file like any other, and every
    /// entry reaches it.
    @Test func aFileOpenedAsDescriptorZeroIsWrittenLikeAnyOther() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let helper = try #require(Self.helperURL(), "DataCrashWriter was not built beside the tests")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = helper
        process.arguments = ["--log", directory.path, "Z", "100", "1048576", "2"]
        process.environment = ["DATACRASHWRITER_CLOSE_STANDARD_INPUT": "1"]
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        let heard = (process.standardError as? Pipe).map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        #expect(process.terminationStatus == 0, "\(heard ?? "")")
        let found = try lines(at: directory.appendingPathComponent("app.log").path)
        #expect(Set(found.map { String($0.dropFirst("W.swift (line 1): w(): ".count)) }) == Set((0..<100).map { "Z-\($0)" }))
    }

    /// Two processes log 2,000 numbered entries each into one file that rotates every 1 KiB or so
    /// (about 120 rotations), while a busy loop per core keeps the cores busy: every entry of both
    /// is found exactly once across the files. Enough files are kept that none is rotated away.
    @Test func twoProcessesRotatingOneFileLoseNoEntry() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let helper = try #require(Self.helperURL(), "DataCrashWriter was not built beside the tests")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let count = 2000, keptFiles = 1000
        // The cores are kept busy while the two log: a race that an idle machine hides shows under load.
        let stop = Lock(false)
        let hogsDone = DispatchGroup()
        for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
            DispatchQueue.global().async(group: hogsDone) {
                while !stop.withLock({ $0 }) {}
            }
        }
        defer {
            stop.withLock { $0 = true }
            hogsDone.wait()
        }
        let writers = try ["A", "B"].map { prefix in
            let process = Process()
            process.executableURL = helper
            process.arguments = ["--log", directory.path, prefix, "\(count)", "1024", "\(keptFiles)"]
            process.standardError = Pipe()
            try process.run()
            return process
        }
        for process in writers { process.waitUntilExit() }
        stop.withLock { $0 = true }
        for process in writers {
            let heard = (process.standardError as? Pipe).map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
            #expect(process.terminationStatus == 0, "\(heard ?? "")")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count > 50, "too few rotations to race: \(names.count) files")
        #expect(names.count < keptFiles, "files were rotated away: the count cannot be checked")
        var seen: [String: Int] = [:], empty: [String] = []
        for name in names {
            let found = try lines(at: directory.appendingPathComponent(name).path)
            // A process that rotated again what another had just rotated would leave an empty file.
            if found.isEmpty, name != "app.log" { empty.append(name) }
            for line in found {
                seen[String(line.dropFirst("W.swift (line 1): w(): ".count)), default: 0] += 1
            }
        }
        let expected = Set(["A", "B"].flatMap { prefix in (0..<count).map { "\(prefix)-\($0)" } })
        let missing = expected.subtracting(seen.keys), repeated = seen.filter { $0.value != 1 }.keys
        #expect(missing.isEmpty, "\(missing.count) entries missing, such as \(missing.sorted().prefix(5))")
        #expect(repeated.isEmpty, "\(repeated.count) entries found more than once")
        #expect(empty.isEmpty, "rotated twice: \(empty.sorted())")
        #expect(seen.count == expected.count, "\(seen.count - expected.count) lines are no entry of either")
    }
}

extension FileLogDestinationTests {
    /// Two writers of one file decide to rotate at once: the second, held until the first has
    /// rotated, finds the file rotated and opens the new one instead of rotating it again.
    @Test func aWriterThatFindsTheFileRotatedByAnotherOpensTheNewFileInsteadOfRotatingAgain() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reached = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let first = try FileLogDestination(directory: directory, maximumFileBytes: 1024, format: .line)
        // Nine lines of 100 bytes; a line of 200 more takes either writer past the size.
        let padding = String(repeating: "x", count: 100 - "F.swift (line 1): f(): 00 ".count - 1)
        for index in 0..<9 { first.write(entry(String(format: "%02d ", index) + padding), revealingPrivateValues: false) }
        first.flush()
        let second = try FileLogDestination(
            directory: directory, maximumFileBytes: 1024, format: .line, openingFilesWith: nil,
            seams: FileLogSeams(rotating: {
                reached.signal()
                release.wait()
            }))
        defer { release.signal() }
        let long = String(repeating: "y", count: 200)
        second.write(entry("second \(long)"), revealingPrivateValues: false)
        try #require(reached.wait(timeout: .now() + 60) == .success, "the second writer never rotated")
        first.write(entry("first \(long)"), revealingPrivateValues: false)
        first.flush()
        release.signal()
        second.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["app.1.log", "app.log"])
        #expect(try lines(at: first.path(ofFile: 1)).count == 9)
        #expect(try lines(at: first.path(ofFile: 0)).map { $0.prefix(29) } == ["F.swift (line 1): f(): first ", "F.swift (line 1): f(): second"])
    }
}

/// The file's size: the limit's exact boundary, a truncation in place, another writer's lines.
extension FileLogDestinationTests {
    /// A line of `count` bytes (its line feed included), numbered `index`, in the `line` format.
    private func line(_ index: Int, bytes count: Int) -> LogEntry {
        let number = String(format: "%02d ", index)
        return entry(number + String(repeating: "x", count: count - "F.swift (line 1): f(): ".count - number.count - 1))
    }

    /// Seven lines of 128 bytes and one of `lastLine`: the file holds 1,024 bytes exactly, or one more.
    @Test(arguments: [128, 129])
    func aLineThatFillsTheFileExactlyIsNotRotatedOneByteMoreIs(lastLine: Int) throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        for index in 0..<7 { file.write(line(index, bytes: 128), revealingPrivateValues: false) }
        file.write(line(7, bytes: lastLine), revealingPrivateValues: false)
        file.flush()
        if lastLine == 128 {
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["app.log"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: file.path(ofFile: 0))).count == 1024)
        } else {
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["app.1.log", "app.log"])
            #expect(try lines(at: file.path(ofFile: 1)).count == 7)
            #expect(try lines(at: file.path(ofFile: 0)).map { $0.utf8.count } == [128])
        }
    }

    @Test func anEmptyFileTakesALineLargerThanTheLimitWholeWithoutRotating() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        file.write(line(0, bytes: 3000), revealingPrivateValues: false)
        file.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["app.log"])
        #expect(try lines(at: file.path(ofFile: 0)).map { $0.utf8.count } == [2999])
        // The next line rotates it: the large line is kept whole in the previous file.
        file.write(line(1, bytes: 100), revealingPrivateValues: false)
        file.flush()
        #expect(try lines(at: file.path(ofFile: 1)).map { $0.utf8.count } == [2999])
        #expect(try lines(at: file.path(ofFile: 0)).map { $0.utf8.count } == [99])
    }

    @Test func aFileTruncatedInPlaceIsCountedFromItsNewSizeSoNoKeptFileIsPushedOut() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        // 25 lines of 100 bytes: app.2.log holds 0 to 9, app.1.log 10 to 19, app.log 20 to 24.
        for index in 0..<25 { file.write(line(index, bytes: 100), revealingPrivateValues: false) }
        file.flush()
        let kept = try [1, 2].map { try Data(contentsOf: URL(fileURLWithPath: file.path(ofFile: $0))) }
        // A "clear logs" button, or logrotate's copytruncate: `: > app.log`.
        try #require(truncate(file.path(ofFile: 0), 0) == 0)
        // Nine lines, 900 bytes: they fit in the emptied file.
        for index in 25..<34 { file.write(line(index, bytes: 100), revealingPrivateValues: false) }
        file.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["app.1.log", "app.2.log", "app.log"])
        #expect(try [1, 2].map { try Data(contentsOf: URL(fileURLWithPath: file.path(ofFile: $0))) } == kept)
        #expect(try lines(at: file.path(ofFile: 0)).map { $0.prefix(25) } == (25..<34).map { "F.swift (line 1): f(): \($0)" })
    }

    @Test func linesAnotherWriterAppendedCountTowardTheSizeBeforeTheNextLine() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try FileLogDestination(directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        let second = try FileLogDestination(directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        for index in 0..<5 { first.write(line(index, bytes: 100), revealingPrivateValues: false) }
        first.flush()
        for index in 5..<10 { second.write(line(index, bytes: 100), revealingPrivateValues: false) }
        second.flush()
        // The file holds 1,000 bytes, half of them the second's: one more line of 100 passes the limit.
        first.write(line(10, bytes: 100), revealingPrivateValues: false)
        first.flush()
        #expect(try lines(at: first.path(ofFile: 1)).count == 10)
        #expect(try lines(at: first.path(ofFile: 0)).map { $0.prefix(25) } == ["F.swift (line 1): f(): 10"])
    }
}

/// The current file's name meets a hard link, a deletion in the middle of a backlog, a failing `fsync`.
extension FileLogDestinationTests {
    @Test func anAppLogThatIsAHardLinkToAnotherFileIsRefusedAndThatFileGetsNothing() throws {
        let directory = temporaryDirectory(), outside = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: outside)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: outside)
        let path = directory.appendingPathComponent("app.log").path
        try #require(link(outside.path, path) == 0, "cannot make a hard link here")
        var file: FileLogDestination?
        #expect {
            file = try FileLogDestination(directory: directory)
        } throws: { error in
            (error as? LogSetupError)
                == LogSetupError(
                    action: "open the log file", path: path,
                    reason: "it has 2 hard links (another name shares the file), so nothing is written to it; remove it and a file of its own is made")
        }
        file?.write(entry("leaked"), revealingPrivateValues: false)
        file?.flush()
        #expect(try Data(contentsOf: outside) == Data("mine\n".utf8))
    }

    @Test func aHardLinkPlantedInPlaceOfTheOpenFileGetsNothingAndTheEntriesAreCountedUntilItGoes() throws {
        let directory = temporaryDirectory(), outside = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: outside)
        }
        let clock = FileLogDestinationFaultTests.ManualClock()
        let file = try FileLogDestination(directory: directory, format: .line, openingFilesWith: nil, now: { clock.now })
        file.write(entry("before"), revealingPrivateValues: false)
        file.flush()
        // Another of the user's files gets a second name: the log's.
        try Data("mine\n".utf8).write(to: outside)
        let path = file.path(ofFile: 0)
        try FileManager.default.removeItem(atPath: path)
        try #require(link(outside.path, path) == 0, "cannot make a hard link here")
        file.write(entry("lost 1"), revealingPrivateValues: false)
        file.write(entry("lost 2"), revealingPrivateValues: false)
        file.flush()
        let refusal = "it has 2 hard links (another name shares the file), so nothing is written to it; remove it and a file of its own is made"
        #expect(try Data(contentsOf: outside) == Data("mine\n".utf8))
        #expect(file.lastFailure == "cannot open \(path): \(refusal)")
        #expect(file.droppedEntries == 2)
        // The link is removed; after the back-off the log makes its own file and says what it missed.
        try FileManager.default.removeItem(atPath: path)
        clock.advance(by: .seconds(1))
        file.write(entry("back"), revealingPrivateValues: false)
        file.flush()
        let written = try lines(at: path)
        try #require(written.count == 2, "\(written)")
        #expect(written[0].hasSuffix(": 2 entries not written: cannot open \(path): \(refusal)"))
        #expect(written[1] == "F.swift (line 1): f(): back")
        #expect(file.lastFailure == nil)
        #expect(try Data(contentsOf: outside) == Data("mine\n".utf8))
    }

    /// The writer is held in its first write, so that the next 99 entries make one batch; the file is
    /// deleted right after the sixth write of the whole run, in the middle of that batch.
    @Test func aFileDeletedInTheMiddleOfABacklogGetsTheRestOfItInTheNewFile() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.log").path
        let writes = Lock(0), inFirstWrite = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let file = try FileLogDestination(
            directory: directory, format: .line, openingFilesWith: nil,
            writingWith: { bytes, descriptor in
                let number = writes.withLock { writes in
                    defer { writes += 1 }
                    return writes
                }
                if number == 0 {
                    inFirstWrite.signal()
                    gate.wait()
                }
                let result = POSIXFile.write(bytes, to: descriptor)
                if number == 5 { unlink(path) }   // a user clears the logs
                return result
            })
        defer { gate.signal() }
        file.write(entry("0"), revealingPrivateValues: false)
        try #require(inFirstWrite.wait(timeout: .now() + 60) == .success, "the writer never wrote")
        for index in 1..<100 { file.write(entry("\(index)"), revealingPrivateValues: false) }
        gate.signal()
        file.flush()
        // Entries 0 to 5 went with the deleted file; every later one is in the new one.
        #expect(try lines(at: path) == (6..<100).map { "F.swift (line 1): f(): \($0)" })
        #expect(file.droppedEntries == 0)
        #expect(file.lastFailure == nil)
    }
}

extension FileLogDestinationFaultTests {
    /// A destination whose `fsync` fails with `EIO` while `failing` is set, and which signals `written`
    /// after each line it writes while `watching` is set.
    private final class FailingSync: Sendable {
        let failing = Lock(false), watching = Lock(false)
        let written = DispatchSemaphore(value: 0)

        func destination(in directory: URL) throws -> FileLogDestination {
            try FileLogDestination(
                directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line, openingFilesWith: nil,
                writingWith: { [self] bytes, descriptor in
                    let result = POSIXFile.write(bytes, to: descriptor)
                    if watching.withLock({ $0 }) { written.signal() }
                    return result
                },
                seams: FileLogSeams(syncFile: { [self] descriptor in
                    guard failing.withLock({ $0 }) else { return fsync(descriptor) }
                    errno = EIO
                    return -1
                }))
        }
    }

    /// A file moved away (logrotate) is synced and closed before the next line; the sync fails.
    @Test func aFailedSyncOfAFileMovedAwayIsReported() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("letgo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = FailingSync()
        let file = try disk.destination(in: directory)
        file.write(entry("before"), revealingPrivateValues: false)
        file.flush()
        let moved = directory.appendingPathComponent("app.log.1").path
        try FileManager.default.moveItem(atPath: file.path(ofFile: 0), toPath: moved)
        disk.failing.withLock { $0 = true }
        disk.watching.withLock { $0 = true }
        file.write(entry("after"), revealingPrivateValues: false)
        // Read before any flush, which would sync the new file and clear it.
        try #require(disk.written.wait(timeout: .now() + 60) == .success, "the line was never written")
        #expect(file.lastFailure == "cannot sync \(file.path(ofFile: 0)): \(String(cString: strerror(EIO)))")
        disk.failing.withLock { $0 = false }
        file.flush()
        #expect(file.lastFailure == nil)
        #expect(try String(contentsOfFile: moved, encoding: .utf8) == "F.swift (line 1): f(): before\n")
        #expect(try String(contentsOfFile: file.path(ofFile: 0), encoding: .utf8) == "F.swift (line 1): f(): after\n")
    }

    @Test func aFailedSyncAtRotationIsReported() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rotsync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = FailingSync()
        let file = try disk.destination(in: directory)
        let padding = String(repeating: "x", count: 100 - "F.swift (line 1): f(): 00 ".count - 1)
        for index in 0..<10 { file.write(entry(String(format: "%02d ", index) + padding), revealingPrivateValues: false) }
        file.flush()
        disk.failing.withLock { $0 = true }
        disk.watching.withLock { $0 = true }
        file.write(entry("10 " + padding), revealingPrivateValues: false)
        try #require(disk.written.wait(timeout: .now() + 60) == .success, "the line was never written")
        #expect(file.lastFailure == "cannot sync \(file.path(ofFile: 0)): \(String(cString: strerror(EIO)))")
        #expect(try String(contentsOfFile: file.path(ofFile: 1), encoding: .utf8).split(separator: "\n").count == 10)
    }
}

extension FileLogDestinationTests {
    /// The writer is held in a rotation, before it looks at the file; the test deletes `app.log` then.
    @Test func aFileMissingAtRotationIsNotRotatedAndTheKeptFilesStay() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let holding = Lock(false), reached = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let file = try FileLogDestination(
            directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line, openingFilesWith: nil,
            seams: FileLogSeams(rotating: {
                guard holding.withLock({ $0 }) else { return }
                reached.signal()
                release.wait()
            }))
        defer { release.signal() }
        // 15 lines of 100 bytes: app.1.log holds 0 to 9, app.log 10 to 14.
        for index in 0..<15 { file.write(line(index, bytes: 100), revealingPrivateValues: false) }
        file.flush()
        let kept = try Data(contentsOf: URL(fileURLWithPath: file.path(ofFile: 1)))
        holding.withLock { $0 = true }
        file.write(line(15, bytes: 600), revealingPrivateValues: false)
        try #require(reached.wait(timeout: .now() + 60) == .success, "the writer never rotated")
        try FileManager.default.removeItem(atPath: file.path(ofFile: 0))
        release.signal()
        file.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["app.1.log", "app.log"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path(ofFile: 1))) == kept)
        #expect(try lines(at: file.path(ofFile: 0)).map { $0.prefix(25) } == ["F.swift (line 1): f(): 15"])
        #expect(file.droppedEntries == 0 && file.lastFailure == nil)
    }
}

/// A shared directory (sticky, writable by everyone) given as the log directory.
extension FileLogDestinationTests {
    @Test func aSharedStickyDirectoryIsRefusedAndLeftAsItIs() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makeLooseDirectory(directory, mode: 0o1777)
        #expect(
            throws: LogSetupError(
                action: "use the log directory", path: directory.path,
                reason: "it is a shared directory (mode 01777: sticky, and other users may write in it), which is not made private; "
                    + "use a directory of its own inside it")
        ) {
            try FileLogDestination(directory: directory)
        }
        #expect(try mode(of: directory) == 0o1777)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}

/// What an entry counts for in the queue: 200, its message's, file's and function's UTF-8 bytes,
/// each metadata pair's key and value plus 32, and, when private values are revealed, the revealed text too.
extension FileLogDestinationTests {
    /// With the writer held, two entries that fill four fifths of the bound exactly are kept; one
    /// byte more and the second is dropped.
    @Test(arguments: [0, 1])
    func anEntryCountsItsTextMetadataAndRevealedTextAgainstTheBound(extraByte: Int) throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gate = DispatchSemaphore(value: 0), firstWrite = Lock(true)
        let file = try FileLogDestination(
            directory: directory, format: .line, maximumQueuedBytes: 1024,
            openingFilesWith: nil,
            writingWith: { bytes, descriptor in
                if firstWrite.withLock({ first in
                    defer { first = false }; return first
                }) {
                    gate.wait()
                }
                return POSIXFile.write(bytes, to: descriptor)
            })
        defer { gate.signal() }
        // Four fifths of 1,024 is 816: two entries of 408.
        // 200 + 7 ("F.swift") + 3 ("f()") + 164 (message) + 1 + 1 + 32 (the pair k=v): 408.
        file.write(
            LogEntry(level: .info, message: String(repeating: "m", count: 164), file: "F.swift", function: "f()", line: 1, metadata: ["k": "v"]),
            revealingPrivateValues: false)
        // 200 + 7 + 3 + 9 ("<private>") + 189 revealed: 408, and one more byte when asked.
        let secret = String(repeating: "s", count: 189 + extraByte)
        file.write(
            LogEntry(level: .info, message: "\(secret, privacy: .private)" as LogMessage, file: "F.swift", function: "f()", line: 1),
            revealingPrivateValues: true)
        #if DEBUG
        #expect(file.droppedEntries == extraByte)
        #else
        #expect(file.droppedEntries == 0)   // a release build keeps no revealed text to count
        #endif
        gate.signal()
        file.flush()
        #expect(try lines(at: file.path(ofFile: 0)).count == 2)
    }
}
