import Foundation

/// How a destination writes an entry: as the shortcut line, the same line with
/// time and level, or one JSON object per line.
///
/// ```swift
/// LogFormat.line.format(entry)          // FeedScreen.swift (line 12): reload(): reloading
/// LogFormat.detailedLine.format(entry)  // 2026-11-22T10:15:03.120Z [debug] FeedScreen.swift (line 12): reload(): reloading
/// LogFormat.jsonLines.format(entry)     // {"time":"2026-11-22T10:15:03.120Z","level":"debug","file":"FeedScreen.swift",...}
/// ```
public struct LogFormat: Sendable, Equatable, CustomStringConvertible {
    private enum Kind: String, Sendable {
        case line, detailedLine, jsonLines
    }

    private let kind: Kind

    /// `File.swift (line N): function(): message`, as ``LogEntry/description`` gives it.
    public static let line = LogFormat(kind: .line)
    /// The line prefixed with the time (ISO 8601, UTC, milliseconds) and the level in brackets.
    public static let detailedLine = LogFormat(kind: .detailedLine)
    /// One JSON object per line with `time`, `level`, `file`, `function`, `line` and `message`: for files and machines.
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
        case .line:
            return "\(entry.fileName) (line \(entry.line)): \(entry.function): \(message)"
        case .detailedLine:
            return "\(Self.timestamp(entry.date)) [\(entry.level)] \(entry.fileName) (line \(entry.line)): \(entry.function): \(message)"
        case .jsonLines:
            return "{\"time\":\"\(Self.timestamp(entry.date))\",\"level\":\"\(entry.level)\",\"file\":\(Self.quoted(entry.fileName)),"
                + "\"function\":\(Self.quoted(entry.function)),\"line\":\(entry.line),\"message\":\(Self.quoted(message))}"
        }
    }

    /// `text` as a JSON string, quotes included.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
