import Dispatch
import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

// The keys of these tests and their values, as an app declares them (Docs/CustomControllers.md).

private protocol FavoritesController: AnyObject, Sendable {
    var source: String { get }
}

/// Counts the MetaControllers it arrived in; its `source` says which of the key's values made it.
private final class FakeFavorites: FavoritesController, WeakMetaControllerConsumer {
    let metaControllerReference = WeakMetaControllerReference()
    let source: String
    let arrivals = Inbox<Bool>()
    /// What `metaControllerDidArrive()` found in the other declared slot, if it looked.
    let foundHistory = Inbox<Bool>()
    let readsHistoryOnArrival: Bool
    init(_ source: String, readsHistoryOnArrival: Bool = false) {
        self.source = source
        self.readsHistoryOnArrival = readsHistoryOnArrival
    }
    func metaControllerDidArrive() {
        arrivals.record(true)
        if readsHistoryOnArrival { foundHistory.record(self[HistoryKey.self] != nil) }
    }
}

private enum FavoritesKey: MetaControllerKey {
    typealias Value = any FavoritesController
    static var testValue: Value? { FakeFavorites("test") }
    static var previewValue: Value? { FakeFavorites("preview") }
}

/// Declares a test value only: previews get it too.
private enum HistoryKey: MetaControllerKey {
    typealias Value = any FavoritesController
    static var testValue: Value? { FakeFavorites("history") }
}

/// Declares nothing.
private enum PlainKey: MetaControllerKey {
    typealias Value = any FavoritesController
}

/// Its test value reads another declared slot when it arrives.
private enum ReadingKey: MetaControllerKey {
    typealias Value = any FavoritesController
    static var testValue: Value? { FakeFavorites("reading", readsHistoryOnArrival: true) }
}

private final class FavoritesScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.custom(FavoritesKey.self)]
    var metaController: MetaController?
}

/// Reads the favorites slot through its accessor while it is made.
private final class FavoritesReader: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.custom(FavoritesKey.self)]
    var metaController: MetaController?
    var favorites: (any FavoritesController)?
    init(_ metaController: MetaController) {
        self.metaController = metaController
        favorites = self[FavoritesKey.self]
    }
}

private final class PlainScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.custom(PlainKey.self)]
    var metaController: MetaController?
}

/// `MetaControllerKey.testValue` and `previewValue` in the MetaControllers of MetaControllerTesting.
struct MetaControllerKeyValuesTests {
    @Test func withFakesPutsTheKeysTestValueInAnEmptySlotOnFirstRead() throws {
        let metaController = MetaController.withFakes()
        let first = try #require(metaController[FavoritesKey.self] as? FakeFavorites)
        #expect(first.source == "test")
        #expect(metaController[FavoritesKey.self] === first)   // kept, not made again
        #expect(metaController[HistoryKey.self]?.source == "history")
        #expect(metaController[PlainKey.self] == nil)   // a key that declares nothing
    }

    @Test func eachMetaControllerGetsAFreshValue() {
        let one = MetaController.withFakes()[FavoritesKey.self]
        let other = MetaController.withFakes()[FavoritesKey.self]
        #expect(one != nil && other != nil)
        #expect(one !== other)
    }

    @Test func theValueIsHandedTheMetaControllerOnceAsSettingTheSlotWould() throws {
        let metaController = MetaController.withFakes()
        let fake = try #require(metaController[FavoritesKey.self] as? FakeFavorites)
        #expect(fake.metaController === metaController)
        _ = metaController[FavoritesKey.self]
        #expect(fake.arrivals.values.count == 1)
    }

    @Test func aConsumerReadsTheValueThroughItsAccessor() {
        let metaController = MetaController.withFakes()
        let screen = FavoritesScreen()
        metaController.passMetaController(to: screen)
        #expect(screen[FavoritesKey.self]?.source == "test")
        #expect(screen[FavoritesKey.self] === metaController[FavoritesKey.self])
    }

    @Test func aChildsReadFillsTheSlotOfTheMetaControllerTheTestMade() throws {
        let root = MetaController.withFakes()
        let child = MetaController(parent: root)
        let sibling = MetaController(parent: root, signals: Signals())
        let fromChild = try #require(child[FavoritesKey.self] as? FakeFavorites)
        #expect(sibling[FavoritesKey.self] === fromChild)
        #expect(root[FavoritesKey.self] === fromChild)
        #expect(fromChild.metaController === root)
    }

    @Test func aValueSetByHandWinsAndResetMakesANewOne() {
        let metaController = MetaController.withFakes()
        let mine = FakeFavorites("mine")
        metaController[FavoritesKey.self] = mine
        #expect(metaController[FavoritesKey.self] === mine)
        metaController.reset()
        let next = metaController[FavoritesKey.self]
        #expect(next?.source == "test")
        #expect(next !== mine)
    }

    @Test func aPlainMetaControllerNeverUsesTheKeysValues() {
        let plain = MetaController()
        #expect(plain[FavoritesKey.self] == nil)
        #expect(MetaController(parent: plain)[FavoritesKey.self] == nil)
        #expect(!plain.contains(.custom(FavoritesKey.self)))
        // A test scope over the production setup is not a test MetaController either.
        let production = MetaController()
        #expect(MetaController(parent: production)[HistoryKey.self] == nil)
    }

