import Foundation
import Dispatch
import MetaController
@testable import MetaControllerLogging
import Testing
import MetaControllerSupport

/// The queue in front of the file and stream destinations, driven by hand: the test takes its
/// batches and frees their room, as the writer would.
@Suite struct BoundedLogQueueTests {
    private func entry(_ message: String, _ level: LogLevel = .info) -> LogEntry {
        LogEntry(level: level, message: message, file: "F.swift", function: "f()", line: 1)
    }

    /// A warning waits for room; an info logged behind it is dropped, and a flush reports that drop
    /// while the warning still waits. Neither the warning nor the entry after it reports it again,
    /// so the notices add up to the count.
    @Test func aDropAFlushReportedWhileAWarningWaitedIsNotReportedAgain() throws {
        let waiting = DispatchSemaphore(value: 0)
        let queue = BoundedLogQueue(maximumQueuedBytes: 1000, waitingForRoom: { waiting.signal() })
        // 200 + 7 + 3 + 590: 800 of the 1,000 bytes, nothing drains.
        queue.admit(entry(String(repeating: "a", count: 590)), revealingPrivateValues: false) {}
        let warned = DispatchGroup()
        DispatchQueue.global().async(group: warned) {
            queue.admit(entry(String(repeating: "w", count: 290), .warning), revealingPrivateValues: false) {}
        }
        try #require(waiting.wait(timeout: .now() + 60) == .success, "the warning never waited for room")
        queue.admit(entry("behind the warning"), revealingPrivateValues: false) {}
        #expect(queue.dropped == 1)
        // A flush takes the drop to report it.
        #expect(queue.takeUnreportedDrops() == 1)
        // The writer writes the first entry: the warning gets its room.
        let first = queue.takeBatch()
        try #require(first.count == 1)
        queue.finished(first[0])
        try #require(warned.wait(timeout: .now() + 60) == .success, "the warning never got room")
        queue.admit(entry("after"), revealingPrivateValues: false) {}
        let second = queue.takeBatch()
        #expect(second.map(\.entry.message.first) == ["w", "a"])
        #expect(second.map(\.droppedBefore) == [0, 0])
        #expect(queue.takeUnreportedDrops() == 0)
    }

    /// The load's peak is the most that was ever queued at once, kept after the writer drained it:
    /// the bound the burst tests check (`peak <= capacity`) would hold for any peak too low.
    @Test func thePeakIsTheMostEverQueuedAndOutlastsTheDrain() {
        let queue = BoundedLogQueue(maximumQueuedBytes: 2000, waitingForRoom: {})
        // 200 + 7 + 3 + 590 = 800, then 200 + 7 + 3 + 90 = 300.
        queue.admit(entry(String(repeating: "a", count: 590)), revealingPrivateValues: false) {}
        #expect(queue.load.queued == 800 && queue.load.peak == 800)
        queue.admit(entry(String(repeating: "b", count: 90)), revealingPrivateValues: false) {}
        #expect(queue.load.queued == 1100 && queue.load.peak == 1100)
        for written in queue.takeBatch() { queue.finished(written) }
        #expect(queue.load.queued == 0)
        #expect(queue.load.peak == 1100)
        // A smaller load later leaves the peak where it was.
        queue.admit(entry("c"), revealingPrivateValues: false) {}
        #expect(queue.load.queued == 211 && queue.load.peak == 1100)
    }
}
