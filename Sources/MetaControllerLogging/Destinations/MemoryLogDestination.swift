public import MetaControllerCore

/// Keeps the latest entries in memory, dropping the oldest beyond its capacity.
///
/// For an in-app log viewer, a support report, or a test. Nothing is written
/// anywhere; reading ``entries`` or ``lines`` is safe from any thread.
///
/// ```swift
/// let recent = MemoryLogDestination(capacity: 200)
/// let log = StandardLogController(destinations: [recent])
/// // ...
/// supportReport.attach(recent.lines.joined(separator: "\n"))
/// ```
public final class MemoryLogDestination: LogDestination {
    private struct Ring: Sendable {
        var entries: [(entry: LogEntry, revealed: Bool)] = []
        var start = 0
    }

    /// How many entries are kept.
    public let capacity: Int
    /// The lowest level kept.
    public let minimumLevel: LogLevel
    /// How ``lines`` renders entries.
    public let format: LogFormat

    private let ring = Lock(Ring())

    /// Creates a ring buffer.
    ///
    /// - Parameters:
    ///   - capacity: How many entries are kept; at least 1.
    ///   - minimumLevel: The lowest level kept; everything by default.
    ///   - format: How ``lines`` renders entries.
    public init(capacity: Int = 1000, minimumLevel: LogLevel = .trace, format: LogFormat = .line) {
        self.capacity = max(1, capacity)
        self.minimumLevel = minimumLevel
        self.format = format
    }

    /// Keeps `entry`, dropping the oldest when full.
    public func write(_ entry: LogEntry, revealingPrivateValues: Bool) {
        ring.withLock { ring in
            if ring.entries.count < capacity {
                ring.entries.append((entry, revealingPrivateValues))
            } else {
                ring.entries[ring.start] = (entry, revealingPrivateValues)
                ring.start = (ring.start + 1) % capacity
            }
        }
    }

    /// Does nothing: memory needs no flushing.
    public func flush() {}

    /// The entries kept, oldest first.
    public var entries: [LogEntry] { ordered().map(\.entry) }

    /// The entries kept, oldest first, rendered in ``format``.
    public var lines: [String] {
        ordered().map { format.format($0.entry, revealingPrivateValues: $0.revealed) }
    }

    /// Forgets every entry.
    public func removeAll() {
        ring.withLock { $0 = Ring() }
    }

    private func ordered() -> [(entry: LogEntry, revealed: Bool)] {
        ring.withLock { ring in Array(ring.entries[ring.start...] + ring.entries[..<ring.start]) }
    }
}
