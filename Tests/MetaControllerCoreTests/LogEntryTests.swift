import Foundation
import MetaController
import Testing
import MetaControllerTestSupport

struct LogEntryTests {
    @Test func descriptionIsTheOriginalLine() {
        let entry = LogEntry(
            level: .debug, message: "Bazinga!", file: "MyApp/LocationController.swift",
            function: "updateLocation()", line: 34)
        #expect(entry.description == "LocationController.swift (line 34): updateLocation(): Bazinga!")
    }

    @Test(arguments: [
        ("LocationController.swift", "LocationController.swift"),
        ("MyApp/LocationController.swift", "LocationController.swift"),
        ("/Users/me/MyApp/Sources/Screens/LocationController.swift", "LocationController.swift"),
        (#"C:\src\LocationController.swift"#, "LocationController.swift"),
        ("", ""),
        ("Folder/", ""),
    ])
    func fileNameDropsModuleAndFolders(file: String, name: String) {
        let entry = LogEntry(level: .info, message: "m", file: file, function: "f()", line: 1)
        #expect(entry.fileName == name)
    }

    @Test func keepsEveryField() {
        let date = Date(timeIntervalSince1970: 1_000)
        let entry = LogEntry(level: .error, message: "boom", file: "A/B.swift", function: "run()", line: 7, date: date)
        #expect(entry.level == .error)
        #expect(entry.message == "boom")
        #expect(entry.file == "A/B.swift")
        #expect(entry.function == "run()")
        #expect(entry.line == 7)
        #expect(entry.date == date)
    }

    @Test func transformMessageChangesBothForms() {
        let email = "ada@example.com"
        var entry = LogEntry(level: .info, message: "signed in as \(email, privacy: .private)", file: "A/B.swift", function: "f()", line: 1)
        entry.transformMessage { "[sync] " + $0 }
        #expect(entry.message == "[sync] signed in as <private>")
        #expect(entry.message(revealingPrivateValues: false) == "[sync] signed in as <private>")
        #if DEBUG
        #expect(entry.message(revealingPrivateValues: true) == "[sync] signed in as ada@example.com")
        #else
        #expect(entry.message(revealingPrivateValues: true) == "[sync] signed in as <private>")
        #endif
    }

    @Test func settingTheMessageReplacesTheRedactedFormOnly() {
        var entry = LogEntry(level: .info, message: "a \(1, privacy: .private)", file: "A/B.swift", function: "f()", line: 1)
        entry.message = "b"
        #expect(entry.message(revealingPrivateValues: false) == "b")
        #if DEBUG
        #expect(entry.message(revealingPrivateValues: true) == "a 1")
        #endif
    }

    #if DEBUG
    @Test func aThrowingTransformLeavesTheEntryUnchanged() {
        struct Refused: Error {}
        var entry = LogEntry(level: .info, message: "a \(1, privacy: .private)", file: "A/B.swift", function: "f()", line: 1)
        let before = entry
        #expect(throws: Refused.self) {
            var calls = 0
            try entry.transformMessage { text in
                calls += 1
                if calls == 2 { throw Refused() }
                return text + "!"
            }
        }
        #expect(entry == before)
    }
    #endif
}
