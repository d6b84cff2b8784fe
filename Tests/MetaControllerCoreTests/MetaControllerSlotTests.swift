import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

private enum AnalyticsKey: MetaControllerKey {
    typealias Value = Int
}

private enum Settings: MetaControllerKey {
    typealias Value = String
    static var name: String { "settingsStore" }
}

struct MetaControllerSlotTests {
    @Test func builtInSlotsAreNamedLikeTheProperties() {
        #expect(
            [MetaControllerSlot.location, .log, .api, .data, .notification].map(\.name)
                == ["locationController", "logController", "apiController", "dataController", "notificationController"])
        #expect(MetaControllerSlot.api.description == "apiController")
    }

    @Test func customSlotsAreEqualPerKey() {
        #expect(MetaControllerSlot.custom(UserControllerKey.self) == .custom(UserControllerKey.self))
        #expect(MetaControllerSlot.custom(UserControllerKey.self) != .custom(AnalyticsKey.self))
        #expect(MetaControllerSlot.custom(UserControllerKey.self) != .api)
        #expect(Set([MetaControllerSlot.api, .api, .custom(AnalyticsKey.self)]).count == 2)
    }

    @Test func keyNamesDropKeyAndLowercaseTheFirstLetter() {
        #expect(UserControllerKey.name == "userController")
        #expect(MetaControllerSlot.custom(AnalyticsKey.self).name == "analytics")
        #expect(MetaControllerSlot.custom(Settings.self).name == "settingsStore")
    }

    @Test func customSlotsHoldValueTypesToo() {
        let metaController = MetaController()
        metaController[AnalyticsKey.self] = 42
        #expect(metaController[AnalyticsKey.self] == 42)
        #expect(metaController.contains(.custom(AnalyticsKey.self)))
        #expect(metaController[Settings.self] == nil)
    }

    /// "The built-in slots are made the same way: each is a key ... so
    /// `metaController[ApiControllerKey.self]` is `metaController.apiController`."
    @Test func everyBuiltInSlotIsAKey() {
        #expect(MetaControllerSlot.api == .custom(ApiControllerKey.self))
        #expect(MetaControllerSlot.log == .custom(LogControllerKey.self))
        #expect(MetaControllerSlot.data == .custom(DataControllerKey.self))
        #expect(MetaControllerSlot.location == .custom(LocationControllerKey.self))
        #expect(MetaControllerSlot.notification == .custom(NotificationControllerKey.self))
        #expect(MetaControllerSlot.custom(ApiControllerKey.self).name == "apiController")

        let parent = MetaController()
        let child = MetaController(parent: parent)
        let api = FakeApiController()
        parent[ApiControllerKey.self] = api
        #expect(child.apiController === api)
        #expect(child.contains(.api))
        let log = FakeLogController()
        child.logController = log
        #expect(child[LogControllerKey.self] === log)
        #expect(!parent.contains(.log))
        child[LogControllerKey.self] = nil
        #expect(child.logController == nil)
    }
}
