public import MetaControllerCore
import Dispatch

/// Writes entries to standard error or standard output, one line each.
///
/// Formatting and writing happen on a serial queue of the destination's own,
/// in order, so the logging thread never waits for the terminal.
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
    private let descriptor: Int32

    /// Creates a destination for `stream`.
    ///
    /// - Parameters:
    ///   - stream: Standard error (the default) or standard output.
    ///   - minimumLevel: The lowest level written; everything by default.
    ///   - format: How entries are written; the shortcut line by default.
    public convenience init(_ stream: Stream = .standardError, minimumLevel: LogLevel = .trace, format: LogFormat = .line) {
        let descriptor = stream == .standardError ? POSIXFile.standardError : POSIXFile.standardOutput
        self.init(stream, descriptor: descriptor, minimumLevel: minimumLevel, format: format)
    }

    /// Creates a destination that writes to `descriptor` in place of the stream's
    /// own, so that tests can read what it writes from a pipe or a file.
    package init(_ stream: Stream, descriptor: Int32, minimumLevel: LogLevel, format: LogFormat) {
        self.stream = stream
        self.descriptor = descriptor
        self.minimumLevel = minimumLevel
        self.format = format
    }

    /// Queues `entry`; it is formatted and written on the destination's queue.
    public func write(_ entry: LogEntry, revealingPrivateValues: Bool) {
        queue.async { [format, descriptor] in
            POSIXFile.write(Array((format.format(entry, revealingPrivateValues: revealingPrivateValues) + "\n").utf8), to: descriptor)
        }
    }

    /// Returns when every entry queued before it has been written.
    public func flush() {
        queue.sync {}
    }
}
