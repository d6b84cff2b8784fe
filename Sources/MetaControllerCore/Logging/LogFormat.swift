import Foundation

/// How a destination writes an entry: as the shortcut line, the same line with
/// time and level, or one JSON object per line.
///
/// ```swift
/// LogFormat.line.format(entry)          // FeedScreen.swift (line 12): reload(): reloading
/// LogFormat.detailedLine.format(entry)  // 2026-11-22T10:15:03.120Z [debug] FeedScreen.swift (line 12): reload(): reloading
/// LogFormat.jsonLines.format(entry)     // {"time":"2026-11-22T10:15:03.120Z","level":"debug","file":"FeedScreen.swift",...}
/// ```
///
/// An entry's ``LogEntry/metadata`` follows the message: in the lines as
/// ` [req=72b5 user=ada]` (``LogMetadata/description``), in JSON lines as
/// one string field per pair after `message`. A metadata key that names a
/// built-in field (`time`, `level`, `file`, `function`, `line`, `message`) is
/// written as `metadata.` followed by the key (`"metadata.level":"…"`), so the
/// built-in fields keep their meaning and no field appears twice.
public struct LogFormat: Sendable, Equatable, CustomStringConvertible {
    private enum Kind: String, Sendable {
        case line, detailedLine, jsonLines
    }

    private let kind: Kind

    /// `File.swift (line N): function(): message [key=value ...]`, as ``LogEntry/description`` gives it.
    public static let line = LogFormat(kind: .line)
    /// The line prefixed with the time (ISO 8601, UTC, milliseconds) and the level in brackets.
    public static let detailedLine = LogFormat(kind: .detailedLine)
    /// One JSON object per line with `time`, `level`, `file`, `function`, `line`,
    /// `message` and then one field per metadata pair: for files and machines.
    public static let jsonLines = LogFormat(kind: .jsonLines)

    /// The format's name: `line`, `detailedLine` or `jsonLines`.
    public var description: String { kind.rawValue }

    /// Renders `entry` without a line break.
    ///
    /// - Parameters:
    ///   - entry: The entry.
    ///   - revealingPrivateValues: Whether private values are shown; honoured in debug builds only.
    public func format(_ entry: LogEntry, revealingPrivateValues: Bool = false) -> String {
        let message = entry.message(revealingPrivateValues: revealingPrivateValues)
        switch kind {
        case .line, .detailedLine:
            // Every field that is not the format's own text is escaped, so no entry can end its line early,
            // forge another, or reach a terminal's control sequences.
            let metadata = entry.metadata.isEmpty ? "" : " [\(Self.escapingControls(entry.metadata.description))]"
            let text =
                "\(Self.escapingControls(entry.fileName)) (line \(entry.line)): \(Self.escapingControls(entry.function)): "
                + Self.escapingControls(message) + metadata
            return kind == .line ? text : "\(Self.timestamp(entry.date)) [\(entry.level)] " + text
        case .jsonLines:
            return "{\"time\":\"\(Self.timestamp(entry.date))\",\"level\":\"\(entry.level)\",\"file\":\(Self.quoted(entry.fileName)),"
                + "\"function\":\(Self.quoted(entry.function)),\"line\":\(entry.line),\"message\":\(Self.quoted(message))"
                + Self.jsonFields(entry.metadata) + "}"
        }
    }

    /// The names of the fields every JSON line has.
    private static let builtInFields: Set<String> = ["time", "level", "file", "function", "line", "message"]

    /// `,"key":"value"` for each pair; a key that names a built-in field, or
    /// (after that renaming) another pair's key, gets `metadata.` in front.
    private static func jsonFields(_ metadata: LogMetadata) -> String {
        guard !metadata.isEmpty else { return "" }
        let pairs = metadata.pairs
        var used = builtInFields.union(pairs.map(\.key))
        var fields = ""
        for (key, value) in pairs {
            var name = key
            if builtInFields.contains(key) {
                name = "metadata." + key
                while used.contains(name) { name = "metadata." + name }
                used.insert(name)
            }
            fields += ",\(quoted(name)):\(quoted(value))"
        }
        return fields
    }

    /// `text` with the characters a line must not carry raw written as `\xHH`, the code point in two
    /// upper-case hexadecimal digits: C0 controls U+0000 to U+001F (line feed, carriage return and tab
    /// included), DEL U+007F and the C1 controls U+0080 to U+009F (`\u{1B}` is `\x1B`, `\u{85}` is `\x85`);
    /// and the line and paragraph separators U+2028 and U+2029, which tools that split lines on them
    /// (Python's `splitlines`, many viewers) take for line ends, written `\u2028` and `\u2029`.
    /// A backslash followed by `x`, or by `u2028` or `u2029`, is written `\x5C`, so in the result `\x`
    /// always starts an escape of exactly two digits, `\u2028` and `\u2029` always stand for the
    /// separators, and every other backslash stands for itself: the text can be read back exactly.
    static func escapingControls(_ text: String) -> String {
        // Byte by byte over the UTF-8, into a byte buffer: linear in the text's length (appending
        // a sequence to a `String.UnicodeScalarView` copies the whole view, so a long text of
        // controls took time quadratic in its length). In valid UTF-8 a C1 control U+0080...U+009F
        // is exactly the lead byte 0xC2 followed by 0x80...0x9F, and 0xC2 is never a continuation byte.
        let utf8 = text.utf8
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 || $0 == UInt8(ascii: "\\") }) else {
            return text
        }
        let source = Array(utf8)
        var result: [UInt8] = []
        result.reserveCapacity(source.count + source.count / 4)
        func hexDigit(_ digit: UInt8) -> UInt8 { digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10 }
        func escape(_ value: UInt8) {
            result.append(UInt8(ascii: "\\"))
            result.append(UInt8(ascii: "x"))
            result.append(hexDigit(value >> 4))
            result.append(hexDigit(value & 0xF))
        }
        var index = 0
        while index < source.count {
            let byte = source[index]
            let next = index + 1 < source.count ? source[index + 1] : nil
            if byte < 0x20 || byte == 0x7F {
                escape(byte)
            } else if byte == 0xC2, let next, (0x80...0x9F).contains(next) {
                escape(next)
                index += 1
            } else if byte == 0xE2, next == 0x80, index + 2 < source.count, source[index + 2] == 0xA8 || source[index + 2] == 0xA9 {
                result.append(contentsOf: (source[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                index += 2
            } else if byte == UInt8(ascii: "\\"), next == UInt8(ascii: "x") || Self.startsSeparatorEscape(source, at: index + 1) {
                escape(byte)
            } else {
                result.append(byte)
            }
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether `bytes` from `index` on are `u2028` or `u2029`, which after a backslash would read as a separator's escape.
    private static func startsSeparatorEscape(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index + 4 < bytes.count, bytes[index] == UInt8(ascii: "u"), bytes[index + 1] == UInt8(ascii: "2"),
            bytes[index + 2] == UInt8(ascii: "0"), bytes[index + 3] == UInt8(ascii: "2")
        else { return false }
        return bytes[index + 4] == UInt8(ascii: "8") || bytes[index + 4] == UInt8(ascii: "9")
    }

    /// `text` as a JSON string, quotes included.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            // The controls, and the line and paragraph separators, which JSON allows raw but
            // line splitters (and JavaScript before ES2019) do not: escaped, they read back the same.
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                result +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
