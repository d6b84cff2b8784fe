import Foundation
import MetaController
import MetaControllerTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

func entry(_ level: LogLevel, _ message: String, metadata: LogMetadata = [:]) -> LogEntry {
    LogEntry(level: level, message: message, file: "Acceptance/Logs.swift", function: "test()", line: 7, metadata: metadata)
}

/// A controller that logs everything into `destinations`.
func controller(_ destinations: [any LogDestination]) -> StandardLogController {
    StandardLogController(minimumLevel: .trace, destinations: destinations)
}

/// Every line of every file of a destination, oldest file first.
func allLines(_ destination: FileLogDestination, files: Int) -> [String] {
    (0..<files).reversed().flatMap { lines(destination.path(ofFile: $0)) }
}

/// The numbers of lines that end in "n<number>", in order.
func numbers(_ lines: [String], prefix: String = "n") -> [Int] {
    lines.compactMap { line -> Int? in
        guard let range = line.range(of: ": \(prefix)", options: .backwards) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}

/// Sums the counts of the destination's notices: "N entries dropped" / "N entries not written".
func noticeSum(_ lines: [String]) -> Int {
    let regex = try! NSRegularExpression(pattern: "([0-9]+) entr(?:y|ies) (?:dropped|not written)")
    return lines.reduce(0) { sum, line in
        guard let match = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
            let range = Range(match.range(at: 1), in: line)
        else { return sum }
        return sum + (Int(line[range]) ?? 0)
    }
}

/// Mounts a small tmpfs for the test (root only), and unmounts it.
struct SmallFileSystem {
    let dir: TempDir
    let mounted: Bool
    init(options: String) {
        dir = TempDir("tmpfs")
        let result = try? runSync(Tools.mount!, ["-t", "tmpfs", "-o", options, "tmpfs", dir.path])
        mounted = result?.status == 0
    }
    func unmount() {
        _ = try? runSync(Tools.umount!, [dir.path])
        dir.remove()
    }
}

@Suite("FileLogDestination: setting up")
struct FileLogDestinationSetupTests {
    @Test func itCreatesItsDirectoryForItsOwnerOnlyAndFilesForTheOwnerOnly() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let directory = tmp.sub("nested/logs")
        let file = try FileLogDestination(directory: directory)
        #expect(fileMode(directory.path) == 0o700)
        controller([file]).log(entry(.info, "hello"))
        file.flush()
        #expect(fileMode(file.path(ofFile: 0)) == 0o600)
    }

    @Test func itRestrictsAnExistingDirectoryOpenToOthersToItsOwner() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        chmod(tmp.path, 0o777)
        _ = try FileLogDestination(directory: tmp.url)
        #expect(fileMode(tmp.path) == 0o700)
    }

    /// Logging.md: a shared directory (sticky, writable by others, as `/tmp`) is refused with an
    /// error that names it, its mode left as it is and nothing created in it; a directory of its
    /// own inside it, the fix the error gives, is used.
    @Test func itRefusesAStickyWorldWritableDirectoryNamingItAndLeavesItsMode() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        chmod(tmp.path, 0o1777)
        do {
            _ = try FileLogDestination(directory: tmp.url)
            Issue.record("a shared directory was used")
        } catch {
            #expect(error.path == tmp.path)
            #expect(
                error.description == "cannot use the log directory \(tmp.path): it is a shared directory (mode 01777: sticky, and other users "
                    + "may write in it), which is not made private; use a directory of its own inside it")
        }
        #expect(fileMode(tmp.path) == 0o1777, "mode \(String(fileMode(tmp.path) ?? 0, radix: 8))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
        let own = try FileLogDestination(directory: tmp.sub("app"))
        #expect(fileMode(tmp.sub("app").path) == 0o700)
        #expect(own.path(ofFile: 0) == tmp.sub("app/app.log").path)
    }

    @Test(.enabled(if: Tools.canGiveFilesAway, "needs root to give a directory to another user"))
    func itRefusesADirectoryOpenToOthersThatBelongsToAnotherUser() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let directory = tmp.sub("theirs")
        mkdir(directory.path, 0o777)
        chmod(directory.path, 0o777)
        try #require(chown(directory.path, 65534, 65534) == 0)
        #expect {
            _ = try FileLogDestination(directory: directory)
        } throws: { error in
            "\(error)".contains("it is open to other users (mode 0777) and belongs to another user")
        }
        #expect(fileMode(directory.path) == 0o777)
    }

    @Test func itRefusesASymbolicLinkAtTheLogFileAndWritesNothingThrough() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let directory = tmp.sub("logs")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = tmp.sub("victim.txt")
        try "secret\n".write(to: target, atomically: true, encoding: .utf8)
        symlink(target.path, directory.appendingPathComponent("app.log").path)
        #expect {
            _ = try FileLogDestination(directory: directory)
        } throws: { error in
            "\(error)".contains("it is a symbolic link, not a regular file")
        }
        #expect(readText(target.path) == "secret\n")
    }

    @Test func itRefusesAFIFOAtTheLogFileWithoutWaitingOnIt() async throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let (result, answer) = try await runProbe(["file-fifo", tmp.sub("logs").path], timeout: 30)
        #expect(!result.timedOut, "opening a FIFO named app.log hung")
        #expect(answer["threw"] as? Bool == true, "\(answer)")
        #expect((answer["error"] as? String ?? "").contains("not a regular file"), "\(answer)")
    }

    @Test(.enabled(if: Tools.canMakeDevices, "needs root (or the right) to make a device node"))
    func itRefusesADeviceAtTheLogFile() async throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let directory = tmp.sub("logs")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(mknod(directory.appendingPathComponent("app.log").path, S_IFCHR | 0o600, dev_t((1 << 8) | 3)) == 0)
        #expect {
            _ = try FileLogDestination(directory: directory)
        } throws: { error in
            "\(error)".contains("not a regular file")
        }
    }

    @Test func aSymbolicLinkAtTheDirectoryIsFollowedOnceWhenItIsMade() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let real = tmp.sub("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        symlink(real.path, tmp.sub("link").path)
        let file = try FileLogDestination(directory: tmp.sub("link"), format: .line)
        controller([file]).log(entry(.info, "n1"))
        file.flush()
        #expect(numbers(lines(real.appendingPathComponent("app.log").path)) == [1])
    }

    @Test func itThrowsALogSetupErrorNamingTheDirectoryItCannotCreate() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        try "a file".write(to: tmp.sub("blocker"), atomically: true, encoding: .utf8)
        let directory = tmp.sub("blocker/logs")
        do {
            _ = try FileLogDestination(directory: directory)
            Issue.record("no error")
        } catch {
            #expect(error.action == "create the log directory")
            #expect(error.path == directory.path)
            #expect(error.description.hasPrefix("cannot create the log directory \(directory.path): "))
        }
    }

    @Test func itsSizesHaveTheirDocumentedFloors() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 10, keptFiles: 0, maximumQueuedBytes: 10)
        #expect(file.maximumFileBytes >= 1024)
        #expect(file.keptFiles >= 1)
        #expect(file.maximumQueuedBytes >= 1024)
    }

    @Test func itsDefaultsAreTheDocumentedOnes() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url)
        #expect(file.fileName == "app.log")
        #expect(file.maximumFileBytes == 1024 * 1024)
        #expect(file.keptFiles == 5)
        #expect(file.maximumQueuedBytes == 8 * 1024 * 1024)
        #expect(file.format.description == "jsonLines")
        #expect(file.minimumLevel == .trace)
    }

    @Test func pathOfFileAnswersWithPathsUnderTheDirectory() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url)
        #expect(file.path(ofFile: 0) == tmp.sub("app.log").path)
        #expect(file.path(ofFile: 1) == tmp.sub("app.1.log").path)
        #expect(file.path(ofFile: 2) == tmp.sub("app.2.log").path)
    }

    @Test func settingUpReplacesADestinationThatThrowsByStandardErrorAndKeepsItsError() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        try "a file".write(to: tmp.sub("blocker"), atomically: true, encoding: .utf8)
        let memory = MemoryLogDestination()
        let log = StandardLogController(
            minimumLevel: .debug,
            settingUp: [
                { memory },
                { try FileLogDestination(directory: tmp.sub("blocker/logs")) },
            ])
        #expect(log.destinations.count == 2)
        #expect((log.destinations.last as? StreamLogDestination)?.stream == .standardError)
        #expect(log.setupErrors.count == 1)
        #expect(log.setupErrors.first?.description.hasPrefix("cannot create the log directory") == true)
    }

    @Test func settingUpKeepsAnotherErrorAsALogSetupErrorWithItsDescriptionAndNoPath() {
        let log = StandardLogController(settingUp: [{ throw SomeError() }])
        #expect(log.setupErrors.first?.reason == "it broke")
        #expect(log.setupErrors.first?.path == "")
        #expect(log.setupErrors.first?.description == "cannot \(log.setupErrors.first?.action ?? ""): it broke")
    }
}

