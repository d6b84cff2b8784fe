import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

struct FakeLogControllerTests {
    @Test func recordsEveryEntryInOrder() {
        let log = FakeLogController()
        log.log(LogEntry(level: .info, message: "one", file: "A.swift", function: "f()", line: 1))
        log.log(LogEntry(level: .error, message: "two", file: "A.swift", function: "f()", line: 2))
        #expect(log.messages == ["one", "two"])
        #expect(log.entries.map(\.level) == [.info, .error])
        log.removeAllEntries()
        #expect(log.entries.isEmpty)
    }

    @Test func minimumLevelFiltersEntries() {
        let log = FakeLogController()
        #expect(log.minimumLevel == .trace)
        #expect(log.isLogging(.trace))
        log.minimumLevel = .warning
        #expect(!log.isLogging(.info))
        #expect(log.isLogging(.warning))
        log.log(LogEntry(level: .info, message: "dropped", file: "A.swift", function: "f()", line: 1))
        log.log(LogEntry(level: .critical, message: "kept", file: "A.swift", function: "f()", line: 2))
        #expect(log.messages == ["kept"])
    }

    @Test func countsFlushesThroughTheLogControllerProtocol() {
        let metaController = MetaController.withFakes()
        metaController.logController?.log(LogEntry(level: .info, message: "one", file: "A.swift", function: "f()", line: 1))
        #expect(metaController.fakeLogController?.flushCount == 0)
        metaController.logController?.flush()
        metaController.logController?.flush()
        #expect(metaController.fakeLogController?.flushCount == 2)
        #expect(metaController.fakeLogController?.messages == ["one"])
    }

    @Test func acceptsEntriesFromManyTasks() async {
        let metaController = MetaController.withFakes()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let screen = Screen("\(task)")
                    screen.metaController = metaController
                    for i in 0..<250 { screen.infoLog("\(task)-\(i)") }
                }
            }
        }
        let messages = metaController.fakeLogController?.messages ?? []
        #expect(messages.count == 2_000)
        #expect(Set(messages).count == 2_000)
    }
}

struct MetaControllerFakesTests {
    @Test func withFakesFillsEverySlotWithAFakeInOneLine() {
        let metaController = MetaController.withFakes()
        #expect(metaController.fakeLogController != nil)
        #expect(metaController.fakeLocationController != nil)
        #expect(metaController.fakeApiController != nil)
        #expect(metaController.fakeDataController != nil)
        #expect(metaController.fakeNotificationController != nil)
        #expect(metaController.fakeApiController?.metaController === metaController)
        #expect(metaController.fakeLocationController?.metaController === metaController)
        #expect(metaController.fakeDataController?.metaController === metaController)
        #expect(metaController.fakeNotificationController?.metaController === metaController)
        #expect(metaController.fakeLogController?.metaController === metaController)
    }

    @Test func typedAccessorsAreNilForOtherControllers() {
        let metaController = MetaController()
        metaController.apiController = PlainApiController()
        #expect(metaController.fakeApiController == nil)
        #expect(metaController.fakeLogController == nil)
    }

    @Test func eachCallMakesNewFakes() {
        #expect(MetaController.withFakes().fakeLogController !== MetaController.withFakes().fakeLogController)
    }

    /// The package's own warnings go to `diagnostics`, so a test's assertions on what
    /// the app logged see only the app's lines.
    @Test func metaControllersOwnWarningsAreKeptApartFromTheAppsEntries() {
        let metaController = MetaController()
        let log = FakeLogController()
        metaController.logController = log
        let screen = SettingsScreen()   // requires slots this MetaController lacks
        metaController.passMetaController(to: screen)
        MetaController(parent: metaController).passMetaController(to: screen)   // refused: it holds another
        screen.infoLog("shown")
        #expect(log.messages == ["shown"])
        #if DEBUG
        #expect(log.diagnostics.count == 2)   // the missing slots, then the refused pass
        #else
        #expect(log.diagnostics.count == 1)   // the refused pass
        #endif
        #expect(log.diagnostics.last?.message.contains("already holds") == true)
        log.removeAllEntries()
        #expect(log.entries.isEmpty && log.diagnostics.isEmpty)
    }
}