    @Test func previewUsesThePreviewValueAndElseTheTestValue() {
        let metaController = MetaController.preview()
        #expect(metaController[FavoritesKey.self]?.source == "preview")
        #expect(metaController[HistoryKey.self]?.source == "history")
        #expect(metaController[PlainKey.self] == nil)
        let configured = MetaController.preview { $0[FavoritesKey.self] = FakeFavorites("configured") }
        #expect(configured[FavoritesKey.self]?.source == "configured")
    }

    @Test func aStrictMetaControllerFillsDeclaredSlotsAndReportsTheRest() {
        let reports = Inbox<String>()
        let metaController = MetaController.strict { reports.record("\($0)") }
        let screen = FavoritesScreen()
        metaController.passMetaController(to: screen)
        #expect(screen[FavoritesKey.self]?.source == "test")
        #expect(screen[PlainKey.self] == nil)
        #expect(reports.values == ["FavoritesScreen read plain, which the test did not fill"])
    }

    @Test @MainActor func auditsAndVerificationsCountADeclaredSlotAsFilled() {
        let metaController = MetaController.withFakes()
        #expect(metaController.contains(.custom(FavoritesKey.self)))
        #expect(!metaController.contains(.custom(PlainKey.self)))
        let audit = metaController.audit(FavoritesScreen())
        #expect(audit.isSatisfied)
        #expect(!metaController.audit(PlainScreen()).isSatisfied)
        let verification = metaController.verify(consumers: [FavoritesScreen.self, PlainScreen.self])
        #expect(verification.problems.map(\.message) == ["PlainScreen requires plain, which this MetaController lacks"])
    }

    /// Passing warns (in debug builds) about a requirement the MetaController lacks; a slot
    /// whose key declares a test value is not lacking in a test MetaController.
    @Test func theCheckOnPassingCountsADeclaredSlotAsFilled() throws {
        let metaController = MetaController.withFakes()
        let log = try #require(metaController.fakeLogController)
        metaController.passMetaController(to: FavoritesScreen())
        #expect(log.diagnostics.isEmpty)
        metaController.passMetaController(to: PlainScreen())
        #expect(log.diagnostics.map(\.message).contains { $0.contains("plain") })
    }

    /// "Audits, `verify(consumers:samples:)` and the check on passing count such a slot as
    /// filled, and fill it": a product verify makes reads the key's test value while it is made
    /// (through the stand-in verify hands its factory), no problem is reported, and the value
    /// stays in the slot of the MetaController the test made.
    @Test @MainActor func verifysProductsReadTheKeysTestValue() throws {
        let metaController = MetaController.withFakes()
        let seen = Inbox<(any FavoritesController)?>()
        metaController.register(FavoritesReader.self) { requester in
            let reader = FavoritesReader(requester)
            seen.record(reader.favorites)
            return reader
        }
        let verification = metaController.verify(consumers: [FavoritesReader.self])
        #expect(verification.problems.isEmpty, "\(verification)")
        #expect(seen.values.count == 1)
        let read = try #require(seen.values.first ?? nil)
        #expect(read.source == "test")
        #expect(read === metaController[FavoritesKey.self])
    }

    @Test func theValueMayReadOtherDeclaredSlotsWhenItArrives() throws {
        let metaController = MetaController.withFakes()
        let reading = try #require(metaController[ReadingKey.self] as? FakeFavorites)
        #expect(reading.foundHistory.values == [true])
    }
}

// MARK: - Two threads reading one empty slot

/// Makes its test value through `hold`, which a test sets to stop the first maker until the second has stored its own.
private enum RacedKey: MetaControllerKey {
    typealias Value = any FavoritesController
    static let made = Inbox<FakeFavorites>()
    static let hold = Inbox<@Sendable (Int) -> Void>()
    static var testValue: Value? {
        let fake = FakeFavorites("raced \(made.values.count)")
        made.record(fake)
        hold.values.last?(made.values.count)
        return fake
    }
}

extension MetaControllerKeyValuesTests {
    /// Two threads find the slot empty; the first to make a value is held until the second
    /// has made and stored its own. Both get the one stored first, and only it is handed the
    /// MetaController.
    @Test func twoThreadsReadingOneEmptySlotGetTheValueStoredFirst() throws {
        let metaController = MetaController.withFakes()
        let firstMade = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        RacedKey.hold.record { count in
            guard count == 1 else { return }
            firstMade.signal()
            release.wait()
        }
        let firstRead = Inbox<FakeFavorites>()
        let first = TestThreads.onThread { firstRead.record(metaController[RacedKey.self] as! FakeFavorites) }
        #expect(firstMade.wait(timeout: .now() + 300) == .success)
        let second = try #require(metaController[RacedKey.self] as? FakeFavorites)
        release.signal()
        #expect(first.wait(timeout: .now() + 300) == .success)
        #expect(firstRead.values.first === second)
        #expect(RacedKey.made.values.count == 2)
        let discarded = RacedKey.made.values[0]
        #expect(discarded !== second)
        #expect(discarded.metaController == nil)
        #expect(second.metaController === metaController)
    }
}
