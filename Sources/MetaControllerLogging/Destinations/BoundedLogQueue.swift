import MetaControllerCore
import Dispatch

/// The bounded queue in front of a destination that writes on a serial queue of its own: what
/// ``FileLogDestination`` and ``StreamLogDestination`` share.
///
/// It admits entries by their estimated size: past four fifths of `maximumQueuedBytes`, an entry
/// below ``LogLevel/warning`` is dropped and counted; at the bound, a `.warning` or more severe entry
/// makes its logging thread wait for room. Entries reach the writer in the order they were logged,
/// whatever their levels: while an entry waits for room, every entry logged after it waits behind it
/// (`.warning` and above, in the order they began waiting) or is dropped (below `.warning`), so
/// none overtakes it.
final class BoundedLogQueue: Sendable {
    /// An entry accepted into the queue.
    struct Pending: Sendable {
        let entry: LogEntry
        let revealingPrivateValues: Bool
        /// What it counts for in the queue.
        let cost: Int
        /// How many entries were dropped just before it: its line is preceded by a notice.
        let droppedBefore: Int
    }

    private struct Admission: Sendable {
        /// The estimated bytes of the entries queued and not yet written.
        var queuedBytes = 0
        /// The most `queuedBytes` has been, for tests.
        var peakQueuedBytes = 0
        /// Every entry that never reached the medium: dropped from a full queue, or lost to a write that failed.
        var dropped = 0
        /// Entries dropped from the queue so far, and how many of them an accepted entry carries the
        /// count of: the next accepted one carries those dropped before it was logged and not yet carried.
        var droppedFromQueue = 0
        var carriedDrops = 0
        /// The logging threads waiting for room and not yet woken, each by a semaphore of its own (a
        /// shared one would let a thread that must wait again take the wake meant for the one ahead).
        var sleepers: [DispatchSemaphore] = []
        /// The turn the next entry that must wait takes; the turn admitted next. Equal when none waits.
        var nextTurn = 0
        var turnServed = 0
        /// The entries accepted and not yet taken by the writer, in order.
        var pending: [Pending] = []
        /// Whether the writer is taking ``pending``: a new entry then needs no block of its own.
        var draining = false
    }

    /// How many bytes of entries may wait.
    let maximumQueuedBytes: Int
    private let admission = Lock(Admission())
    /// Called on a logging thread about to wait for room; for tests.
    private let waitingForRoom: (@Sendable () -> Void)?

    init(maximumQueuedBytes: Int, waitingForRoom: (@Sendable () -> Void)? = nil) {
        self.maximumQueuedBytes = maximumQueuedBytes
        self.waitingForRoom = waitingForRoom
    }

    /// Every entry dropped or lost so far.
    var dropped: Int { admission.withLock { $0.dropped } }

    /// The estimated bytes queued now, the most they have been, and how many logging threads wait for room.
    var load: (queued: Int, peak: Int, waiting: Int) {
        admission.withLock { ($0.queuedBytes, $0.peakQueuedBytes, $0.sleepers.count) }
    }

    /// Admits `entry`, drops it, or waits for room (see the type's comment). When it is admitted and
    /// the writer is not draining, calls `startDraining` (under the queue's lock, so blocks start in
    /// the order entries were admitted): it must start ``takeBatch()``'s loop on the writer's queue.
    func admit(_ entry: LogEntry, revealingPrivateValues: Bool, startDraining: () -> Void) {
        let cost = Self.cost(of: entry, revealingPrivateValues: revealingPrivateValues)
        let dropsBelow = maximumQueuedBytes / 5 * 4
        let severe = entry.level >= .warning
        var turn: Int?
        // Made only for an entry that must wait: most never do, and a semaphore is an allocation.
        var wake: DispatchSemaphore?
        /// For an entry that waits: the drops before it began waiting (those after it are reported after it).
        var droppedBeforeTurn = 0
        while true {
            let mustWait = admission.withLock { admission -> Bool in
                // Someone who began waiting before this entry was logged is not admitted yet.
                let behind = admission.turnServed != (turn ?? admission.nextTurn)
                let load = admission.queuedBytes + cost
                let full = admission.queuedBytes > 0 && load > (severe ? maximumQueuedBytes : dropsBelow)
                if behind || full {
                    guard severe else {
                        admission.dropped += 1
                        admission.droppedFromQueue += 1
                        return false
                    }
                    if turn == nil {
                        turn = admission.nextTurn
                        admission.nextTurn += 1
                        droppedBeforeTurn = admission.droppedFromQueue
                    }
                    let sleeper = wake ?? DispatchSemaphore(value: 0)
                    wake = sleeper
                    admission.sleepers.append(sleeper)
                    return true
                }
                if turn != nil { admission.turnServed += 1 }
                admission.queuedBytes = load
                admission.peakQueuedBytes = max(admission.peakQueuedBytes, load)
                // Under the lock, so the count of drops travels with the entry that follows them.
                let droppedBefore = turn == nil ? admission.droppedFromQueue : droppedBeforeTurn
                admission.pending.append(
                    Pending(
                        entry: entry, revealingPrivateValues: revealingPrivateValues, cost: cost,
                        droppedBefore: max(0, droppedBefore - admission.carriedDrops)))
                // A flush may have reported them already.
                admission.carriedDrops = max(admission.carriedDrops, droppedBefore)
                if !admission.draining {
                    admission.draining = true
                    startDraining()
                }
                return false
            }
            guard mustWait else { return }
            waitingForRoom?()
            wake?.wait()
        }
    }

    /// The entries accepted since the last batch, in order; none when the writer is done, which then
    /// needs a new `startDraining` for the next entry. Called by the writer only.
    func takeBatch() -> [Pending] {
        admission.withLock { admission in
            if admission.pending.isEmpty { admission.draining = false }
            defer { admission.pending = [] }
            return admission.pending
        }
    }

    /// Frees the room `pending` took once it is written (or lost), and wakes the threads waiting for room.
    func finished(_ pending: Pending) {
        let sleepers = admission.withLock { admission in
            admission.queuedBytes -= pending.cost
            defer { admission.sleepers = [] }
            return admission.sleepers
        }
        for sleeper in sleepers { sleeper.signal() }
    }

    /// Counts an accepted entry that never reached the medium.
    func countLost() { admission.withLock { $0.dropped += 1 } }

    /// The entries dropped since the last one accepted, which no accepted entry will report: the
    /// caller reports them (a flush, a destination going away).
    func takeUnreportedDrops() -> Int {
        admission.withLock { admission in
            defer { admission.carriedDrops = admission.droppedFromQueue }
            return admission.droppedFromQueue - admission.carriedDrops
        }
    }

    /// What an entry is counted as in the queue: the UTF-8 bytes of its text, and 200 for the rest.
    static func cost(of entry: LogEntry, revealingPrivateValues: Bool) -> Int {
        var bytes = 200 + entry.message.utf8.count + entry.file.utf8.count + entry.function.utf8.count
        if revealingPrivateValues, let revealed = entry.revealedMessage { bytes += revealed.utf8.count }
        for (key, value) in entry.metadata.pairs { bytes += key.utf8.count + value.utf8.count + 32 }
        return bytes
    }
}
