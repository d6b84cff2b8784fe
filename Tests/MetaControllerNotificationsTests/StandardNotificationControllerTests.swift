import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

@Suite struct StandardNotificationControllerTests {
    @Test func routesByCategoryAndToTheDefaultHandler() throws {
        let controller = StandardNotificationController()
        let games = Inbox<String?>(), others = Inbox<String?>()
        controller.handle(category: "GAME_INVITATION") { games.record($0.customValues["gameID"]?.stringValue) }
        controller.handleOthers { others.record($0.category) }
        try controller.receive(payload: Data(#"{"aps": {"category": "GAME_INVITATION"}, "gameID": "1"}"#.utf8))
        try controller.receive(payload: Data(#"{"aps": {"category": "CHAT"}}"#.utf8))
        try controller.receive(payload: Data(#"{"aps": {"content-available": 1}}"#.utf8))
        #expect(games.values == ["1"])
        #expect(others.values == ["CHAT", nil])
    }

    /// The doc comment and Docs/PlatformSupport.md: where there are no user notifications, `false`.
    @Test func askingForPermissionWithoutUserNotificationsGetsNo() async throws {
        #if canImport(UserNotifications)
        return   // asking would show the system's prompt
        #else
        let metaController = MetaController.withFakes()
        let controller = StandardNotificationController()
        metaController.notificationController = controller
        #expect(try await controller.requestAuthorization() == false)
        #expect(metaController.fakeLogController?.messages == ["notification permission not granted"])
        #endif
    }

    @Test func receivingDeeplyNestedInputThrowsInsteadOfCrashing() async {
        let descriptions = await onSmallStack { () -> [String] in
            let controller = StandardNotificationController()
            var userInfo = PushNotificationTests.deepUserInfo(levels: 100_000, arrays: false)
            var results: [String] = []
            do throws(PushNotificationError) { _ = try controller.receive(userInfo: userInfo!) } catch { results.append("\(error.code)") }
            dismantle(&userInfo)
            let levels = 100_000
            let json = #"{"aps": {}, "deep": "# + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}"
            do throws(PushNotificationError) { _ = try controller.receive(payload: Data(json.utf8)) } catch { results.append("\(error.code)") }
            let small = #"{"aps": {}, "deep": "# + String(repeating: "{\"a\":", count: 500) + "1" + String(repeating: "}", count: 500) + "}"
            do throws(PushNotificationError) { _ = try controller.receive(payload: Data(small.utf8)) } catch { results.append("\(error)") }
            return results
        }
        #expect(descriptions == ["malformed", "tooLarge", "the payload is nested more than 32 levels deep"])
    }

    @Test func theBadgeIsObservable() throws {
        let controller = StandardNotificationController()
        let badges = controller.badgeCount.record()
        try controller.receive(payload: Data(#"{"aps": {"badge": 3}}"#.utf8))
        try controller.receive(payload: Data(#"{"aps": {"alert": "no badge"}}"#.utf8))
        try controller.receive(payload: Data(#"{"aps": {"badge": 0}}"#.utf8))
        #expect(badges.values == [3, 0])
        #expect(controller.badgeCount.value == 0)
    }

    @Test func aMalformedPayloadIsRefusedAndDeliversNothing() {
        let controller = StandardNotificationController()
        let delivered = Inbox<String?>()
        controller.handleOthers { delivered.record($0.category) }
        #expect(throws: PushNotificationError.self) {
            try controller.receive(payload: Data(#"{"aps": {"badge": "many"}}"#.utf8))
        }
        #expect(delivered.values.isEmpty)
        #expect(controller.badgeCount.value == 0)
    }

    @Test func everyNotificationIsDispatchedOnTheBus() throws {
        let metaController = MetaController()
        let controller = StandardNotificationController()
        metaController.notificationController = controller
        let received = metaController.signals.record(PushNotification.received)
        try controller.receive(userInfo: ["aps": ["category": "CHAT"]])
        #expect(received.values.map(\.category) == ["CHAT"])
    }

    @Test(
        arguments: [
            ([], ""),
            ([0x00], "00"),
            ([0x0A, 0xFF, 0x10], "0aff10"),
            (Array(repeating: UInt8(0xAB), count: 100), String(repeating: "ab", count: 100)),
        ] as [([UInt8], String)])
    func deviceTokensOfAnyLengthBecomeLowerCaseHex(bytes: [UInt8], hex: String) {
        let controller = StandardNotificationController()
        controller.didRegister(deviceToken: Data(bytes))
        #expect(controller.deviceToken.value == hex)
        #expect(Data(bytes).hexString == hex)
    }

    @Test func theTokenIsLoggedAsAPrivateValue() {
        let metaController = MetaController.withFakes()
        let controller = StandardNotificationController()
        metaController.notificationController = controller
        controller.didRegister(deviceToken: Data([0xDE, 0xAD]))
        #expect(metaController.fakeLogController?.messages == ["registered for remote notifications: <private>"])
    }
}

@Suite struct FakeNotificationControllerTests {
    @Test func recordsDeliveriesTokensAndTheBadge() throws {
        let metaController = MetaController.withFakes()
        let fake = try #require(metaController.fakeNotificationController)
        let received = metaController.signals.record(PushNotification.received)
        try fake.receive(payload: Data(#"{"aps": {"badge": 4, "category": "CHAT"}}"#.utf8))
        fake.didRegister(deviceToken: Data([1, 2]))
        #expect(fake.delivered.map(\.category) == ["CHAT"])
        #expect(fake.badgeCount.value == 4)
        #expect(fake.registeredTokens == [Data([1, 2])])
        #expect(fake.deviceToken.value == "0102")
        #expect(received.count == 1)
    }
}
