import Foundation
import MetaController
import Testing

@Suite struct LogFormatTests {
    private let entry = LogEntry(
        level: .warning, message: "said \"hi\"\nthen\tleft", file: "App/Screens/FeedScreen.swift",
        function: "reload()", line: 12, date: Date(timeIntervalSince1970: 1_795_000_000.125))

    @Test func lineIsTheShortcutLine() {
        #expect(LogFormat.line.format(entry) == "FeedScreen.swift (line 12): reload(): said \"hi\"\nthen\tleft")
        #expect(LogFormat.line.format(entry) == entry.description)
    }

    @Test func detailedLinePrefixesTimeAndLevel() {
        #expect(LogFormat.detailedLine.format(entry)
            == "2026-11-18T11:06:40.125Z [warning] FeedScreen.swift (line 12): reload(): said \"hi\"\nthen\tleft")
    }

    @Test func jsonLinesIsOneValidJSONObjectPerLine() throws {
        let line = LogFormat.jsonLines.format(entry)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2026-11-18T11:06:40.125Z")
        #expect(object["level"] as? String == "warning")
        #expect(object["file"] as? String == "FeedScreen.swift")
        #expect(object["function"] as? String == "reload()")
        #expect(object["line"] as? Int == 12)
        #expect(object["message"] as? String == "said \"hi\"\nthen\tleft")
    }

    @Test func controlCharactersAreEscapedInJSON() throws {
        let odd = LogEntry(level: .info, message: "a\u{1}b\\c", file: "F.swift", function: "f()", line: 1)
        let line = LogFormat.jsonLines.format(odd)
        #expect(line.contains(#""message":"a\u0001b\\c""#))
        #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
    }
}
