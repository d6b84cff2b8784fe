import Foundation
import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct PushNotificationTests {
    private func parse(_ json: String, kind: PushNotification.Kind = .regular) throws(PushNotificationError) -> PushNotification {
        try PushNotification(payload: Data(json.utf8), kind: kind)
    }

    private func expectRefused(_ json: String, _ code: PushNotificationError.Code, at keyPath: String) {
        #expect {
            try parse(json)
        } throws: { error in
            let error = error as? PushNotificationError
            return error?.code == code && error?.keyPath == keyPath
        }
    }

    // MARK: - Apple's examples

    @Test func anAlertWithTitleSubtitleBodyCategoryAndACustomKey() throws {
        let notification = try parse(
            """
            {"aps": {"alert": {"title": "Game Request", "subtitle": "Five Card Draw", "body": "Bob wants to play poker"},
                     "category": "GAME_INVITATION"},
             "gameID": "12345678"}
            """)
        #expect(
            notification.alert
                == PushNotification.Alert(
                    title: .text("Game Request"), subtitle: .text("Five Card Draw"), body: .text("Bob wants to play poker")))
        #expect(notification.category == "GAME_INVITATION")
        #expect(notification.customValues == ["gameID": .string("12345678")])
        #expect(notification.badge == nil && notification.sound == nil)
        #expect(!notification.isContentAvailable && !notification.isMutableContent)
    }

    @Test func aBadgeAndASoundByName() throws {
        let notification = try parse(
            """
            {"aps": {"alert": {"title": "Game Request", "body": "Bob wants to play poker"}, "badge": 9, "sound": "bingbong.aiff"},
             "messageID": "ABCDEFGHIJ"}
            """)
        #expect(notification.badge == 9)
        #expect(notification.sound == PushNotification.Sound(name: "bingbong.aiff"))
        #expect(notification.customValues["messageID"]?.stringValue == "ABCDEFGHIJ")
    }

    @Test func localizedAlertKeys() throws {
        let notification = try parse(
            """
            {"aps": {"alert": {"title-loc-key": "GAME_TITLE", "title-loc-args": ["Five Card Draw"],
                               "subtitle-loc-key": "GAME_SUBTITLE", "subtitle-loc-args": [],
                               "loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": ["Shelly", "Rick"],
                               "launch-image": "Launch.png"}}}
            """)
        #expect(notification.alert?.title == .localized(key: "GAME_TITLE", arguments: ["Five Card Draw"]))
        #expect(notification.alert?.subtitle == .localized(key: "GAME_SUBTITLE", arguments: []))
        #expect(notification.alert?.body == .localized(key: "GAME_PLAY_REQUEST_FORMAT", arguments: ["Shelly", "Rick"]))
        #expect(notification.alert?.launchImage == "Launch.png")
    }

    @Test func anAlertAsAPlainString() throws {
        #expect(try parse(#"{"aps": {"alert": "Hello"}}"#).alert == PushNotification.Alert(body: .text("Hello")))
    }

    @Test func aCriticalAlertSound() throws {
        let notification = try parse(#"{"aps": {"sound": {"critical": 1, "name": "gameover.aiff", "volume": 1.0}}}"#)
        #expect(notification.sound == PushNotification.Sound(name: "gameover.aiff", isCritical: true, volume: 1))
    }

    @Test func aBackgroundUpdateWithCustomKeys() throws {
        let notification = try parse(#"{"aps": {"content-available": 1}, "acme1": "bar", "acme2": 42}"#)
        #expect(notification.isContentAvailable)
        #expect(notification.alert == nil)
        #expect(notification.customValues["acme1"] == .string("bar"))
        #expect(notification.customValues["acme2"]?.intValue == 42)
    }

    @Test func theOtherApsKeys() throws {
        let notification = try parse(
            """
            {"aps": {"thread-id": "chat-7", "mutable-content": 1, "target-content-id": "window-2",
                     "interruption-level": "time-sensitive", "relevance-score": 0.75, "filter-criteria": "work",
                     "future-key": [1, true]}}
            """)
        #expect(notification.threadID == "chat-7")
        #expect(notification.isMutableContent)
        #expect(notification.targetContentID == "window-2")
        #expect(notification.interruptionLevel == .timeSensitive)
        #expect(notification.relevanceScore == 0.75)
        #expect(notification.filterCriteria == "work")
        #expect(notification.otherAPSValues == ["future-key": .array([.number(1), .bool(true)])])
    }

    @Test func aLiveActivityUpdate() throws {
        let notification = try parse(
            """
            {"aps": {"timestamp": 1685952000, "event": "update",
                     "content-state": {"currentHealthLevel": 0.941, "eventDescription": "Power Panda found a sword!"},
                     "stale-date": 1685959200, "dismissal-date": 1685962800,
                     "alert": {"title": {"loc-key": "%@ found a sword!", "loc-args": ["Power Panda"]},
                               "body": {"loc-key": "%@ found a sword in %@!", "loc-args": ["Power Panda", "Dungeon"]}},
                     "sound": "chime.aiff"}}
            """)
        let activity = try #require(notification.liveActivity)
        #expect(activity.timestamp == Date(timeIntervalSince1970: 1_685_952_000))
        #expect(activity.event == "update")
        #expect(activity.contentState?["currentHealthLevel"] == .number(0.941))
        #expect(activity.contentState?["eventDescription"]?.stringValue == "Power Panda found a sword!")
        #expect(activity.staleDate == Date(timeIntervalSince1970: 1_685_959_200))
        #expect(activity.dismissalDate == Date(timeIntervalSince1970: 1_685_962_800))
        #expect(notification.alert?.title == .localized(key: "%@ found a sword!", arguments: ["Power Panda"]))
        #expect(notification.alert?.body == .localized(key: "%@ found a sword in %@!", arguments: ["Power Panda", "Dungeon"]))
    }

    @Test func aLiveActivityStart() throws {
        let notification = try parse(
            """
            {"aps": {"timestamp": 1685952000, "event": "start", "attributes-type": "AdventureAttributes",
                     "attributes": {"currentHealthLevel": 100, "eventDescription": "Adventure has begun!"},
                     "content-state": {"currentHealthLevel": 100}}}
            """)
        #expect(notification.liveActivity?.attributesType == "AdventureAttributes")
        #expect(notification.liveActivity?.attributes?["eventDescription"]?.stringValue == "Adventure has begun!")
    }

    // MARK: - Malformed payloads

    @Test(arguments: [
        (#"{"aps": {"badge": "9"}}"#, "aps.badge"),
        (#"{"aps": {"alert": 7}}"#, "aps.alert"),
        (#"{"aps": {"alert": {"title": 7}}}"#, "aps.alert.title"),
        (#"{"aps": {"alert": {"loc-key": "K", "loc-args": ["a", 2]}}}"#, "aps.alert.loc-args[1]"),
        (#"{"aps": {"alert": {"loc-key": "K", "loc-args": "a"}}}"#, "aps.alert.loc-args"),
        (#"{"aps": {"sound": ["x"]}}"#, "aps.sound"),
        (#"{"aps": {"sound": {"name": 3}}}"#, "aps.sound.name"),
        (#"{"aps": {"category": false}}"#, "aps.category"),
        (#"{"aps": {"content-available": true}}"#, "aps.content-available"),
        (#"{"aps": {"relevance-score": "high"}}"#, "aps.relevance-score"),
        (#"{"aps": {"content-state": [1]}}"#, "aps.content-state"),
        (#"{"aps": "hello"}"#, "aps"),
    ])
    func wrongTypesAreRefusedNamingTheKey(json: String, keyPath: String) {
        expectRefused(json, .wrongType, at: keyPath)
    }

    @Test(arguments: [
        (#"{"aps": {"badge": -1}}"#, "aps.badge"),
        (#"{"aps": {"badge": 1.5}}"#, "aps.badge"),
        (#"{"aps": {"sound": {"critical": 2, "name": "x"}}}"#, "aps.sound.critical"),
        (#"{"aps": {"sound": {"volume": 1.5}}}"#, "aps.sound.volume"),
        (#"{"aps": {"content-available": 2}}"#, "aps.content-available"),
        (#"{"aps": {"mutable-content": -1}}"#, "aps.mutable-content"),
        (#"{"aps": {"relevance-score": 1.01}}"#, "aps.relevance-score"),
        (#"{"aps": {"interruption-level": "urgent"}}"#, "aps.interruption-level"),
        (#"{"aps": {"event": "pause"}}"#, "aps.event"),
        (#"{"aps": {"timestamp": -5}}"#, "aps.timestamp"),
    ])
    func outOfRangeValuesAreRefusedNamingTheKey(json: String, keyPath: String) {
        expectRefused(json, .invalidValue, at: keyPath)
    }

    @Test func missingKeysAreNamed() {
        expectRefused(#"{"gameID": "1"}"#, .missingKey, at: "aps")
        expectRefused(#"{"aps": {"alert": {"loc-args": ["a"]}}}"#, .missingKey, at: "aps.alert.loc-key")
        expectRefused(#"{"aps": {"alert": {"title": {"loc-args": []}}}}"#, .missingKey, at: "aps.alert.title.loc-key")
    }

    @Test(arguments: ["", "{", "[1, 2]", "\"aps\"", "null", "{\"aps\": {}} trailing", String(repeating: "[", count: 40) + String(repeating: "]", count: 40)])
    func malformedPayloadsAreRefused(json: String) {
        expectRefused(json, .malformed, at: "")
    }

    @Test(arguments: [
        (#"{"aps": {"badge": 1, "badge": 9}}"#, "aps.badge"),
        (#"{"aps": {"badge": 1, "b\u0061dge": 9}}"#, "aps.badge"),
        (#"{"aps": {}, "aps": {"badge": 9}}"#, "aps"),
        (#"{"aps": {"alert": {"title": "a", "title": "b"}}}"#, "aps.alert.title"),
        (#"{"aps": {}, "items": [{"id": 1}, {"id": 2, "id": 3}]}"#, "items[1].id"),
    ])
    func aKeyThatAppearsTwiceIsRefusedWithItsPath(json: String, keyPath: String) throws {
        expectRefused(json, .duplicateKey, at: keyPath)
        let error = try #require(throws: PushNotificationError.self) { try parse(json) }
        #expect(error.description == "\(keyPath): the key appears twice")
        let utf16 = try #require(json.data(using: .utf16BigEndian))
        #expect(throws: error) { try PushNotification(payload: utf16) }
    }

    @Test func payloadsOverTheLimitAreRefusedAndVoIPHasMore() throws {
        let padding = String(repeating: "x", count: 4096 - #"{"aps": {}, "pad": ""}"#.utf8.count)
        let exactly4096 = #"{"aps": {}, "pad": "\#(padding)"}"#
        #expect(exactly4096.utf8.count == 4096)
        _ = try parse(exactly4096)
        let over = #"{"aps": {}, "pad": "\#(padding)x"}"#
        #expect {
            try parse(over)
        } throws: { error in
            (error as? PushNotificationError)?.code == .tooLarge
                && (error as? PushNotificationError)?.description == "the payload is 4097 bytes; APNs allows 4096"
        }
        _ = try parse(over, kind: .voip)
        let overVoIP = #"{"aps": {}, "pad": "\#(String(repeating: "x", count: 5120))"}"#
        #expect(throws: PushNotificationError.self) { try parse(overVoIP, kind: .voip) }
    }

    @Test func aUserInfoDictionaryParsesLikeItsJSON() throws {
        let userInfo: [AnyHashable: Any] = ["aps": ["alert": "Hi", "badge": 2], "gameID": "7"]
        let notification = try PushNotification(userInfo: userInfo)
        #expect(notification.alert?.body == .text("Hi"))
        #expect(notification.badge == 2)
        #expect(notification.customValues["gameID"] == .string("7"))
        #expect(throws: PushNotificationError.self) { try PushNotification(userInfo: [1: "not a string key"]) }
        #expect(throws: PushNotificationError.self) { try PushNotification(userInfo: ["aps": Date()]) }
    }

    /// `{"aps": {}, "deep": ...}` with `levels` dictionaries or arrays below `deep`.
    static func deepUserInfo(levels: Int, arrays: Bool) -> [AnyHashable: Any]? {
        var value: Any = "bottom"
        for _ in 0..<levels { value = arrays ? [value] as [Any] : ["next": value] as [String: Any] }
        return ["aps": [String: Any](), "deep": value]
    }

    @Test(arguments: [(100_000, false), (100_000, true), (20_000, false), (7_000, true)])
    func aDeeplyNestedUserInfoIsRefusedBeforeFoundationSeesIt(levels: Int, arrays: Bool) async {
        let description = await onSmallStack { () -> String in
            var userInfo = Self.deepUserInfo(levels: levels, arrays: arrays)
            let result = Result { () throws(PushNotificationError) in try PushNotification(userInfo: userInfo!) }
            dismantle(&userInfo)
            switch result {
            case .success: return "parsed"
            case .failure(let error): return "\(error.code): \(error)"
            }
        }
        #expect(description == "malformed: the payload is nested more than 32 levels deep")
    }

    @Test func aUserInfoNestedExactlyToTheLimitParses() throws {
        // The outer dictionary, then 31 levels below "deep".
        let notification = try PushNotification(userInfo: Self.deepUserInfo(levels: 31, arrays: true)!)
        #expect(notification.customValues["deep"] != nil)
        #expect(throws: PushNotificationError.self) { try PushNotification(userInfo: Self.deepUserInfo(levels: 32, arrays: true)!) }
        // Foundation's own collections count too.
        var nested: Any = NSArray(array: [1])
        for _ in 0..<31 { nested = NSArray(array: [nested]) }
        #expect(throws: PushNotificationError.self) { try PushNotification(userInfo: ["aps": [String: Any](), "deep": nested]) }
        let shallow = NSDictionary(dictionary: ["inner": NSArray(array: [1])])
        #expect(
            try PushNotification(userInfo: ["aps": [String: Any](), "deep": shallow]).customValues["deep"]
                == .object(["inner": .array([.number(1)])]))
    }

    @Test(arguments: [100_000, 2_000, 33])
    func deeplyNestedPayloadBytesAreRefusedOnASmallStack(levels: Int) async {
        let description = await onSmallStack { () -> String in
            let json = #"{"aps": {}, "deep": "# + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}"
            do throws(PushNotificationError) {
                _ = try PushNotification(payload: Data(json.utf8), kind: .voip)
                return "parsed"
            } catch {
                return "\(error.code)"
            }
        }
        #expect(description == (levels > 5120 ? "tooLarge" : "malformed"))
    }

    @Test func aUTF16PayloadCannotHideItsNestingInAString() async throws {
        // "∀" is 0x2200: in UTF-16 one of its bytes is a quotation mark, which a byte scan takes for the string's end.
        let json = #"{"aps": {}, "s": "∀", "deep": "# + String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000) + "}"
        let payload = json.data(using: .utf16LittleEndian)!
        #expect(payload.count <= 5120)
        let description = await onSmallStack { () -> String in
            do {
                _ = try PushNotification(payload: payload, kind: .voip)
                return "parsed"
            } catch {
                return "\(error)"
            }
        }
        #expect(description == "the payload is nested more than 32 levels deep")
        let shallow = #"{"aps": {"badge": 3}, "s": "∀"}"#.data(using: .utf16LittleEndian)!
        #expect(try PushNotification(payload: shallow).badge == 3)
    }

    @Test func randomBytesNeverCrashTheParser() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["{", "}", "[", "]", "\"aps\"", ":", ",", "\"badge\"", "1", "-1", "\"x\"", "true", "null", "\"alert\"", " "]
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0..<30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            _ = try? PushNotification(payload: Data(text.utf8))
        }
    }
}

@Suite struct JSONValueTests {
    @Test func keepsBooleansAndNumbersApart() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"[true, 1, 1.5, "s", null, {"k": []}]"#.utf8))
        #expect(value == .array([.bool(true), .number(1), .number(1.5), .string("s"), .null, .object(["k": .array([])])]))
        #expect(value.description == #"[true,1,1.5,"s",null,{"k":[]}]"#)
    }

    @Test func accessorsAnswerOnlyForTheirKind() {
        #expect(JSONValue.number(42).intValue == 42)
        #expect(JSONValue.number(4.2).intValue == nil)
        #expect(JSONValue.string("42").intValue == nil)
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(JSONValue.number(2.5).doubleValue == 2.5)
    }
}