@Suite("FileLogDestination: writing, flushing, formats")
struct FileLogDestinationWritingTests {
    @Test func flushReturnsWhenEverythingLoggedBeforeItIsInTheFile() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 64 << 20, format: .line)
        let log = controller([file])
        for index in 0..<1_000 { log.log(entry(.warning, "n\(index)")) }
        log.flush()
        #expect(numbers(lines(file.path(ofFile: 0))) == Array(0..<1_000))
    }

    @Test func entriesAreJSONLinesByDefaultWithTheDocumentedFields() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url)
        let log = controller([file])
        log.log(entry(.info, "hello", metadata: ["user": "ada", "level": "spoof"]))
        log.flush()
        let line = try #require(lines(file.path(ofFile: 0)).first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "info")
        #expect(object["message"] as? String == "hello")
        #expect(object["file"] as? String == "Logs.swift")
        #expect(object["function"] as? String == "test()")
        #expect(object["line"] as? Int == 7)
        #expect(object["time"] is String)
        #expect(object["user"] as? String == "ada")
        #expect(object["metadata.level"] as? String == "spoof")
    }

    @Test func aMessageWithControlCharactersStaysOneLineInEveryFormat() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let formats: [LogFormat] = [.line, .detailedLine, .jsonLines]
        for (index, format) in formats.enumerated() {
            let file = try FileLogDestination(directory: tmp.sub("f\(index)"), format: format)
            let log = controller([file])
            log.log(entry(.info, "mallory\n2026-11-22T10:15:03.120Z [critical] Auth.swift (line 1): login(): FORGED\r\u{1B}[2K\u{2028}x\u{2029}\u{0}\u{85}"))
            log.log(entry(.info, "next"))
            log.flush()
            let fileLines = lines(file.path(ofFile: 0))
            #expect(fileLines.count == 2, "\(format): \(fileLines)")
            #expect(rawControls(in: fileLines.first ?? "", allowingLineFeed: false).isEmpty, "\(format)")
        }
    }

    @Test func aTenMegabyteMessageOfCharactersToEscapeIsWrittenWholeOnOneLine() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 256 << 20, format: .line)
        let log = controller([file])
        let unit = "\n\\x\u{85}\u{1B}"
        let message = String(repeating: unit, count: 10_000_000 / unit.utf8.count)
        log.log(entry(.warning, message))
        log.log(entry(.warning, "after"))
        log.flush()
        let fileLines = lines(file.path(ofFile: 0))
        #expect(fileLines.count == 2)
        #expect(fileLines.first?.utf8.count ?? 0 > message.utf8.count)
        #expect(fileLines.first?.contains("\\x0A") == true && fileLines.first?.contains("\\x5Cx") == true)
    }

    @Test func aTenMegabyteEntryLargerThanTheBoundIsTakenWhenTheQueueIsEmpty() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 256 << 20, maximumQueuedBytes: 1024)
        let log = controller([file])
        log.flush()
        let message = String(repeating: "m", count: 10 << 20)
        log.log(entry(.info, message))
        log.flush()
        let line = try #require(lines(file.path(ofFile: 0)).first)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect((object?["message"] as? String)?.count == message.count)
        #expect(file.droppedEntries == 0)
    }

    @Test func aHundredThousandWarningsAllReachTheFileInOrder() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 512 << 20, format: .line)
        let log = controller([file])
        for index in 0..<100_000 { log.log(entry(.warning, "n\(index)")) }
        log.flush()
        #expect(numbers(lines(file.path(ofFile: 0))) == Array(0..<100_000))
        #expect(file.droppedEntries == 0)
    }

    @Test func nothingLoggedFromManyThreadsIsLostAcrossAFlushWhileRotating() async throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 64 * 1024, keptFiles: 100, format: .line)
        let log = controller([file])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { for index in 0..<250 { log.log(entry(.warning, "n\(task * 1_000 + index)")) } }
            }
        }
        log.flush()
        let found = numbers(allLines(file, files: 100))
        #expect(found.count == 2_000)
        #expect(Set(found).count == 2_000)
    }

    @Test func aReleasedDestinationHasWrittenEverythingGivenToIt() async throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let path = tmp.sub("app.log").path
        do {
            let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 64 << 20, format: .line)
            let log = controller([file])
            for index in 0..<2_000 { log.log(entry(.warning, "n\(index)")) }
        }
        #expect(await waitUntil { lines(path).count == 2_000 })
        #expect(numbers(lines(path)) == Array(0..<2_000))
    }

    @Test func anEntryBelowTheDestinationsLevelIsNotWritten() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, minimumLevel: .warning, format: .line)
        let log = controller([file])
        log.log(entry(.info, "n1"))
        log.log(entry(.error, "n2"))
        log.flush()
        #expect(numbers(lines(file.path(ofFile: 0))) == [2])
    }
}

