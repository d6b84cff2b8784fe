import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

private struct ReaderStruct: MetaControllerReader, Sendable {
    let metaController: MetaController?
}

private final class ReaderClass: MetaControllerReader, Sendable {
    let metaController: MetaController?
    init(metaController: MetaController?) { self.metaController = metaController }
}

private actor ReaderActor: MetaControllerReader {
    let metaController: MetaController?
    init(metaController: MetaController?) { self.metaController = metaController }

    /// Reads and logs from inside the actor.
    func work() -> Bool {
        infoLog("working in the actor")
        return apiController != nil && self[RetryCountKey.self] == 3
    }
}

/// A main-actor view model: an isolated conformance, used on the main actor.
@MainActor private final class MainActorReader: @MainActor MetaControllerReader {
    let metaController: MetaController?
    init(metaController: MetaController?) { self.metaController = metaController }
}

struct MetaControllerReaderTests {
    private func filled() -> (MetaController, FakeLogController, FakeApiController) {
        let metaController = MetaController()
        let log = FakeLogController()
        let api = FakeApiController()
        metaController.logController = log
        metaController.apiController = api
        metaController[RetryCountKey.self] = 3
        return (metaController, log, api)
    }

    @Test func aStructReadsTheControllersAndLogs() {
        let (metaController, log, api) = filled()
        let reader = ReaderStruct(metaController: metaController)
        #expect(reader.apiController === api)
        #expect(reader.logController === log)
        #expect(reader[RetryCountKey.self] == 3)
        #expect(reader.signals === metaController.signals)
        #expect(reader.dataController == nil && reader.locationController == nil && reader.notificationController == nil)
        reader.warningLog("careful", metadata: ["k": "v"])
        #expect(log.entries.map(\.message) == ["careful"])
        #expect(log.entries.first?.metadata == ["k": "v"])
        #expect(log.entries.first?.file.hasSuffix("MetaControllerReaderTests.swift") == true)
    }

    @Test func aFinalClassWithALetReadsTheControllersAndLogs() {
        let (metaController, log, api) = filled()
        let reader = ReaderClass(metaController: metaController)
        #expect(reader.apiController === api)
        reader.errorLog("failed")
        #expect(log.messages == ["failed"])
    }

    @Test func anActorReadsTheControllersAndLogsInsideAndOutside() async {
        let (metaController, log, api) = filled()
        let reader = ReaderActor(metaController: metaController)
        #expect(await reader.work())
        #expect(reader.apiController === api)
        reader.debugLog("from outside")
        #expect(log.messages == ["working in the actor", "from outside"])
    }

    @Test @MainActor func aMainActorClassAdoptsItWithAnIsolatedConformance() {
        let (metaController, log, api) = filled()
        let reader = MainActorReader(metaController: metaController)
        #expect(reader.apiController === api)
        reader.infoLog("on the main actor")
        #expect(log.messages == ["on the main actor"])
    }

    @Test func withoutAMetaControllerEverythingIsNilAndNothingIsLogged() {
        let reader = ReaderStruct(metaController: nil)
        #expect(reader.apiController == nil && reader.signals == nil && reader[RetryCountKey.self] == nil)
        reader.infoLog("lost")
    }

    @Test func aStrictMetaControllerReportsTheReadersReadsOfEmptySlots() {
        let reads = Inbox<UnfilledSlotRead>()
        let reader = ReaderStruct(metaController: MetaController.strict(reporting: { reads.record($0 as! UnfilledSlotRead) }))
        #expect(reader.dataController == nil)
        #expect(reader[RetryCountKey.self] == nil)
        #expect(
            reads.values == [
                UnfilledSlotRead(consumer: "ReaderStruct", slot: .data),
                UnfilledSlotRead(consumer: "ReaderStruct", slot: .custom(RetryCountKey.self)),
            ])
    }

    @Test func aReaderPassesItsMetaControllerToTheObjectsItMakes() {
        let (metaController, _, _) = filled()
        let reader = ReaderStruct(metaController: metaController)
        let screen = Screen()
        reader.passMetaController(to: screen)
        #expect(screen.metaController === metaController)
    }

    @Test func aConsumerIsAReader() {
        let screen = Screen()
        screen.metaController = MetaController()
        let reader: any MetaControllerReader = screen
        #expect(reader.metaController === screen.metaController)
    }

    // MARK: - A MetaController is a reader

    @Test func aMetaControllerLogsThroughItsOwnShortcuts() throws {
        let (metaController, log, _) = filled()
        metaController.infoLog("launched", metadata: ["build": "42"])
        let entry = try #require(log.entries.first)
        #expect(entry.message == "launched")
        #expect(entry.level == .info)
        #expect(entry.metadata == ["build": "42"])
        #expect(entry.file.hasSuffix("MetaControllerReaderTests.swift"))
    }

    @Test func anAppsReaderAccessorWorksOnTheMetaControllerItself() {
        let metaController = MetaController()
        let favorites = TestFavoritesController()
        metaController[FavoritesControllerKey.self] = favorites
        #expect(metaController.favoritesController === favorites)
        #expect(metaController.metaController === metaController)
    }

    /// Generic code over readers sees a MetaController's own slots and bus.
    @Test func readingAMetaControllerAsAReaderGivesItsOwnSlotsAndBus() {
        func parts(_ reader: some MetaControllerReader) -> (Signals?, (any ApiController)?, Int?) {
            (reader.signals, reader.apiController, reader[RetryCountKey.self])
        }
        let (metaController, _, api) = filled()
        let (signals, apiController, retries) = parts(metaController)
        #expect(signals === metaController.signals)
        #expect(apiController === api)
        #expect(retries == 3)
    }
}

protocol FavoritesController: AnyObject, Sendable {}
final class TestFavoritesController: FavoritesController {}
enum FavoritesControllerKey: MetaControllerKey {
    typealias Value = any FavoritesController
}
extension MetaControllerReader {
    /// The recipe's one-line accessor, declared on readers.
    var favoritesController: (any FavoritesController)? { self[FavoritesControllerKey.self] }
}
