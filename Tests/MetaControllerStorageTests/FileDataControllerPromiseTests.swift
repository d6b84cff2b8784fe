import Dispatch
import Foundation
import MetaController
@testable import MetaControllerStorage
import Testing
import MetaControllerTestSupport

/// DataController.md's promises that no test checked (issue 28), each written
/// from its sentence.
extension FileDataControllerTests {
    private static func freshDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("store-promise-\(UUID().uuidString)")
    }

    /// "maximumEntryBytes: … at least 0": 0 is kept as 0 (an empty entry only),
    /// and a negative limit counts as 0.
    @Test(arguments: [0, -1, -5_000, Int.min])
    func aLimitOfZeroOrLessIsZero(limit: Int) throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory, maximumEntryBytes: limit)
        #expect(store.maximumEntryBytes == 0)
        try store.save(Data(), forKey: "empty")
        #expect(try store.fetchData(forKey: "empty") == Data())
        #expect(throws: DataStoreError.self) { try store.save(Data([1]), forKey: "one") }
        // An entry of one byte saved by a store with a larger limit is refused on read.
        try FileDataController(directory: directory).save(Data([1]), forKey: "one")
        do {
            _ = try store.fetchData(forKey: "one")
            Issue.record("a one-byte entry was read under a limit of 0")
        } catch {
            #expect(error.code == .tooLarge)
        }
    }

    /// "Returns: Whether there was one": two threads destroying one key at once
    /// get `true` once and `false` once, and neither throws.
    @Test func twoDestroysOfOneKeyAtOnceAnswerTrueOnceAndNeverThrow() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        for round in 0..<300 {
            try store.save(Data([UInt8(truncatingIfNeeded: round)]), forKey: "shared")
            let answers = Lock<[String]>([])
            let start = DispatchSemaphore(value: 0)
            let done = (0..<2).map { _ in
                TestThreads.onThread {
                    start.wait()
                    let answer: String
                    do { answer = try store.destroy("shared") ? "true" : "false" } catch { answer = "threw \(error)" }
                    answers.withLock { $0.append(answer) }
                }
            }
            start.signal()
            start.signal()
            for thread in done { #expect(thread.wait(timeout: .now() + 300) == .success) }
            let got = answers.withLock { $0 }.sorted()
            #expect(got == ["false", "true"], "round \(round)")
            if got != ["false", "true"] { break }
        }
    }

    /// A stray dot file (macOS writes `._name` files on some volumes) is not an
    /// entry: `keys()` does not list it, and every listed key can be fetched.
    @Test func aStrayDotFileIsNotListed() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        try store.save(Data([1]), forKey: "name")
        for stray in ["._name.entry", ".DS_Store", "._name", ".hidden.entry"] {
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(stray).path, contents: Data([0]))
        }
        let keys = try store.keys()
        #expect(keys == ["name"])
        for key in keys { #expect(try store.fetchData(forKey: key) == Data([1])) }
    }

    /// "Async saves and destroys of one key run one at a time in the order they
    /// were called (the work is queued before the call first suspends)": a save
    /// then a destroy, called in that order without waiting, leave no entry; a
    /// destroy then a save leave the saved value. `Task.immediate` runs each call
    /// up to its first suspension at once, so the calls are made in that order.
    @Test func asyncSaveThenDestroyOfOneKeyRunInTheirOrder() async throws {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        let big = Data(repeating: 7, count: 256 * 1024)
        for round in 0..<30 {
            let save = Task.immediate { try await store.save(big, forKey: "k") }
            let destroy = Task.immediate { try await store.destroy("k") }
            try await save.value
            #expect(try await destroy.value, "round \(round): the destroy found nothing")
            #expect(try await store.fetchData(forKey: "k") == nil, "round \(round): the save ran after the destroy")
            let value = Data([UInt8(truncatingIfNeeded: round)])
            let destroyFirst = Task.immediate { try await store.destroy("k") }
            let saveAfter = Task.immediate { try await store.save(value, forKey: "k") }
            #expect(try await destroyFirst.value == false, "round \(round)")
            try await saveAfter.value
            #expect(try await store.fetchData(forKey: "k") == value, "round \(round)")
            _ = try await store.destroy("k")
        }
    }
}

extension FileDataControllerTests {
    /// DataController.md: a save over a directory in an entry's place throws
    /// `.unwritable`, leaves the directory, and leaves no temporary file (a save
    /// that fails after its temporary file exists removes it); a save over a
    /// link replaces the link, not its target.
    @Test func aSaveOverADirectoryThrowsAndLeavesNoTemporaryFile() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        let odd = directory.appendingPathComponent("odd.entry")
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: false)
        do {
            try store.save(Data([1]), forKey: "odd")
            Issue.record("a save over a directory succeeded")
        } catch {
            #expect(error.code == .unwritable)
            #expect(error.description.contains("cannot save \"odd\""))
        }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: odd.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { $0.hasPrefix(".tmp-") }.isEmpty, "left behind: \(names)")

        // A link in an entry's place: replaced by the saved file; its target untouched.
        let target = directory.deletingLastPathComponent().appendingPathComponent("target-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: target) }
        try Data([9]).write(to: target)
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("link.entry"), withDestinationURL: target)
        try store.save(Data([2]), forKey: "link")
        #expect(try store.fetchData(forKey: "link") == Data([2]))
        #expect(try Data(contentsOf: target) == Data([9]))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// "flushes it to disk (`fsync`), renames it over the entry …, and syncs the
