public import Foundation

/// One message on its way to a ``LogController``: what was said, how
/// important it is, and where in the source it was said.
///
/// The logging shortcuts of ``MetaControllerReader`` (``MetaControllerReader/debugLog(_:metadata:file:function:line:)``
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
///
/// An entry's ``metadata`` is the metadata of the enclosing
/// ``LogMetadata/withValues(_:operation:)`` scopes at the moment it is created,
/// followed by the metadata passed to it.
public struct LogEntry: Sendable, Equatable, CustomStringConvertible {
    /// How important the entry is.
    public var level: LogLevel
    /// The message, already evaluated, with private and sensitive values shown as `<private>`.
    public var message: String
    /// The message with private values shown, kept in debug builds only; `nil` when it has none.
    package var revealedMessage: String?
    /// The source file that logged, as `#fileID` gives it (`Module/File.swift`)
    /// or a plain path; ``fileName`` keeps only the last component.
    public var file: String
    /// The function that logged, as `#function` gives it, such as `updateLocation()`.
    public var function: String
    /// The line that logged.
    public var line: UInt
    /// Key-value pairs besides the message, such as a request's id; always shown.
    public var metadata: LogMetadata
    /// When the entry was made.
    public var date: Date
    /// Whether MetaController itself logged the entry, as a warning about how
    /// it is used (a requirement missing, a pass refused), rather than the app.
    /// MetaControllerTesting's `FakeLogController` keeps such entries apart.
    package var isDiagnostic = false

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - level: How important the entry is.
    ///   - message: The message.
    ///   - file: The source file, usually `#fileID`.
    ///   - function: The function, usually `#function`.
    ///   - line: The line, usually `#line`.
    ///   - date: When the entry was made; now by default.
    ///   - metadata: Pairs to carry, after those of the enclosing
    ///     ``LogMetadata/withValues(_:operation:)`` scopes (``LogMetadata/current``); where both have a key, this one's value wins.
    public init(
        level: LogLevel,
        message: String,
        file: String,
        function: String,
        line: UInt,
        date: Date = Date(),
        metadata: LogMetadata = [:]
    ) {
        self.level = level
        self.message = message
        self.file = file
        self.function = function
        self.line = line
        self.date = date
        self.metadata = LogMetadata.current.merging(metadata)
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
    ///   - metadata: Pairs to carry, after those of the enclosing
    ///     ``LogMetadata/withValues(_:operation:)`` scopes (``LogMetadata/current``); where both have a key, this one's value wins.
    public init(
        level: LogLevel, message: LogMessage, file: String, function: String, line: UInt, date: Date = Date(),
        metadata: LogMetadata = [:]
    ) {
        self.init(
            level: level, message: message.description, file: file, function: function, line: line, date: date,
            metadata: metadata)
        revealedMessage = message.revealed
    }

    /// The message, with private values shown when `revealingPrivateValues` is
    /// `true` in a debug build; sensitive values are never shown.
    ///
    /// - Parameter revealingPrivateValues: Whether private values are shown; honoured in debug builds only.
    public func message(revealingPrivateValues: Bool) -> String {
        revealingPrivateValues ? revealedMessage ?? message : message
    }

    /// Rewrites the message in both its forms, the redacted ``message`` and
    /// the one with private values shown, so a log controller that wraps
    /// another can tag entries without losing the tag where private values are revealed.
    ///
    /// Setting ``message`` instead would replace the redacted form only: a
    /// destination that reveals private values would still write the old text.
    /// `transform` sees each form once and should treat both alike; it never
    /// sees a revealed form in a release build, which keeps none.
    ///
    /// ```swift
    /// final class TaggingLogController: LogController {
    ///     let wrapped: any LogController
    ///     init(wrapping wrapped: any LogController) { self.wrapped = wrapped }
    ///     func isLogging(_ level: LogLevel) -> Bool { wrapped.isLogging(level) }
    ///     func log(_ entry: LogEntry) {
    ///         var entry = entry
    ///         entry.transformMessage { "[sync] " + $0 }
    ///         wrapped.log(entry)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter transform: Returns the new text for a form of the message.
    /// - Throws: What `transform` throws; the entry is then unchanged.
    public mutating func transformMessage(_ transform: (String) throws -> String) rethrows {
        let newMessage = try transform(message)
        let newRevealed = try revealedMessage.map(transform)
        message = newMessage
        revealedMessage = newRevealed
    }

    /// The source file's name without its module or folders: `LocationController.swift`.
    public var fileName: String {
        guard let slash = file.lastIndex(where: { $0 == "/" || $0 == "\\" }) else { return file }
        return String(file[file.index(after: slash)...])
    }

    /// The entry as one line, as ``LogFormat/line`` writes it:
    /// `LocationController.swift (line 34): updateLocation(): Bazinga!`, then
    /// ` [key=value ...]` when it has ``metadata``.
    public var description: String {
        LogFormat.line.format(self)
    }
}
