import Dispatch

/// Writes entries to standard error or standard output, one line each.
///
/// Writes happen on a serial queue of the destination's own, in order, so the
/// logging thread never waits for the terminal.
///
/// ```swift
/// let console = StreamLogDestination(.standardError, minimumLevel: .debug, format: .detailedLine)
/// ```
public final class StreamLogDestination: LogDestination {
    /// Which stream a destination writes to.
    public enum Stream: Sendable {
        /// Standard error, where logs usually go.
        case standardError
        /// Standard output.
        case standardOutput
    }

    /// The stream written to.
    public let stream: Stream
    /// The lowest level written.
    public let minimumLevel: LogLevel
    /// How entries are written.
    public let format: LogFormat

    private let queue = DispatchQueue(label: "MetaController.StreamLogDestination")

    /// Creates a destination for `stream`.
    ///
    /// - Parameters:
    ///   - stream: Standard error (the default) or standard output.
    ///   - minimumLevel: The lowest level written; everything by default.
    ///   - format: How entries are written; the shortcut line by default.
    public init(_ stream: Stream = .standardError, minimumLevel: LogLevel = .trace, format: LogFormat = .line) {
        self.stream = stream
        self.minimumLevel = minimumLevel
        self.format = format
    }

    /// Formats `entry` and queues its line.
    public func write(_ entry: LogEntry, revealingPrivateValues: Bool) {
        let line = Array((format.format(entry, revealingPrivateValues: revealingPrivateValues) + "\n").utf8)
        let descriptor = stream == .standardError ? POSIXFile.standardError : POSIXFile.standardOutput
        queue.async { POSIXFile.write(line, to: descriptor) }
    }

    /// Returns when every queued line has been written.
    public func flush() {
        queue.sync {}
    }
}