/// directory": watched through the store's internal seams, since a skipped
/// flush shows only after a power cut. And "a larger entry … is refused before
/// it is read": an entry that grows past the limit between the size check and
/// the reads.
extension FileDataControllerTests {
    /// What a save's flushes saw, in order.
    private enum Flush: Equatable {
        /// The temporary file was flushed holding `bytes`, while the entry still held `entryBefore`.
        case file(bytes: Int, entryBefore: Data?)
        /// The directory was flushed, the entry then holding `entryAfter`.
        case directory(entryAfter: Data?)
    }

    private static func watchingFlushes(
        in directory: URL, failFileSync: Bool = false
    ) throws -> (FileDataController, Lock<[Flush]>) {
        let flushes = Lock<[Flush]>([])
        let entry = directory.appendingPathComponent("k.entry")
        var seams = StoreSeams()
        seams.syncFile = { descriptor in
            var status = stat()
            fstat(descriptor, &status)
            flushes.withLock { $0.append(.file(bytes: Int(status.st_size), entryBefore: try? Data(contentsOf: entry))) }
            if failFileSync {
                errno = EIO
                return -1
            }
            return fsync(descriptor)
        }
        seams.syncDirectory = { descriptor in
            flushes.withLock { $0.append(.directory(entryAfter: try? Data(contentsOf: entry))) }
            return fsync(descriptor)
        }
        let store = try FileDataController(directory: directory, maximumEntryBytes: 1024, seams: seams)
        return (store, flushes)
    }

    @Test func aSaveFlushesTheWholeNewValueBeforeTheRenameAndTheDirectoryAfter() async throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, flushes) = try Self.watchingFlushes(in: directory)
        let old = Data([1, 2, 3])
        let new = Data(repeating: 9, count: 700)
        // The synchronous save (an async function would pick the async overload).
        func saveNow(_ value: Data) throws { try store.save(value, forKey: "k") }
        try saveNow(old)
        flushes.withLock { $0.removeAll() }
        try saveNow(new)
        #expect(flushes.withLock { $0 } == [.file(bytes: 700, entryBefore: old), .directory(entryAfter: new)])
        // The async save makes the same calls, in the same order.
        flushes.withLock { $0.removeAll() }
        try await store.save(old, forKey: "k")
        #expect(flushes.withLock { $0 } == [.file(bytes: 3, entryBefore: new), .directory(entryAfter: old)])
    }

    @Test func aFailedFlushFailsTheSaveAndLeavesTheOldValueAndNoTemporaryFile() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = Data([1, 2, 3])
        try FileDataController(directory: directory).save(old, forKey: "k")
        let (store, flushes) = try Self.watchingFlushes(in: directory, failFileSync: true)
        do {
            try store.save(Data([4, 5]), forKey: "k")
            Issue.record("a save whose flush failed succeeded")
        } catch {
            #expect(error.code == .unwritable)
            #expect(error.description.contains(String(cString: strerror(EIO))), "\(error)")
        }
        // Never renamed, so the directory was not flushed either.
        #expect(flushes.withLock { $0 } == [.file(bytes: 2, entryBefore: old)])
        #expect(try store.fetchData(forKey: "k") == old)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { $0.hasPrefix(".tmp-") }.isEmpty, "left behind: \(names)")
    }

    /// Appends `count` bytes to the entry `k` the first time a read has measured it.
    private static func growingOnFirstRead(in directory: URL, by count: Int, limit: Int) throws -> FileDataController {
        let grown = Lock(false)
        let path = directory.appendingPathComponent("k.entry").path
        var seams = StoreSeams()
        seams.measured = { name in
            guard name == "k.entry" else { return }
            let first = grown.withLock { done in
                let first = !done
                done = true
                return first
            }
            guard first else { return }
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            handle.write(Data(repeating: 0xEE, count: count))
            handle.closeFile()
        }
        return try FileDataController(directory: directory, maximumEntryBytes: limit, seams: seams)
    }

    @Test(arguments: [1, 51, 4096, 1_000_000])
    func anEntryThatGrowsPastTheLimitWhileReadIsTooLarge(growth: Int) throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.growingOnFirstRead(in: directory, by: growth, limit: 100)
        try store.save(Data(repeating: 1, count: 100), forKey: "k")
        do {
            let data = try store.fetchData(forKey: "k")
            Issue.record("read \(data?.count ?? 0) bytes of an entry grown to \(100 + growth)")
        } catch {
            #expect(error.code == .tooLarge)
        }
    }

    @Test(arguments: [(0, 1), (40, 60), (99, 1), (10, 4000)])
    func anEntryThatGrowsWithinTheLimitWhileReadIsReadWhole(size: Int, growth: Int) throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let limit = size + growth
        let store = try Self.growingOnFirstRead(in: directory, by: growth, limit: limit)
        try store.save(Data(repeating: 1, count: size), forKey: "k")
        let data = try store.fetchData(forKey: "k")
        #expect(data == Data(repeating: 1, count: size) + Data(repeating: 0xEE, count: growth))
    }

    /// An entry that is below the limit when measured and grows past it while it
    /// is read is too large, not cut at the limit (issue 37).
    @Test(arguments: [(0, 101), (50, 51), (99, 2), (60, 5_000)])
    func anEntryBelowTheLimitThatGrowsPastItWhileReadIsTooLarge(size: Int, growth: Int) throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.growingOnFirstRead(in: directory, by: growth, limit: 100)
        try store.save(Data(repeating: 1, count: size), forKey: "k")
        do {
            let data = try store.fetchData(forKey: "k")
            Issue.record("read \(data?.count ?? 0) bytes of an entry grown from \(size) to \(size + growth)")
        } catch {
            #expect(error.code == .tooLarge)
        }
    }
}
