public import MetaControllerCore
import Dispatch

/// Writes entries to standard error or standard output, one line each.
///
/// Formatting and writing happen on a serial queue of the destination's own,
/// in order, so the logging thread never waits for the terminal.
///
/// The queue is bounded by ``maximumQueuedBytes`` (8 MiB by default), with the
/// same policy as ``FileLogDestination``: past four fifths of it, entries below
/// ``LogLevel/warning`` are dropped; at the bound, a `.warning`, `.error` or
/// `.critical` entry makes the logging thread wait until the queue has room.
/// Entries reach the stream in the order they were logged, whatever their levels.
/// Dropped entries are counted in ``droppedEntries``, and a warning line saying
/// how many were dropped is written where they were missed. A stream nobody reads
/// (standard error a pipe whose reader stopped) therefore holds at most the bound
/// in the queue, not every entry logged since.
///
/// A stream in non-blocking mode (`O_NONBLOCK`, which some supervisors, CI runners and
/// Node's child processes set on the pipe they give as standard error) is written as a
/// blocking one: when the pipe is full (`EAGAIN`), the writer waits until it can take
/// more (`poll`), so its entries are kept, dropped or waited for by the bound above
/// alone, and a `.warning` or more severe entry is never dropped.
///
/// A stream whose reader has gone (a pipe or socket closed at its other end) does not end
/// the process with `SIGPIPE`: the write fails with `EPIPE`, and the entry counts in
/// ``droppedEntries``. The process's handling of `SIGPIPE` is not changed. On Linux the
/// signal is blocked on the writing thread while it writes, and one raised is cleared
/// before the thread's mask is restored; on Apple platforms, where the signal goes to the
/// process, the descriptor is marked `F_SETNOSIGPIPE` when the destination writes to it, so
/// other writes to that stream (its open file description) get `EPIPE` too.
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
    /// How many bytes of entries may wait in the queue, counted as ``FileLogDestination/maximumQueuedBytes``
    /// counts them.
    ///
    /// Past four fifths of it, entries below ``LogLevel/warning`` are dropped; at the bound, the
    /// others make the logging thread wait for room. An entry larger than the whole bound is
    /// taken when the queue is empty.
    public let maximumQueuedBytes: Int

    private let queue = DispatchQueue(label: "MetaController.StreamLogDestination")
    private let descriptor: Int32
    /// The bounded queue the entries wait in.
    private let admission: BoundedLogQueue

    /// Creates a destination for `stream`.
    ///
    /// - Parameters:
    ///   - stream: Standard error (the default) or standard output.
    ///   - minimumLevel: The lowest level written; everything by default.
    ///   - format: How entries are written; the shortcut line by default.
    ///   - maximumQueuedBytes: How many bytes of entries may wait to be written (``maximumQueuedBytes``);
    ///     8 MiB by default, at least 1 KiB.
    public convenience init(
        _ stream: Stream = .standardError, minimumLevel: LogLevel = .trace, format: LogFormat = .line,
        maximumQueuedBytes: Int = 8 * 1024 * 1024
    ) {
        let descriptor = stream == .standardError ? POSIXFile.standardError : POSIXFile.standardOutput
        self.init(
            stream, descriptor: descriptor, minimumLevel: minimumLevel, format: format, maximumQueuedBytes: maximumQueuedBytes)
    }

    /// Creates a destination that writes to `descriptor` in place of the stream's
    /// own, so that tests can read what it writes from a pipe or a file.
    package init(
        _ stream: Stream, descriptor: Int32, minimumLevel: LogLevel, format: LogFormat,
        maximumQueuedBytes: Int = 8 * 1024 * 1024
    ) {
        self.stream = stream
        self.descriptor = descriptor
        self.minimumLevel = minimumLevel
        self.format = format
        self.maximumQueuedBytes = max(1024, maximumQueuedBytes)
        self.admission = BoundedLogQueue(maximumQueuedBytes: max(1024, maximumQueuedBytes))
    }

    /// How many entries given to the destination never reached the stream: dropped because the
    /// queue was full, or lost because the write failed (`EPIPE`: nobody reads the stream any more).
    public var droppedEntries: Int { admission.dropped }

    /// The estimated bytes queued now, the most they have been, and how many logging threads wait for room; for tests.
    var queueLoad: (queued: Int, peak: Int, waiting: Int) { admission.load }

    /// Queues `entry`; it is formatted and written on the destination's queue.
    ///
    /// Past four fifths of ``maximumQueuedBytes``, an entry below ``LogLevel/warning`` is dropped and
    /// counted; at the bound, a `.warning` or more severe entry waits here for room.
    public func write(_ entry: LogEntry, revealingPrivateValues: Bool) {
        admission.admit(entry, revealingPrivateValues: revealingPrivateValues) {
            queue.async { [self] in drain() }
        }
    }

    /// Returns when every entry queued before it has been written.
    public func flush() {
        let drops = admission.takeUnreportedDrops()
        queue.sync {
            guard drops > 0 else { return }
            // The block may run on the caller's thread: it is shielded from SIGPIPE all the same.
            _ = POSIXFile.withoutBrokenPipeSignal(writingTo: descriptor) { POSIXFile.write(notice(droppedEntries: drops), to: descriptor) }
        }
    }

    /// Writes the entries accepted, batch after batch, until none is left. Runs on the queue only.
    private func drain() {
        while true {
            let batch = admission.takeBatch()
            guard !batch.isEmpty else { return }
            // Once a batch: shielding a write from SIGPIPE costs two system calls.
            POSIXFile.withoutBrokenPipeSignal(writingTo: descriptor) {
                for pending in batch {
                    var bytes = pending.droppedBefore > 0 ? notice(droppedEntries: pending.droppedBefore) : []
                    bytes += Array((format.format(pending.entry, revealingPrivateValues: pending.revealingPrivateValues) + "\n").utf8)
                    // A full pipe in non-blocking mode is waited on, not given up: only a failure is lost.
                    if POSIXFile.write(bytes, to: descriptor) != 0 { admission.countLost() }
                    admission.finished(pending)
                }
            }
        }
    }

    /// The warning line saying that `count` entries were dropped, in the destination's format.
    private func notice(droppedEntries count: Int) -> [UInt8] {
        var entry = LogEntry(
            level: .warning,
            message: "\(count) \(count == 1 ? "entry" : "entries") dropped: more than \(maximumQueuedBytes) bytes of entries waited to be written",
            file: #fileID, function: #function, line: #line)
        entry.metadata = [:]
        return Array((format.format(entry) + "\n").utf8)
    }
}