@Suite("FileLogDestination: rotation and a file changed under it")
struct FileLogDestinationRotationTests {
    @Test func filesShiftAndTheOldestBeyondKeptFilesIsDeleted() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        let log = controller([file])
        for index in 0..<300 { log.log(entry(.warning, "n\(index)")) }
        log.flush()
        let names = try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted()
        #expect(names == ["app.1.log", "app.2.log", "app.log"])
        for index in 0..<3 {
            #expect(readBytes(file.path(ofFile: index)).count <= 1024)
        }
        let kept = numbers(allLines(file, files: 3))
        #expect(kept.last == 299)
        #expect(kept == Array((kept.first ?? 0)...299))
    }

    @Test func aDirectoryAtARotatedNameIsLeftInPlaceWithAWarningLine() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let blocker = tmp.sub("app.2.log")
        try FileManager.default.createDirectory(at: blocker.appendingPathComponent("keep"), withIntermediateDirectories: true)
        try "important".write(to: blocker.appendingPathComponent("keep/important.txt"), atomically: true, encoding: .utf8)
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 1024, keptFiles: 4, format: .line)
        let log = controller([file])
        for index in 0..<200 { log.log(entry(.warning, "n\(index)")) }
        log.flush()
        #expect(readText(blocker.appendingPathComponent("keep/important.txt").path) == "important")
        let first = lines(file.path(ofFile: 0)).first ?? ""
        #expect(first.contains("rotation left \(blocker.path) in place: it is a directory, not a regular file"), "\(first)")
        #expect(file.lastFailure == nil)
        #expect(numbers(lines(file.path(ofFile: 0)) + []).last == 199)
    }

    @Test func aFileDeletedWhileOpenIsCreatedAgainAndLosesNothing() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, format: .line)
        let log = controller([file])
        log.log(entry(.info, "n0"))
        log.flush()
        unlink(file.path(ofFile: 0))
        for index in 1...20 { log.log(entry(.info, "n\(index)")) }
        log.flush()
        #expect(numbers(lines(file.path(ofFile: 0))) == Array(1...20))
        #expect(file.droppedEntries == 0)
    }

    @Test func aFileReplacedWhileOpenIsFollowedAndTheMovedFileGetsNothingMore() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, format: .line)
        let log = controller([file])
        log.log(entry(.info, "n0"))
        log.flush()
        rename(file.path(ofFile: 0), tmp.sub("moved.log").path)
        try "own content\n".write(to: tmp.sub("replacement"), atomically: false, encoding: .utf8)
        rename(tmp.sub("replacement").path, file.path(ofFile: 0))
        for index in 1...20 { log.log(entry(.info, "n\(index)")) }
        log.flush()
        let now = lines(file.path(ofFile: 0))
        #expect(now.first == "own content")
        #expect(numbers(now) == Array(1...20))
        #expect(numbers(lines(tmp.sub("moved.log").path)) == [0])
        #expect(file.droppedEntries == 0)
    }

    @Test(.enabled(if: Tools.canMakeFilesImmutable, "needs root, chattr and a file system with the immutable attribute"))
    func aFileMadeUnwritableWhileOpenIsReportedCountedAndRecovers() async throws {
        let tmp = TempDir("file"); defer { _ = try? runSync(Tools.chattr!, ["-R", "-i", tmp.path]); tmp.remove() }
        let file = try FileLogDestination(directory: tmp.sub("logs"), format: .line)
        let log = controller([file])
        log.log(entry(.info, "n0"))
        log.flush()
        try #require(try runSync(Tools.chattr!, ["+i", file.path(ofFile: 0)]).status == 0)
        for index in 1...10 { log.log(entry(.info, "n\(index)")) }
        log.flush()
        #expect(file.lastFailure != nil)
        #expect(file.droppedEntries == 10)
        _ = try runSync(Tools.chattr!, ["-i", file.path(ofFile: 0)])
        var next = 11
        let cleared = await waitUntil(30) {
            log.log(entry(.info, "n\(next)")); next += 1
            log.flush()
            return file.lastFailure == nil
        }
        #expect(cleared)
        let written = lines(file.path(ofFile: 0))
        #expect(numbers(written).first == 0)
        #expect(!numbers(written).contains(5))
        #expect(noticeSum(written) == file.droppedEntries)
        #expect(numbers(written).count + file.droppedEntries == next)
    }

    @Test func aSymbolicLinkPutInPlaceOfTheOpenFileIsNotFollowed() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let directory = tmp.sub("logs")
        let file = try FileLogDestination(directory: directory, format: .line)
        let log = controller([file])
        log.log(entry(.info, "n0"))
        log.flush()
        let victim = tmp.sub("victim.txt")
        try "secret\n".write(to: victim, atomically: true, encoding: .utf8)
        unlink(file.path(ofFile: 0))
        symlink(victim.path, file.path(ofFile: 0))
        for index in 1...5 { log.log(entry(.info, "n\(index)")) }
        log.flush()
        #expect(readText(victim.path) == "secret\n")
        #expect(file.droppedEntries == 5 || file.lastFailure != nil, "the entries went somewhere: dropped \(file.droppedEntries)")
    }

    @Test func aFIFOPutInPlaceOfTheOpenFileIsNotWaitedOn() async throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.sub("logs"), format: .line)
        let log = controller([file])
        log.log(entry(.info, "n0"))
        log.flush()
        unlink(file.path(ofFile: 0))
        mkfifo(file.path(ofFile: 0), 0o600)
        let done = Locked(false)
        Thread {
            for index in 1...5 { log.log(entry(.info, "n\(index)")) }
            log.flush()
            done.withLock { $0 = true }
        }.start()
        #expect(await waitUntil(30) { done.get }, "logging and flushing hung on a FIFO named app.log")
    }

    @Test func aFileTruncatedWhileOpenGetsWholeLinesAndNoHole() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, format: .line)
        let log = controller([file])
        for index in 0..<10 { log.log(entry(.info, "n\(index)")) }
        log.flush()
        truncate(file.path(ofFile: 0), 0)
        for index in 10..<20 { log.log(entry(.info, "n\(index)")) }
        log.flush()
        #expect(!readBytes(file.path(ofFile: 0)).contains(0))
        #expect(numbers(lines(file.path(ofFile: 0))) == Array(10..<20))
    }

    @Test func aHardLinkedFileStillRotatesAndLosesNothing() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 1024, keptFiles: 50, format: .line)
        let log = controller([file])
        log.log(entry(.warning, "n0"))
        log.flush()
        link(file.path(ofFile: 0), tmp.sub("other.log").path)
        for index in 1..<200 { log.log(entry(.warning, "n\(index)")) }
        log.flush()
        #expect(numbers(allLines(file, files: 50)) == Array(0..<200))
    }

    @Test func aDirectoryMovedAndSwappedForALinkIsNotFollowed() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let directory = tmp.sub("logs")
        let file = try FileLogDestination(directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        let log = controller([file])
        log.log(entry(.warning, "n0"))
        log.flush()
        rename(directory.path, tmp.sub("logs.moved").path)
        let other = tmp.sub("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try "keep".write(to: other.appendingPathComponent("app.2.log"), atomically: true, encoding: .utf8)
        symlink(other.path, directory.path)
        for index in 1..<150 { log.log(entry(.warning, "n\(index)")) }
        log.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path) == ["app.2.log"])
        #expect(readText(other.appendingPathComponent("app.2.log").path) == "keep")
        #expect(numbers(lines(tmp.sub("logs.moved/app.log").path)).last == 149)
        #expect(file.path(ofFile: 0) == directory.appendingPathComponent("app.log").path)
    }

    @Test func twoProcessesLoggingIntoOneRotatingFileLoseNothing() async throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let results = await withTaskGroup(of: Bool.self) { group in
            for id in 0..<2 {
                group.addTask { ((try? await runProbe(["file-writer", tmp.path, "\(id)", "2000"], timeout: 300))?.result.status) == 0 }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == [true, true])
        let names = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("app") }
        var found: [String] = []
        for name in names {
            let fileLines = lines(tmp.sub(name).path)
            #expect(!fileLines.isEmpty, "\(name) is empty")
            found += fileLines.compactMap { line in line.range(of: ": p").map { String(line[$0.upperBound...]) } }
        }
        let expected = (0..<2).flatMap { id in (0..<2_000).map { "\(id)-\($0)" } }
        #expect(found.count == expected.count)
        #expect(Set(found) == Set(expected))
    }
}

