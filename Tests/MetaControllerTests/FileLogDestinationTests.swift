import Foundation
@testable import MetaController
import Testing

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
