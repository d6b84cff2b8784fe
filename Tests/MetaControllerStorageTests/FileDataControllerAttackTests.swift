import Foundation
import MetaController
@testable import MetaControllerStorage
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A store beside other processes and other tools: opens during saves in flight,
/// a directory swapped for a link, names that are not in NFC.
@Suite struct FileDataControllerAttackTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("store-attack-\(UUID().uuidString)")
    }

    /// The names in `directory`, sorted by their bytes, as the file system spells them.
    private func names(in directory: URL) throws -> [[UInt8]] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).map { Array($0.utf8) }
            .sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Whether the file system keeps two spellings of a name apart (Linux file systems do; APFS and HFS+
    /// treat canonically equivalent names as one, so there an NFD name opens by its NFC spelling anyway).
    private func keepsSpellingsApart(_ directory: URL) throws -> Bool {
        try plant("probe", named: "probe-e\u{301}", in: directory)
        defer { unlink(directory.path + "/probe-e\u{301}") }
        return access(directory.path + "/probe-\u{E9}", F_OK) != 0
    }

    /// Writes `text` to the file `name` in `directory` with plain system calls, so the name's bytes are kept as they are.
    private func plant(_ text: String, named name: String, in directory: URL) throws {
        let descriptor = open(directory.path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0, "cannot create \(name)")
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        try #require(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    }

    // MARK: - Opening beside another process's saves

    /// A second process opens the store again and again while this one saves 256 KiB values:
    /// opening removes only temporary files no live writer holds, so every save lands.
    @Test func opensByAnotherProcessLoseNoSaveInFlight() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let helper = try #require(FileDataControllerTests.crashWriterURL(), "DataCrashWriter was not built beside the tests")
        let store = try FileDataController(directory: directory)
        let opener = Process()
        opener.executableURL = helper
        opener.arguments = ["--open", directory.path, "30"]
        let output = Pipe()
        opener.standardOutput = output
        try opener.run()
        defer {
            if opener.isRunning { kill(opener.processIdentifier, SIGKILL) }
            opener.waitUntilExit()
        }
        // Start saving once the other process is opening.
        var heard = Data()
        while !String(decoding: heard, as: UTF8.self).contains("opened 1\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            heard += chunk
        }
        try #require(opener.isRunning, "the opening process ended: \(String(decoding: heard, as: UTF8.self))")

        var failures: [String] = []
        let value = Data(repeating: 0x5A, count: 256 * 1024)
        let deadline = ContinuousClock.now + .seconds(8)
        var saves = 0
        while saves < 300, ContinuousClock.now < deadline {
            do {
                try store.save(value, forKey: "value-\(saves % 2)")
            } catch {
                failures.append(error.description)
            }
            saves += 1
        }
        kill(opener.processIdentifier, SIGKILL)
        opener.waitUntilExit()
        heard += output.fileHandleForReading.readDataToEndOfFile()
        let opens = String(decoding: heard, as: UTF8.self).split(separator: "\n").last.flatMap { Int($0.dropFirst("opened ".count)) } ?? 0

        let failed = failures.count
        #expect(failed == 0, "\(failed) of \(saves) saves failed while another process opened the store \(opens) times: \(failures.prefix(3))")
        #expect(opens >= 20, "the other process opened the store only \(opens) times")
        #expect(try store.fetchData(forKey: "value-0") == value)
        #expect(try store.fetchData(forKey: "value-1") == value)
        // Nothing is left behind once the writer is done.
        _ = try FileDataController(directory: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["value-0.entry", "value-1.entry"])
    }

    /// A save held between creating its temporary file and locking it (the window in which the
    /// file exists unlocked) while another store opens the directory in this process: the
    /// opening waits for the save to lock its file instead of taking the file for a crash's
    /// leftover, and the save lands with the one temporary file it made.
    @Test func anOpeningWaitsForASaveBetweenCreatingAndLockingItsTemporaryFile() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hold = HeldSave()
        let store = try FileDataController(directory: directory, maximumEntryBytes: 1 << 20, seams: hold.seams)
        let saved = hold.save(on: store)
        hold.reached.wait()   // the temporary file exists, unlocked
        let opening = StoreSeams(waitingForSaves: { hold.openerWaits.signal() })
        let opened = Lock<String?>("not yet")
        Thread {
            do {
                _ = try FileDataController(directory: directory, maximumEntryBytes: 1 << 20, seams: opening)
                opened.withLock { $0 = nil }
            } catch {
                opened.withLock { $0 = "\(error)" }
            }
            hold.openerWaits.signal()   // finished (or waiting, above)
            hold.openerDone.signal()
        }.start()
        hold.openerWaits.wait()   // the opening waits for the save, or (without the lock) finished
        hold.held.signal()
        hold.done.wait()
        hold.openerDone.wait()
        #expect(saved.withLock { $0 } == nil)
        #expect(opened.withLock { $0 } == nil)
        #expect(hold.temporaryFiles.withLock { $0 } == 1, "the save's temporary file was removed and it started over")
        #expect(try store.fetchData(forKey: "draft") == Data("kept".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["draft.entry"])
    }

    /// The same with another process: a save here is held between creating its temporary file
    /// and locking it while a second process opens the store. The test lets the save go on only
    /// once the kernel shows the other process blocked on the directory's lock (`/proc/locks`),
    /// or the other process has finished: it must not have removed the file.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/locks")))
    func anotherProcessOpeningWaitsForASaveBetweenCreatingAndLockingItsTemporaryFile() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let helper = try #require(FileDataControllerTests.crashWriterURL(), "DataCrashWriter was not built beside the tests")
        let hold = HeldSave()
        let store = try FileDataController(directory: directory, maximumEntryBytes: 1 << 20, seams: hold.seams)
        let saved = hold.save(on: store)
        hold.reached.wait()

        let opener = Process()
        opener.executableURL = helper
        opener.arguments = ["--open-once", directory.path]
        let output = Pipe()
        opener.standardOutput = output
        try opener.run()
        defer {
            if opener.isRunning { kill(opener.processIdentifier, SIGKILL) }
            opener.waitUntilExit()
        }
        // Wait for the opener to block on a lock, or to end; no sleep decides the outcome.
        let pid = String(opener.processIdentifier)
        let deadline = ContinuousClock.now + .seconds(60)
        var blocked = false
        while opener.isRunning, !blocked, ContinuousClock.now < deadline {
            let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
            blocked = locks.split(separator: "\n").contains { line in
                let fields = line.split(separator: " ")
                return fields.contains("->") && fields.contains("FLOCK") && fields.contains(Substring(pid))
            }
            if !blocked { usleep(1000) }
        }
        hold.held.signal()
        hold.done.wait()
        opener.waitUntilExit()
        let heard = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(blocked, "the other process did not wait for the save's lock")
        #expect(opener.terminationStatus == 0)
        #expect(heard == "opened\n")
        #expect(saved.withLock { $0 } == nil)
        #expect(hold.temporaryFiles.withLock { $0 } == 1, "the save's temporary file was removed and it started over")
        #expect(try store.fetchData(forKey: "draft") == Data("kept".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["draft.entry"])
    }

    /// Something that removes temporary files without taking their lock (an older version of this
    /// package opening the store, a cleaning tool) removes a save's temporary file while it is
    /// written, three times: each such save starts over with a new temporary file and lands.
    @Test func aSaveWhoseTemporaryFileIsRemovedWhileWrittenStartsOverAndLands() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        let removed = Lock<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        let path = directory.path
        let deadline = Date().addingTimeInterval(10)
        Thread {
            defer { finished.signal() }
            while removed.withLock({ $0 }) < 3, Date() < deadline {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where name.hasPrefix(".tmp-") {
                    var status = stat()
                    // Only once the save has written into it, so past its lock.
                    if lstat(path + "/" + name, &status) == 0, status.st_size > 0, unlink(path + "/" + name) == 0 {
                        removed.withLock { $0 += 1 }
                    }
                }
            }
        }.start()
        let value = Data(repeating: 0xA5, count: 8 * 1024 * 1024)
        var failures: [String] = []
        var saves = 0
        while removed.withLock({ $0 }) < 3, Date() < deadline {
            do {
                try store.save(value, forKey: "large")
            } catch {
                failures.append(error.description)
            }
            saves += 1
        }
        finished.wait()
        #expect(removed.withLock { $0 } == 3)
        #expect(failures == [], "\(failures.count) of \(saves) saves failed")
        #expect(try store.fetchData(forKey: "large") == value)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["large.entry"])
    }

    /// A temporary file another writer holds locked is left alone; once its lock is released,
    /// the next open removes it as a crash's leftover.
    @Test func openingLeavesALockedTemporaryFileAndRemovesAnUnlockedOne() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let held = directory.appendingPathComponent(".tmp-held").path
        let descriptor = open(held, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        // flock locks belong to the open file description: the store's own open of the file cannot take it.
        try #require(flock(descriptor, LOCK_EX) == 0)
        try Data("left".utf8).write(to: directory.appendingPathComponent(".tmp-left"))

        _ = try FileDataController(directory: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [".tmp-held"])

        close(descriptor)
        _ = try FileDataController(directory: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    // MARK: - The directory swapped for a link

    /// After the store's directory is moved and a link to another directory put in its place,
    /// the store keeps working on the directory it opened.
    @Test func theStoreStaysWithTheDirectoryItOpened() throws {
        let parent = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("D"), moved = parent.appendingPathComponent("D.moved")
        let elsewhere = parent.appendingPathComponent("elsewhere")
        let files = FileManager.default
        try files.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let store = try FileDataController(directory: directory)
        try store.save(Data("kept".utf8), forKey: "kept")
        try store.save(Data("doomed".utf8), forKey: "doomed")

        try files.moveItem(at: directory, to: moved)
        try files.createSymbolicLink(at: directory, withDestinationURL: elsewhere)
        try plant("planted", named: "planted.entry", in: elsewhere)
        try plant("planted", named: "kept.entry", in: elsewhere)

        try store.save(Data("new".utf8), forKey: "new")
        #expect(try store.fetchData(forKey: "new") == Data("new".utf8))
        #expect(try store.fetchData(forKey: "kept") == Data("kept".utf8))
        #expect(try store.fetchData(forKey: "planted") == nil)
        #expect(try store.keys() == ["doomed", "kept", "new"])
        #expect(try store.destroy("doomed"))
        #expect(try !store.destroy("planted"))
        #expect(try store.keys() == ["kept", "new"])
        #expect(try files.contentsOfDirectory(atPath: moved.path).sorted() == ["kept.entry", "new.entry"])
        #expect(try files.contentsOfDirectory(atPath: elsewhere.path).sorted() == ["kept.entry", "planted.entry"])
        #expect(try String(contentsOf: elsewhere.appendingPathComponent("kept.entry"), encoding: .utf8) == "planted")
    }

    // MARK: - Names not in NFC

    /// An entry whose name is in NFD on disk (written by a tool, restored from a backup)
    /// is listed, read, replaced and destroyed by its key in NFC.
    @Test func anEntryNamedInNFDOnDiskIsReadReplacedAndDestroyedByItsKey() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        let apart = try keepsSpellingsApart(directory)
        let decomposed = "cafe\u{301}"
        try plant("old", named: decomposed + ".entry", in: directory)
        #expect(try names(in: directory) == [Array((decomposed + ".entry").utf8)])

        #expect(try store.keys().map { Array($0.utf8) } == [Array("caf\u{E9}".utf8)])
        #expect(try store.fetchData(forKey: "caf\u{E9}") == Data("old".utf8))
        #expect(try store.fetchData(forKey: decomposed) == Data("old".utf8))
        #expect(try store.destroy("caf\u{E9}"))
        #expect(try names(in: directory).isEmpty)
        #expect(try !store.destroy("caf\u{E9}"))

        // A save of the key replaces the NFD file: one entry, in NFC, with the new value.
        try plant("old", named: decomposed + ".entry", in: directory)
        try store.save(Data("new".utf8), forKey: "caf\u{E9}")
        #expect(try names(in: directory).count == 1)
        if apart { #expect(try names(in: directory) == [Array("caf\u{E9}.entry".utf8)]) }
        #expect(try store.fetchData(forKey: decomposed) == Data("new".utf8))
        #expect(try store.keys() == ["caf\u{E9}"])
    }

    /// Two spellings of one key on disk: the key is listed once, the NFC spelling is the
    /// one read, and a destroy removes both.
    @Test func twoSpellingsOfOneKeyAreOneEntry() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        guard try keepsSpellingsApart(directory) else {
            print("skipped twoSpellingsOfOneKeyAreOneEntry: this file system treats two spellings of a name as one")
            return
        }
        try plant("decomposed", named: "cafe\u{301}.entry", in: directory)
        try plant("composed", named: "caf\u{E9}.entry", in: directory)
        try #require(try names(in: directory).count == 2)
        #expect(try store.keys() == ["caf\u{E9}"])
        #expect(try store.fetchData(forKey: "caf\u{E9}") == Data("composed".utf8))
        #expect(try store.destroy("caf\u{E9}"))
        #expect(try names(in: directory).isEmpty)

        // Without the NFC spelling, of two other spellings the one first in byte order is read.
        // "a" + U+0323 U+0307 and "a" + U+0307 U+0323 are both ȧ with a dot below, NFC U+1EA1 U+0307.
        // In UTF-8, U+0307 is CC 87 and U+0323 is CC A3: the second spelling is first in byte order.
        try plant("second", named: "a\u{323}\u{307}.entry", in: directory)
        try plant("first", named: "a\u{307}\u{323}.entry", in: directory)
        #expect(try store.keys() == ["\u{1EA1}\u{307}"])
        #expect(try store.fetchData(forKey: "\u{1EA1}\u{307}") == Data("first".utf8))
    }

    /// A file name that is not in NFC normalizes to a key that is plain ASCII only through the
    /// three characters the store looks out for (see `FileDataController.mayHaveOtherSpellings`):
    /// every other key needs no listing of the directory to find its other spellings.
    @Test func onlyThreeCharactersNormalizeToASCII() {
        var found: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let normalized = String(scalar).inNormalizationFormC
            if normalized.utf8.allSatisfy({ $0 < 0x80 }) { found.append(normalized) }
        }
        #expect(found.count == 3)
        #expect(Set(found) == ["K", ";", "`"])
        for text in found { #expect(FileDataController.mayHaveOtherSpellings(text)) }
        #expect(!FileDataController.mayHaveOtherSpellings("profile-2"))
        #expect(FileDataController.mayHaveOtherSpellings("caf\u{E9}"))
    }

    /// A name that no key can open is not listed: not UTF-8, or a key the store refuses.
    @Test func namesNoKeyCanOpenAreNotListed() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        try store.save(Data("1".utf8), forKey: "good")
        try plant("x", named: "bad\u{1}.entry", in: directory)
        try plant("x", named: String(repeating: "l", count: 201) + ".entry", in: directory)
        // "x\xFF.entry": the byte 0xFF is not UTF-8.
        let raw = Array((directory.path + "/x").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF)] + Array(".entry".utf8CString)
        let notUTF8 = open(raw, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if notUTF8 >= 0 {
            close(notUTF8)
        } else {
            print("namesNoKeyCanOpenAreNotListed: this file system refuses a name that is not UTF-8; that part is skipped")
        }
        #expect(try store.keys() == ["good"])
        for key in try store.keys() { #expect(try store.fetchData(forKey: key) != nil) }
    }
}

