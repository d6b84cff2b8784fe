import Foundation
import MetaController
@testable import MetaControllerStorage
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

@Suite struct FileDataControllerTests {
    struct Profile: Codable, Equatable {
        var name: String
        var age: Int
    }

    private struct Record: Codable {
        let key: String
        let generation: Int
        let payload: String
    }

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
    }

    @Test func savesFetchesListsAndDestroys() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        try store.save(Profile(name: "Ada", age: 36), forKey: "profile")
        try store.save(Data("raw".utf8), forKey: "raw")
        #expect(try store.fetch(Profile.self, forKey: "profile") == Profile(name: "Ada", age: 36))
        #expect(try store.fetchData(forKey: "raw") == Data("raw".utf8))
        #expect(try store.fetch(Profile.self, forKey: "missing") == nil)
        #expect(try store.keys() == ["profile", "raw"])
        #expect(try store.destroy("raw"))
        #expect(try !store.destroy("raw"))
        #expect(try store.keys() == ["profile"])
        // A second store on the same directory sees the same entries.
        #expect(try FileDataController(directory: directory).fetch(Profile.self, forKey: "profile")?.name == "Ada")
    }

    @Test func emptyAndLargeEntriesReadBackWhole() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        var generator = SystemRandomNumberGenerator()
        let large = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try store.save(large, forKey: "large")
        try store.save(Data(), forKey: "empty")
        #expect(try store.fetchData(forKey: "large") == large)
        #expect(try store.fetchData(forKey: "empty") == Data())
        // The store's directory as given with a trailing slash names the same files.
        let slashed = try FileDataController(directory: URL(fileURLWithPath: directory.path + "/", isDirectory: true))
        #expect(try slashed.fetchData(forKey: "large") == large)
        #expect(try slashed.fileURL(forKey: "large") == store.fileURL(forKey: "large"))
    }

    @Test func entriesAndTheDirectoryAreTheOwnersOnly() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        try store.save(Data("x".utf8), forKey: "k")
        let files = FileManager.default
        #expect(try files.attributesOfItem(atPath: store.fileURL(forKey: "k").path)[.posixPermissions] as? Int == 0o600)
        #expect(try files.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int == 0o700)
    }

    @Test func aCorruptEntryNamesItsKeyAndLeavesTheOthersReadable() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        try store.save(Profile(name: "Ada", age: 36), forKey: "good")
        try Data(#"{"name": "Bob", "age": "old"}"#.utf8).write(to: store.fileURL(forKey: "bad"))
        try Data([0xFF, 0x00, 0x12]).write(to: store.fileURL(forKey: "garbage"))
        #expect {
            try store.fetch(Profile.self, forKey: "bad")
        } throws: { error in
            let error = error as? DataStoreError
            return error?.code == .corrupt && error?.key == "bad" && error?.keyPath == "age"
                && error?.description.hasPrefix("the entry \"bad\" does not decode as Profile at age") == true
        }
        #expect(throws: DataStoreError.self) { try store.fetch(Profile.self, forKey: "garbage") }
        #expect(try store.fetch(Profile.self, forKey: "good")?.name == "Ada")
        #expect(try store.keys() == ["bad", "garbage", "good"])
    }

    @Test func anUnreadableEntryNamesItsKey() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        // A directory where the entry's file should be cannot be read as data.
        try FileManager.default.createDirectory(at: store.fileURL(forKey: "odd"), withIntermediateDirectories: true)
        #expect {
            try store.fetchData(forKey: "odd")
        } throws: { error in
            (error as? DataStoreError)?.code == .unreadable && (error as? DataStoreError)?.key == "odd"
        }
    }

    @Test func aDirectoryThatCannotBeCreatedIsAClearError() throws {
        let blocker = temporaryDirectory()
        try Data().write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        #expect {
            try FileDataController(directory: blocker.appendingPathComponent("store"))
        } throws: { error in
            (error as? DataStoreError)?.code == .unavailable
                && (error as? DataStoreError)?.description.contains(blocker.path) == true
        }
    }

    @Test func openingRemovesTemporaryFilesACrashLeft() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: directory.appendingPathComponent(".tmp-123"))
        let store = try FileDataController(directory: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        #expect(try store.keys().isEmpty)
    }

    @Test func savesAndDestroysAreDispatchedOnTheMetaControllersBus() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let metaController = MetaController()
        let store = try FileDataController(directory: directory)
        metaController.dataController = store
        let changes = metaController.signals.record(DataChange.signal)
        try store.save(Data("1".utf8), forKey: "a")
        try store.destroy("a")
        try store.destroy("a")   // nothing there: no change
        #expect(changes.values == [DataChange(key: "a", kind: .saved), DataChange(key: "a", kind: .destroyed)])
    }

    @Test func savesOfManyKeysFromManyTasksAllLand() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    // The synchronous save, from several threads at once.
                    func saveRounds() throws(DataStoreError) {
                        for round in 0..<20 { try store.save(Profile(name: "t\(task)", age: round), forKey: "key-\(task)") }
                    }
                    try saveRounds()
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.keys().count == 8)
        for task in 0..<8 { #expect(try await store.fetch(Profile.self, forKey: "key-\(task)") == Profile(name: "t\(task)", age: 19)) }
    }

    // MARK: - The async variants

    @Test func theAsyncVariantsSaveFetchListAndDestroy() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        try await store.save(Profile(name: "Ada", age: 36), forKey: "profile")
        try await store.save(Data("raw".utf8), forKey: "raw")
        #expect(try await store.fetch(Profile.self, forKey: "profile") == Profile(name: "Ada", age: 36))
        #expect(try await store.fetchData(forKey: "raw") == Data("raw".utf8))
        #expect(try await store.fetch(Profile.self, forKey: "missing") == nil)
        #expect(try await store.keys() == ["profile", "raw"])
        #expect(try await store.destroy("raw"))
        #expect(try await !store.destroy("raw"))
        // What they wrote, the synchronous calls read, and the other way round.
        func readSynchronously() throws(DataStoreError) -> Profile? { try store.fetch(Profile.self, forKey: "profile") }
        #expect(try readSynchronously() == Profile(name: "Ada", age: 36))
    }

    @Test func theAsyncVariantsThrowTheSameTypedErrors() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory, maximumEntryBytes: 4)
        try FileManager.default.createDirectory(at: store.fileURL(forKey: "odd"), withIntermediateDirectories: true)
        try await store.save(Data("{}".utf8), forKey: "object")
        // `error` is a DataStoreError without a cast: the throws are typed.
        func code(_ operation: () async throws(DataStoreError) -> Void) async -> (DataStoreError.Code, String)? {
            do {
                try await operation()
                return nil
            } catch {
                return (error.code, error.key)
            }
        }
        #expect(await code { () async throws(DataStoreError) in try await store.save(Data(), forKey: "../x") }! == (.invalidKey, "../x"))
        #expect(await code { () async throws(DataStoreError) in try await store.save(Data("12345".utf8), forKey: "big") }! == (.tooLarge, "big"))
        #expect(await code { () async throws(DataStoreError) in _ = try await store.fetchData(forKey: "odd") }! == (.unreadable, "odd"))
        #expect(await code { () async throws(DataStoreError) in _ = try await store.fetch(Profile.self, forKey: "object") }! == (.corrupt, "object"))
        #expect(await code { () async throws(DataStoreError) in _ = try await store.destroy("") }! == (.invalidKey, ""))
    }

    @Test func asyncSavesOfOneKeyLandInTheOrderTheyWereCalled() async throws {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let metaController = MetaController()
        let store = try FileDataController(directory: directory)
        metaController.dataController = store
        // Each listener call runs right after a save, on the thread that saved: it reads what landed.
        let landed = Inbox<String>()
        let token = metaController.signals.listen(to: DataChange.signal) { _ in
            landed.record((try? store.fetchData(forKey: "note")).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
        defer { token.cancel() }
        // `Task.immediate` runs each task on this thread up to its first
        // suspension, which is after the save was handed to the store: the
        // saves are called in the order 0, 1, 2, ...
        // (`Task.immediate` is new in the 2026 Apple systems; older ones await each save in turn.)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            let tasks = (0..<50).map { number in
                Task.immediate { try await store.save(Data("\(number)".utf8), forKey: "note") }
            }
            for task in tasks { try await task.value }
        } else {
            for number in 0..<50 { try await store.save(Data("\(number)".utf8), forKey: "note") }
        }
        #expect(landed.values == (0..<50).map { "\($0)" })
        #expect(try await store.fetchData(forKey: "note") == Data("49".utf8))
    }

    @Test func theAsyncVariantsDoTheirWorkOnTheStoresQueuesNotTheCooperativePool() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let metaController = MetaController()
        let store = try FileDataController(directory: directory)
        metaController.dataController = store
        // A synchronous listener runs on the thread that saved or destroyed.
        let onStoreQueue = Inbox<Bool>()
        let token = metaController.signals.listen(to: DataChange.signal) { _ in onStoreQueue.record(StoreQueues.isCurrent) }
        defer { token.cancel() }
        #expect(!StoreQueues.isCurrent)   // the test runs on the cooperative pool
        try await store.save(Data("1".utf8), forKey: "a")
        try await store.destroy("a")
        func saveSynchronously() throws(DataStoreError) { try store.save(Data("2".utf8), forKey: "b") }
        try saveSynchronously()
        #expect(onStoreQueue.values == [true, true, false])
        // Reads go through the same queues' read side.
        let queues = StoreQueues(label: "test")
        #expect(try await queues.read { StoreQueues.isCurrent })
        #expect(try await queues.write("a") { StoreQueues.isCurrent })
    }

    @Test func cancellingTheTaskDoesNotStopASaveOnceCalled() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await store.save(Data("kept".utf8), forKey: "k")
            return Task.isCancelled
        }
        #expect(try await task.value)
        #expect(try await store.fetchData(forKey: "k") == Data("kept".utf8))
    }

    /// Kills a child process in the middle of repeated saves, three times, and
    /// finds every key holding a complete value each time.
    @Test func aProcessKilledMidSaveLeavesEveryValueComplete() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try #require(Self.crashWriterURL(), "DataCrashWriter was not built beside the tests")
        for attempt in 0..<3 {
            let process = Process()
            process.executableURL = writer
            process.arguments = [directory.path, "8"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Wait until the child has finished a few rounds, then kill it while it writes the next.
            var received = Data()
            while !(String(decoding: received, as: UTF8.self).contains("round \(3 + attempt)")) {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                received += chunk
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)

            let store = try FileDataController(directory: directory)
            #expect(try store.keys() == (0..<8).map { "key-\($0)" })
            for key in try store.keys() {
                let record = try #require(try store.fetch(Record.self, forKey: key))
                let digit = Character(String(record.generation % 10))
                #expect(record.key == key)
                #expect(record.payload.count == 2048 + (record.generation * 37) % 4096)
                #expect(record.payload.allSatisfy { $0 == digit })
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasPrefix(".tmp-") })
        }
    }

    /// The crash writer is built into the same folder as the test bundle.
    static func crashWriterURL() -> URL? {
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
}

