import Foundation
import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

@Suite struct LogFormatTests {
    private let entry = LogEntry(
        level: .warning, message: "said \"hi\"\nthen\tleft", file: "App/Screens/FeedScreen.swift",
        function: "reload()", line: 12, date: Date(timeIntervalSince1970: 1_795_000_000.125))

    @Test func lineIsTheShortcutLine() {
        #expect(LogFormat.line.format(entry) == #"FeedScreen.swift (line 12): reload(): said "hi"\x0Athen\x09left"#)
        #expect(LogFormat.line.format(entry) == entry.description)
    }

    @Test func detailedLinePrefixesTimeAndLevel() {
        #expect(
            LogFormat.detailedLine.format(entry)
                == #"2026-11-18T11:06:40.125Z [warning] FeedScreen.swift (line 12): reload(): said "hi"\x0Athen\x09left"#)
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

    // MARK: - Timestamps

    private static func foundationTimestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    @Test func theDocumentedInstantIsWrittenAsDocumented() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(formatter.date(from: "2026-11-22T10:15:03.120Z"))
        let entry = LogEntry(level: .debug, message: "reloading", file: "FeedScreen.swift", function: "reload()", line: 12, date: date)
        #expect(LogFormat.detailedLine.format(entry) == "2026-11-22T10:15:03.120Z [debug] FeedScreen.swift (line 12): reload(): reloading")
        #expect(
            LogFormat.jsonLines.format(entry) == #"{"time":"2026-11-22T10:15:03.120Z","level":"debug","file":"FeedScreen.swift","#
                + #""function":"reload()","line":12,"message":"reloading"}"#)
        // The same instant built from its components, as a user might.
        let components = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
            year: 2026, month: 11, day: 22, hour: 10, minute: 15, second: 3, nanosecond: 120_000_000)
        #expect(LogFormat.timestamp(try #require(components.date)) == "2026-11-22T10:15:03.120Z")
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (0.0004999, "1970-01-01T00:00:00.000Z"),
        (0.0015, "1970-01-01T00:00:00.002Z"),
        (-0.0004, "1970-01-01T00:00:00.000Z"),
        (-0.0006, "1969-12-31T23:59:59.999Z"),
        (59.9996, "1970-01-01T00:01:00.000Z"),
        (951_868_799.9996, "2000-03-01T00:00:00.000Z"),   // across the leap day of 2000
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (4_102_444_799.9996, "2100-01-01T00:00:00.000Z"),
        (1_795_000_000.125, "2026-11-18T11:06:40.125Z"),
        (-62_135_596_800, "0001-01-01T00:00:00.000Z"),
        (253_402_300_799.999, "9999-12-31T23:59:59.999Z"),
    ])
    func timestampsRoundToTheNearestMillisecondAndCarry(seconds: Double, expected: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(LogFormat.timestamp(date) == expected)
        // Foundation's formatter switches to the Julian calendar before 1582; ISO 8601 and this package do not.
        if seconds > -12_219_292_800 { #expect(Self.foundationTimestamp(date) == expected) }
    }

    @Test(arguments: [0.0625, 1.0625, 0.1875, -0.0625, -100.0625, 800_000_000.5625, -978_307_200.0625, 1e-300, -1e-300])
    func aHalfMillisecondRoundsToTheLaterOneAsFoundationDoes(sinceReferenceDate seconds: Double) {
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        #expect(LogFormat.timestamp(date) == Self.foundationTimestamp(date))
    }

    @Test func aSeededSweepAgreesWithFoundationsFormatter() {
        var generator = SeededGenerator(seed: 4)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let end = 4_102_444_800.0   // 2100-01-01
        var mismatches: [String] = []
        for index in 0..<20_000 {
            let seconds: Double
            switch index % 5 {
            case 0: seconds = Double.random(in: 0..<end, using: &generator)
            case 1:   // within a microsecond of a half millisecond
                let millisecond = Double(Int64.random(in: 0..<Int64(end) * 1000, using: &generator))
                seconds = (millisecond + 0.5) / 1000 + Double.random(in: -1e-6...1e-6, using: &generator)
            case 2:   // just before a year, month or day ends
                let day = Double(Int64.random(in: 0..<47_482, using: &generator))
                seconds = day * 86_400 - Double.random(in: 0..<0.002, using: &generator)
            case 3: seconds = Double(Int64.random(in: 0..<Int64(end), using: &generator)) + Double(Int.random(in: 0..<2000, using: &generator)) / 2000
            default: seconds = Double.random(in: -1..<1, using: &generator) * 1e-3 + 978_307_200   // around 2001
            }
            let date = Date(timeIntervalSince1970: seconds)
            let ours = LogFormat.timestamp(date), foundation = formatter.string(from: date)
            if ours != foundation { mismatches.append("\(date.timeIntervalSinceReferenceDate): \(ours) != \(foundation)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, such as \(mismatches.prefix(5))")
    }

    @Test func yearEndsAndLeapDaysAgreeWithFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for year in 1970...2100 {
            for (month, day) in [(1, 1), (2, 28), (2, 29), (3, 1), (12, 31)] {
                guard let midnight = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { continue }
                for offset in [-0.0006, -0.0005, -0.0004, 0, 0.0004, 0.0005, 0.0006, 86_399.9995, 86_399.9996] {
                    let date = midnight.addingTimeInterval(offset)
                    #expect(LogFormat.timestamp(date) == formatter.string(from: date))
                }
            }
        }
    }

    @Test func datesOutsideYearsOneToNineThousandNineHundredNinetyNineStillFormat() {
        #expect(!LogFormat.timestamp(.distantPast).isEmpty)
        #expect(!LogFormat.timestamp(Date(timeIntervalSinceReferenceDate: .infinity)).isEmpty)
        #expect(!LogFormat.timestamp(Date(timeIntervalSinceReferenceDate: 1e300)).isEmpty)
    }

    private var entryWithMetadata: LogEntry {
        var entry = entry
        entry.message = "listed"
        entry.metadata = ["req": "72b5", "user": "ada lovelace"]
        return entry
    }

    @Test func everyFormatWritesTheMetadataAfterTheMessage() {
        #expect(LogFormat.line.format(entryWithMetadata) == #"FeedScreen.swift (line 12): reload(): listed [req=72b5 user="ada lovelace"]"#)
        #expect(entryWithMetadata.description == LogFormat.line.format(entryWithMetadata))
        #expect(
            LogFormat.detailedLine.format(entryWithMetadata)
                == #"2026-11-18T11:06:40.125Z [warning] FeedScreen.swift (line 12): reload(): listed [req=72b5 user="ada lovelace"]"#)
        #expect(
            LogFormat.jsonLines.format(entryWithMetadata)
                == #"{"time":"2026-11-18T11:06:40.125Z","level":"warning","file":"FeedScreen.swift","function":"reload()","line":12,"#
                + #""message":"listed","req":"72b5","user":"ada lovelace"}"#)
    }

    @Test func aMetadataKeyNamingABuiltInFieldIsPrefixedInJSONLines() throws {
        var entry = entry
        entry.message = "m"
        entry.metadata = ["level": "fake", "metadata.level": "taken", "message\"": "q", "time": "t"]
        let line = LogFormat.jsonLines.format(entry)
        #expect(
            line.hasSuffix(
                #""message":"m","metadata.metadata.level":"fake","metadata.level":"taken","message\"":"q","metadata.time":"t"}"#))
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object.count == 10)
    }
}

/// Log injection: control characters in the line formats.
extension LogFormatTests {
    /// Reads an escaped field back, independently of the encoder: `\x` and two hexadecimal digits is
    /// that code point; every other character, a lone backslash included, stands for itself.
    /// `nil` for a `\x` without two digits, which the encoder never writes.
    private static func unescaped(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView(), index = 0
        while index < scalars.count {
            let rest = String(String.UnicodeScalarView(scalars[index...].prefix(6)))
            if rest == #"\u2028"# || rest == #"\u2029"# {
                result.append(rest == #"\u2028"# ? "\u{2028}" : "\u{2029}")
                index += 6
            } else if scalars[index] == "\\", index + 1 < scalars.count, scalars[index + 1] == "x" {
                guard index + 3 < scalars.count, scalars[index + 2].properties.isASCIIHexDigit, scalars[index + 3].properties.isASCIIHexDigit,
                    let value = UInt32(String(scalars[index + 2]) + String(scalars[index + 3]), radix: 16)
                else { return nil }
                result.append(Unicode.Scalar(UInt8(value)))
                index += 4
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    @Test func everyFieldThatIsNotTheFormatsOwnTextIsEscaped() {
        let entry = LogEntry(
            level: .error, message: "a\nb\rc\u{1B}[2Kd\u{7F}e\u{85}f\u{9F}g\u{A0}h", file: "Mod/Fi\u{1}le.swift",
            function: "f\u{9B}()", line: 3, date: Date(timeIntervalSince1970: 0), metadata: ["k": "v\u{7F}", "x": "é\u{8}"])
        #expect(
            LogFormat.line.format(entry)
                == #"Fi\x01le.swift (line 3): f\x9B(): a\x0Ab\x0Dc\x1B[2Kd\x7Fe\x85f\x9Fg"# + "\u{A0}h" + #" [k="v\u007f" x="é\u0008"]"#)
        #expect(LogFormat.detailedLine.format(entry).hasPrefix("1970-01-01T00:00:00.000Z [error] Fi\\x01le.swift (line 3): "))
    }

    @Test func aBackslashIsEscapedOnlyWhereAnXFollowsIt() {
        func line(_ message: String) -> String {
            LogFormat.line.format(LogEntry(level: .info, message: message, file: "F.swift", function: "f()", line: 1))
                .replacingOccurrences(of: "F.swift (line 1): f(): ", with: "")
        }
        #expect(line(#"C:\Users\ada"#) == #"C:\Users\ada"#)
        #expect(line(#"\x41"#) == #"\x5Cx41"#)
        #expect(line(#"\\x"#) == #"\\x5Cx"#)
        #expect(line("\\\n") == #"\\x0A"#)
        #expect(line("end\\") == #"end\"#)
        #expect(Self.unescaped(line(#"\x5Cx41"#)) == #"\x5Cx41"#)
        #expect(line(#"\u2028"#) == #"\x5Cu2028"#)
        #expect(line(#"\u20299"#) == #"\x5Cu20299"#)
        #expect(line(#"C:\users \u202"#) == #"C:\users \u202"#)
        #expect(Self.unescaped(line(#"\u2028"#)) == #"\u2028"#)
    }

    /// U+2028 and U+2029, which Python's `splitlines` and many viewers take for line ends, are
    /// escaped: the second half of a message cannot be read as a forged entry.
    @Test func lineAndParagraphSeparatorsAreEscapedAndReadBack() throws {
        let message = "mallory\u{2028}2026-11-22T10:15:03.120Z [critical] Auth.swift (line 1): login(): FORGED\u{2029}end"
        let entry = LogEntry(level: .info, message: message, file: "Auth.swift", function: "login()", line: 7)
        for format in [LogFormat.line, .detailedLine] {
            let line = format.format(entry)
            #expect(!line.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 })
            #expect(line.hasSuffix(#"mallory\u20282026-11-22T10:15:03.120Z [critical] Auth.swift (line 1): login(): FORGED\u2029end"#))
        }
        let json = LogFormat.jsonLines.format(entry)
        #expect(!json.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 || (0x7F...0x9F).contains($0.value) })
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["message"] as? String == message)
        let controls = LogFormat.jsonLines.format(LogEntry(level: .info, message: "a\u{7F}b\u{85}c\u{9F}", file: "F.swift", function: "f()", line: 1))
        #expect(controls.contains(#""message":"a\u007fb\u0085c\u009f""#))
    }

    @Test func aSeededSweepOverEveryCodePointLeavesNoControlByteAndReadsBackExactly() throws {
        var generator = SeededGenerator(seed: 0x1_0927)
        // Every scalar, in random order, in short random messages, with backslashes and x's mixed in.
        var scalars = (0...0x10FFFF as ClosedRange<UInt32>).compactMap { Unicode.Scalar($0) }
        scalars.shuffle(using: &generator)
        var position = 0
        var checked = 0
        while position < scalars.count {
            let count = Int.random(in: 1...24, using: &generator)
            var message = String.UnicodeScalarView()
            for scalar in scalars[position..<min(position + count, scalars.count)] {
                if Int.random(in: 0..<6, using: &generator) == 0 { message.append("\\") }
                message.append(scalar)
                if Int.random(in: 0..<6, using: &generator) == 0 {
                    message.append(contentsOf: ["x", "u2028", "u2029", "u202"][Int.random(in: 0..<4, using: &generator)].unicodeScalars)
                }
            }
            position += count
            let text = String(message)
            let entry = LogEntry(level: .info, message: text, file: "F.swift", function: "f()", line: 1)
            let line = LogFormat.line.format(entry)
            let bytes = Array((line + "\n").utf8)
            guard bytes.dropLast().allSatisfy({ $0 >= 0x20 && $0 != 0x7F }), bytes.last == 0x0A,
                !line.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029 })
            else {
                Issue.record("a control character reached the line: \(Array(text.unicodeScalars.map(\.value)))")
                return
            }
            // By scalars: a message that starts with a combining mark joins the format's space in one Character.
            let field = String(line.unicodeScalars.dropFirst("F.swift (line 1): f(): ".unicodeScalars.count))
            guard Self.unescaped(field) == text else {
                Issue.record("\(Array(text.unicodeScalars.map(\.value))) reads back as \(String(describing: Self.unescaped(field)))")
                return
            }
            checked += 1
        }
        #expect(checked > 80_000)
    }

    /// A 10 MB message of nothing but characters to escape: every byte escaped,
    /// nothing recursing per character (a 512 KB stack), in time linear in its length
    /// (it was quadratic: more than 18 minutes in a debug build).
    @Test func aTenMegabyteMessageOfControlsIsEscapedWholeOnASmallStack() async {
        let size = 10 * 1024 * 1024
        let results = await onSmallStack { () -> [Bool] in
            let message = String(repeating: "\n\\x\u{85}\u{1B}", count: size / 5)
            let entry = LogEntry(level: .info, message: message, file: "F.swift", function: "f()", line: 1)
            let line = LogFormat.line.format(entry)
            let field = String(line.utf8.dropFirst("F.swift (line 1): f(): ".utf8.count))!
            let json = LogFormat.jsonLines.format(entry)
            return [
                field == String(repeating: #"\x0A\x5Cx\x85\x1B"#, count: size / 5),
                json.utf8.count > size && !json.utf8.contains(0x0A),
            ]
        }
        #expect(results == [true, true])
    }
}
