import Foundation
import MetaController
@testable import MetaControllerStorage
import Testing
import MetaControllerTestSupport

/// Misses of keys that may have other spellings on disk (`K`, `;`, the grave accent, anything
/// not ASCII) list the directory once while it does not change, not once per miss.
extension FileDataControllerAttackTests {
    private static func freshDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("store-spellings-\(UUID().uuidString)")
    }

    /// A store whose directory listings for spellings are counted, and whose wall clock runs an
    /// hour ahead, so that a directory just filled counts as settled without waiting.
    private static func countingStore(in directory: URL) throws -> (FileDataController, Lock<Int>) {
        let listings = Lock(0)
        let seams = StoreSeams(
            listedForSpellings: { listings.withLock { $0 += 1 } },
            wallClock: {
                var time = timespec()
                clock_gettime(CLOCK_REALTIME, &time)
                return .seconds(Int64(time.tv_sec) + 3_600) + .nanoseconds(Int64(time.tv_nsec))
            })
        return (try FileDataController(directory: directory, maximumEntryBytes: 1 << 20, seams: seams), listings)
    }

    /// The case: 100 misses of `"apiKey"` and `"café"` in a 3,000-entry store list it once.
    @Test func missesOfKeysWithSuchCharactersListASettledDirectoryOnce() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, listings) = try Self.countingStore(in: directory)
        for index in 0..<3_000 { try store.save(Data([1]), forKey: "entry-\(index)") }
        for _ in 0..<100 {
            #expect(try store.fetchData(forKey: "apiKey") == nil)
            #expect(try store.fetchData(forKey: "caf\u{E9}") == nil)
        }
        #expect(listings.withLock { $0 } == 1)
        // Keys without such characters never list it.
        #expect(try store.fetchData(forKey: "plain") == nil)
        #expect(listings.withLock { $0 } == 1)
    }

    /// Another tool adds an entry spelled in NFD after the store listed the directory: the next
    /// miss sees the directory changed, lists it again and finds the entry. So does a save of
    /// this store's own, which changes the directory too.
    @Test func anEntryAnotherToolAddsAfterAListingIsFound() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, listings) = try Self.countingStore(in: directory)
        #expect(try store.fetchData(forKey: "caf\u{E9}") == nil)
        #expect(try store.fetchData(forKey: "caf\u{E9}") == nil)
        #expect(listings.withLock { $0 } == 1)
        let decomposed = directory.appendingPathComponent("cafe\u{301}.entry")
        #expect(FileManager.default.createFile(atPath: decomposed.path, contents: Data("planted".utf8)))
        #expect(try store.fetchData(forKey: "caf\u{E9}") == Data("planted".utf8))
        #expect(listings.withLock { $0 } == 2)
        #expect(try store.destroy("caf\u{E9}"))
        #expect(try store.fetchData(forKey: "caf\u{E9}") == nil)
        #expect(listings.withLock { $0 } == 3)   // the destroy used the listing; the miss after it lists again
    }

    /// A listing that starts within two seconds of the directory's last change is not kept: a change
    /// in the same tick of the file system's coarse clock would leave the change time as it was.
    @Test func aListingRightAfterAChangeIsNotKept() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let listings = Lock(0)
        let store = try FileDataController(
            directory: directory, maximumEntryBytes: 1 << 20,
            seams: StoreSeams(listedForSpellings: { listings.withLock { $0 += 1 } }, wallClock: { .zero }))
        try store.save(Data([1]), forKey: "a")
        for _ in 0..<3 { #expect(try store.fetchData(forKey: "K") == nil) }
        #expect(listings.withLock { $0 } == 3)
    }
}