/// Hostile file systems: links, FIFOs, devices, huge entries and loose directories.
extension FileDataControllerTests {
    private func kind(at path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    @Test func anEntryThatIsASymbolicLinkIsRefusedAndItsTargetIsNeverTouched() throws {
        let directory = temporaryDirectory(), outside = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: outside)
        }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let secret = outside.appendingPathComponent("secret")
        try Data("secret".utf8).write(to: secret)
        let store = try FileDataController(directory: directory)
        let entry = try store.fileURL(forKey: "linked").path
        try FileManager.default.createSymbolicLink(atPath: entry, withDestinationPath: secret.path)

        #expect {
            try store.fetchData(forKey: "linked")
        } throws: { error in
            let error = error as? DataStoreError
            return error?.code == .unreadable && error?.key == "linked"
                && error?.description == "cannot read \"linked\": it is a symbolic link, not a regular file"
        }
        // A save replaces the link itself with a regular file.
        try store.save(Data("new".utf8), forKey: "linked")
        #expect(kind(at: entry) == .typeRegular)
        #expect(try store.fetchData(forKey: "linked") == Data("new".utf8))
        #expect(try Data(contentsOf: secret) == Data("secret".utf8))

        // A destroy removes the link, not what it points to: a file, a directory, or nothing.
        try FileManager.default.removeItem(atPath: entry)
        for target in [secret.path, outside.path, outside.appendingPathComponent("absent").path] {
            try FileManager.default.createSymbolicLink(atPath: entry, withDestinationPath: target)
            #expect(try store.destroy("linked"))
            #expect(kind(at: entry) == nil)
        }
        #expect(try Data(contentsOf: secret) == Data("secret".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["secret"])
    }

    @Test func aFIFOEntryIsRefusedWithoutWaitingForAWriter() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        let entry = try store.fileURL(forKey: "pipe").path
        try #require(mkfifo(entry, 0o600) == 0, "cannot make a FIFO here")
        let result = BoundedCall.run(
            within: 10,
            release: {
                // Opening the other end lets a reader blocked in open go on.
                let writer = open(entry, O_WRONLY | O_NONBLOCK)
                if writer >= 0 { close(writer) }
            }
        ) {
            Result { () throws(DataStoreError) in try store.fetchData(forKey: "pipe") }
        }
        let error = try #require(result, "fetchData waited for a writer to open the FIFO")
        #expect(throws: DataStoreError(.unreadable, key: "pipe", "cannot read \"pipe\": it is a FIFO, not a regular file")) {
            try error.get()
        }
    }

    @Test(.enabled(if: geteuid() == 0, "only root can make a device node"))
    func aDeviceEntryIsRefused() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileDataController(directory: directory)
        let entry = try store.fileURL(forKey: "zero").path
        var zero = stat()
        try #require(stat("/dev/zero", &zero) == 0)
        // The same device as /dev/zero, which reads without end.
        try #require(mknod(entry, zero.st_mode, zero.st_rdev) == 0, "cannot make a device node here")
        #expect {
            try store.fetchData(forKey: "zero")
        } throws: { error in
            let error = error as? DataStoreError
            return error?.code == .unreadable && error?.key == "zero" && error?.description.contains("device") == true
        }
    }

    @Test func entriesLargerThanTheLimitAreRefusedNamingTheKeyAndTheLimit() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try FileDataController(directory: directory).maximumEntryBytes == 64 * 1024 * 1024)
        let store = try FileDataController(directory: directory, maximumEntryBytes: 64)
        try store.save(Data(count: 64), forKey: "fits")
        #expect(try store.fetchData(forKey: "fits") == Data(count: 64))
        #expect(throws: DataStoreError(.tooLarge, key: "big", "cannot save \"big\": 65 bytes are more than the limit of 64 bytes")) {
            try store.save(Data(count: 65), forKey: "big")
        }
        #expect(try store.keys() == ["fits"])
        // An entry that grew past the limit outside the store is not read.
        try Data(count: 65).write(to: store.fileURL(forKey: "big"))
        #expect(throws: DataStoreError(.tooLarge, key: "big", "cannot read \"big\": it is larger than the limit of 64 bytes")) {
            try store.fetchData(forKey: "big")
        }
        #expect(try store.fetchData(forKey: "fits") == Data(count: 64))
    }

    @Test func aDirectoryOpenToEveryoneIsRestrictedToItsOwner() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makeLooseDirectory(directory)
        _ = try FileDataController(directory: directory)
        #expect(try permissions(of: directory) == 0o700)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func aLooseDirectoryOfAnotherUserIsRefused() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makeLooseDirectory(directory, owner: 4242)
        #expect {
            try FileDataController(directory: directory)
        } throws: { error in
            let error = error as? DataStoreError
            return error?.code == .unavailable && error?.key == ""
                && error?.description == "cannot use the store directory \(directory.path): "
                    + "it is open to other users (mode 0777) and belongs to another user"
        }
        #expect(try permissions(of: directory) == 0o777)
    }

    /// `/tmp` in a container, where the app runs as root: restricting it would lock every other user out.
    @Test func aSharedStickyDirectoryIsRefusedAndLeftAsItIs() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makeLooseDirectory(directory, mode: 0o1777)
        #expect(
            throws: DataStoreError(
                .unavailable, key: "",
                "cannot use the store directory \(directory.path): it is a shared directory (mode 01777: sticky, and other users may write in it), "
                    + "which is not made private; use a directory of its own inside it")
        ) {
            try FileDataController(directory: directory)
        }
        #expect(try mode(of: directory) == 0o1777)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
