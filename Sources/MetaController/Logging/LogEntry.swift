public import Foundation

/// One message on its way to a ``LogController``: what was said, how
/// important it is, and where in the source it was said.
///
/// The logging shortcuts of ``MetaControllerConsumer`` (``MetaControllerConsumer/debugLog(_:file:function:line:)``
/// and its siblings) build entries with the caller's file, function and line.
/// ``description`` renders the entry as one line in the package's format, the
/// file name without its module or folder:
///
/// ```swift
/// let entry = LogEntry(level: .debug, message: "Bazinga!",
///                      file: "MyApp/LocationController.swift",
///                      function: "updateLocation()", line: 34)
/// print(entry)   // LocationController.swift (line 34): updateLocation(): Bazinga!
/// ```
public struct LogEntry: Sendable, Equatable, CustomStringConvertible {
    /// How important the entry is.
    public var level: LogLevel
    /// The message, already evaluated, with private and sensitive values shown as `<private>`.
    public var message: String
    /// The message with private values shown, kept in debug builds only; `nil` when it has none.
    var revealedMessage: String?
    /// The source file that logged, as `#fileID` gives it (`Module/File.swift`)
    /// or a plain path; ``fileName`` keeps only the last component.
    public var file: String
    /// The function that logged, as `#function` gives it, such as `updateLocation()`.
    public var function: String
    /// The line that logged.
    public var line: UInt
    /// When the entry was made.
    public var date: Date

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - level: How important the entry is.
    ///   - message: The message.
    ///   - file: The source file, usually `#fileID`.
    ///   - function: The function, usually `#function`.
    ///   - line: The line, usually `#line`.
    ///   - date: When the entry was made; now by default.
    public init(
        level: LogLevel,
        message: String,
        file: String,
        function: String,
        line: UInt,
        date: Date = Date()
    ) {
        self.level = level
        self.message = message
        self.file = file
        self.function = function
        self.line = line
        self.date = date
    }

    /// Creates an entry from a ``LogMessage``, keeping its private values
    /// apart so destinations show them only when allowed.
    ///
    /// - Parameters:
    ///   - level: How important the entry is.
    ///   - message: The message.
    ///   - file: The source file, usually `#fileID`.
    ///   - function: The function, usually `#function`.
    ///   - line: The line, usually `#line`.
    ///   - date: When the entry was made; now by default.
    public init(
        level: LogLevel, message: LogMessage, file: String, function: String, line: UInt, date: Date = Date()
    ) {
        self.init(level: level, message: message.description, file: file, function: function, line: line, date: date)
        revealedMessage = message.revealed
    }

    /// The message, with private values shown when `revealingPrivateValues` is
    /// `true` in a debug build; sensitive values are never shown.
    public func message(revealingPrivateValues: Bool) -> String {
        revealingPrivateValues ? revealedMessage ?? message : message
    }

    /// The source file's name without its module or folders: `LocationController.swift`.
    public var fileName: String {
        guard let slash = file.lastIndex(where: { $0 == "/" || $0 == "\\" }) else { return file }
        return String(file[file.index(after: slash)...])
    }

    /// The entry as one line: `LocationController.swift (line 34): updateLocation(): Bazinga!`.
    public var description: String {
        "\(fileName) (line \(line)): \(function): \(message)"
    }
}