/// Holds a store's first save between creating its temporary file and locking it, and counts
/// the temporary files its saves create.
private final class HeldSave: Sendable {
    /// The first save created its temporary file and waits.
    let reached = DispatchSemaphore(value: 0)
    /// Lets it go on.
    let held = DispatchSemaphore(value: 0)
    /// The save is over.
    let done = DispatchSemaphore(value: 0)
    /// An opening waits for the save, or finished.
    let openerWaits = DispatchSemaphore(value: 0)
    /// The opening is over.
    let openerDone = DispatchSemaphore(value: 0)
    let temporaryFiles = Lock(0)

    /// Saves "kept" under "draft" on a thread of its own, signalling `done` when the save is over.
    /// - Returns: Where the save's outcome goes: `nil` once it landed, or the error.
    func save(on store: FileDataController) -> Lock<String?> {
        let saved = Lock<String?>("not yet")
        Thread { [self] in
            do {
                try store.save(Data("kept".utf8), forKey: "draft")
                saved.withLock { $0 = nil }
            } catch {
                saved.withLock { $0 = "\(error)" }
            }
            done.signal()
        }.start()
        return saved
    }

    var seams: StoreSeams {
        StoreSeams(created: { [self] _ in
            guard
                temporaryFiles.withLock({ count in
                    count += 1
                    return count == 1
                })
            else { return }
            reached.signal()
            held.wait()
        })
    }
}
