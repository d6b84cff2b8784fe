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
        let metadata = entry.metadata.isEmpty ? "" : " [\(entry.metadata)]"
        switch kind {
        case .line:
            return "\(entry.fileName) (line \(entry.line)): \(entry.function): \(message)\(metadata)"
        case .detailedLine:
            return "\(Self.timestamp(entry.date)) [\(entry.level)] \(entry.fileName) (line \(entry.line)): \(entry.function): \(message)\(metadata)"
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
