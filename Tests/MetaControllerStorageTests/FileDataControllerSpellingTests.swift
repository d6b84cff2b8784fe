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
        #expect(listings.withLock { $0 } == 2)   // the destroy used the listing and kept it in step
    }

    /// A save that removes another spelling of its key keeps its listing in step: the removal is
    /// its own change, so the next miss of such a key lists nothing again.
    @Test func aSaveThatRemovesAnotherSpellingKeepsItsListingInStep() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, listings) = try Self.countingStore(in: directory)
        let decomposed = directory.appendingPathComponent("cafe\u{301}.entry")
        #expect(FileManager.default.createFile(atPath: decomposed.path, contents: Data("planted".utf8)))
        #expect(try store.fetchData(forKey: "caf\u{E9}") == Data("planted".utf8))
        #expect(listings.withLock { $0 } == 1)
        try store.save(Data("saved".utf8), forKey: "caf\u{E9}")
        #expect(!FileManager.default.fileExists(atPath: decomposed.path))
        #expect(try store.fetchData(forKey: "caf\u{E9}") == Data("saved".utf8))
        #expect(try store.fetchData(forKey: "na\u{EF}ve") == nil)
        #expect(listings.withLock { $0 } == 1)
    }

    /// A store whose listings for spellings are counted, and whose wall clock is a `Lock` the
    /// test moves on; it starts at the system's time, so a directory just written is not settled.
    private static func storeWithClock(
        in directory: URL, created: (@Sendable (String) -> Void)? = nil
    ) throws -> (FileDataController, listings: Lock<Int>, clock: Lock<Duration>) {
        let listings = Lock(0)
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let clock = Lock(Duration.seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec)))
        let seams = StoreSeams(
            created: created, listedForSpellings: { listings.withLock { $0 += 1 } }, wallClock: { clock.withLock { $0 } })
        return (try FileDataController(directory: directory, maximumEntryBytes: 1 << 20, seams: seams), listings, clock)
    }

    /// Issue 45: in a 3,000-entry store that is being written, each save or miss of a key with
    /// `K` or a letter outside ASCII listed the directory (each save changes it). The store's own
    /// saves now keep what the listing found in step: 200 such saves among 200 plain ones, and
    /// 100 misses after them, list it once.
    @Test func savesAndMissesOfKeysWithSuchCharactersListAStoreBeingWrittenOnce() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, listings, _) = try Self.storeWithClock(in: directory)
        for index in 0..<3_000 { try store.save(Data([1]), forKey: "entry-\(index)") }
        for index in 0..<100 {
            try store.save(Data([2]), forKey: "Key-\(index)")
            try store.save(Data([3]), forKey: "entry-\(index)")
            try store.save(Data([4]), forKey: "caf\u{E9}-\(index)")
            try store.save(Data([5]), forKey: "plain-\(index)")
        }
        #expect(listings.withLock { $0 } == 1)
        for _ in 0..<100 { #expect(try store.fetchData(forKey: "apiKey") == nil) }
        #expect(try store.destroy("Key-1"))
        #expect(try store.fetchData(forKey: "Key-1") == nil)
        #expect(try store.fetchData(forKey: "Key-2") == Data([2]))
        #expect(listings.withLock { $0 } == 1)
    }

    /// A listing made right after the directory changed is relied on for two seconds only: then
    /// the next use lists again, and a listing started two seconds after the last change is kept
    /// for good (until the directory changes).
    @Test func aListingRightAfterAChangeIsMadeAgainTwoSecondsLater() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, listings, clock) = try Self.storeWithClock(in: directory)
        try store.save(Data([1]), forKey: "a")
        for _ in 0..<3 { #expect(try store.fetchData(forKey: "K") == nil) }
        #expect(listings.withLock { $0 } == 1)
        // Three seconds on, past the two: listed again, and this listing, more than two seconds
        // after the last change, is kept for good.
        clock.withLock { $0 += Self.settle + .seconds(1) }
        for _ in 0..<3 { #expect(try store.fetchData(forKey: "K") == nil) }
        #expect(listings.withLock { $0 } == 2)
        clock.withLock { $0 += .seconds(3_600) }
        for _ in 0..<3 { #expect(try store.fetchData(forKey: "K") == nil) }
        #expect(listings.withLock { $0 } == 2)
    }

    /// A file another tool writes in another spelling while one of the store's own saves is under
    /// way (held there by a seam) hides behind the change time that save moves on: it is found
    /// by the listing made two seconds later, not lost, though the listing before the save was
    /// settled (made three seconds after the directory's last change).
    @Test func anEntryAddedDuringTheStoresOwnSaveIsFoundTwoSecondsLater() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let planted = Lock(false)
        let (store, listings, clock) = try Self.storeWithClock(in: directory) { _ in
            guard !planted.withLock({ $0 }) else { return }
            planted.withLock { $0 = true }
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("cafe\u{301}.entry").path, contents: Data("planted".utf8))
        }
        clock.withLock { $0 += .seconds(3) }
        #expect(try store.fetchData(forKey: "caf\u{E9}") == nil)
        #expect(try store.fetchData(forKey: "caf\u{E9}") == nil)
        #expect(listings.withLock { $0 } == 1)
        try store.save(Data([1]), forKey: "other")   // plants the file between its two looks at the directory
        #expect(planted.withLock { $0 })
        #expect(try store.fetchData(forKey: "caf\u{E9}") == nil)   // not seen yet
        clock.withLock { $0 += Self.settle }
        #expect(try store.fetchData(forKey: "caf\u{E9}") == Data("planted".utf8))
        #expect(listings.withLock { $0 } == 2)
    }

    private static var settle: Duration { FileDataController.listingSettleTime }
}