@Suite("FileLogDestination: a bounded queue, failures and drops")
struct FileLogDestinationFailureTests {
    @Test func aBurstPastTheBoundDropsOnlyEntriesBelowWarningCountsThemAndKeepsOrder() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 512 << 20, format: .line, maximumQueuedBytes: 1024)
        let log = controller([file])
        let total = 100_000
        for index in 0..<total {
            log.log(entry(index % 100 == 0 ? .warning : .info, "n\(index)"))
        }
        log.flush()
        let written = lines(file.path(ofFile: 0))
        let kept = numbers(written)
        #expect(kept == kept.sorted())
        #expect(kept.count + file.droppedEntries == total)
        #expect(Set(kept).isSuperset(of: stride(from: 0, to: total, by: 100)), "a warning was dropped")
        #expect(noticeSum(written) == file.droppedEntries)
    }

    @Test func droppedEntriesAreReportedAtTheNextFlushWhenNoEntryFollows() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 512 << 20, format: .line, maximumQueuedBytes: 1024)
        let log = controller([file])
        for index in 0..<20_000 { log.log(entry(.debug, "n\(index)")) }
        log.flush()
        let written = lines(file.path(ofFile: 0))
        #expect(noticeSum(written) == file.droppedEntries)
        #expect(numbers(written).count + file.droppedEntries == 20_000)
    }

    @Test func atTheBoundWarningsWaitForRoomAndNoneIsDropped() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 512 << 20, format: .line, maximumQueuedBytes: 1024)
        let log = controller([file])
        for index in 0..<20_000 { log.log(entry(index % 2 == 0 ? .warning : .error, "n\(index)")) }
        log.flush()
        #expect(numbers(lines(file.path(ofFile: 0))) == Array(0..<20_000))
        #expect(file.droppedEntries == 0)
    }

    @Test func theDropNoticeSaysHowManyAndWhy() throws {
        let tmp = TempDir("file"); defer { tmp.remove() }
        let file = try FileLogDestination(directory: tmp.url, maximumFileBytes: 512 << 20, format: .line, maximumQueuedBytes: 1024)
        let log = controller([file])
        for index in 0..<50_000 { log.log(entry(.info, "n\(index)")) }
        log.log(entry(.warning, "last"))
        log.flush()
        try #require(file.droppedEntries > 0, "nothing was dropped: the writer kept up")
        let notices = lines(file.path(ofFile: 0)).filter { $0.contains("entries dropped") || $0.contains("entry dropped") }
        #expect(notices.allSatisfy { $0.contains("more than 1024 bytes of entries waited to be written") }, "\(notices.prefix(2))")
    }

    @Test(.enabled(if: Tools.canMountTmpfs, "needs root (or the right) to mount a small tmpfs"))
    func aFileThatCannotBeReopenedAfterRotationLosesAndCountsEntriesThenRecovers() async throws {
        let small = SmallFileSystem(options: "size=4m,nr_inodes=16")
        defer { small.unmount() }
        try #require(small.mounted)
        let directory = small.dir.sub("logs")
        let file = try FileLogDestination(directory: directory, maximumFileBytes: 1024, keptFiles: 3, format: .line)
        let log = controller([file])
        log.log(entry(.warning, "n0"))
        log.flush()
        var fillers: [String] = []
        for index in 0..<64 {
            let path = small.dir.sub("filler\(index)").path
            guard FileManager.default.createFile(atPath: path, contents: Data()) else { break }
            fillers.append(path)
        }
        var logged = 1
        for _ in 0..<100 { log.log(entry(.warning, "n\(logged)")); logged += 1 }
        log.flush()
        #expect(file.droppedEntries > 0)
        #expect(file.lastFailure != nil)
        for path in fillers { unlink(path) }
        let recovered = await waitUntil(30) {
            log.log(entry(.warning, "n\(logged)")); logged += 1
            log.flush()
            return file.lastFailure == nil
        }
        #expect(recovered)
        let current = lines(file.path(ofFile: 0))
        #expect(current.first?.contains("entries not written") == true || current.first?.contains("entry not written") == true, "\(current.first ?? "")")
        #expect(noticeSum(current) > 0)
        let written = numbers(allLines(file, files: 3))
        #expect(written == written.sorted())
    }

    @Test(.enabled(if: Tools.canMountTmpfs, "needs root (or the right) to mount a small tmpfs"))
    func aFullDiskIsReportedLosesAndCountsEntriesAndClearsOnceALineLands() async throws {
        let small = SmallFileSystem(options: "size=64k")
        defer { small.unmount() }
        try #require(small.mounted)
        let directory = small.dir.sub("logs")
        let file = try FileLogDestination(directory: directory, maximumFileBytes: 16 << 20, keptFiles: 1, format: .line)
        let log = controller([file])
        let filler = small.dir.sub("filler").path
        _ = FileManager.default.createFile(atPath: filler, contents: Data(repeating: 1, count: 40 * 1024))
        var logged = 0
        let padding = String(repeating: "x", count: 200)
        for _ in 0..<400 { log.log(entry(.warning, "\(padding) n\(logged)")); logged += 1 }
        log.flush()
        #expect(file.lastFailure != nil)
        let lostWhileFull = file.droppedEntries
        #expect(lostWhileFull > 0)
        unlink(filler)
        let cleared = await waitUntil(30) {
            log.log(entry(.warning, "n\(logged)")); logged += 1
            log.flush()
            return file.lastFailure == nil
        }
        #expect(cleared)
        let written = lines(file.path(ofFile: 0))
        #expect(!written.contains { $0.contains("): test(): ") && $0.components(separatedBy: "Logs.swift (line 7)").count > 2 }, "two entries on one line")
        #expect(noticeSum(written) >= lostWhileFull)
    }
}
