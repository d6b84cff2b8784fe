import Foundation
import MetaController
import MetaControllerTesting
import Testing

// MARK: - StreamLogDestination, through a child process whose standard streams the test owns

@Suite("StreamLogDestination")
struct StreamLogDestinationTests {
    @Test func itsDefaultsAreTheDocumentedOnes() {
        let stream = StreamLogDestination()
        #expect(stream.stream == .standardError)
        #expect(stream.format.description == "line")
        #expect(stream.minimumLevel == .trace)
        #expect(stream.maximumQueuedBytes == 8 * 1024 * 1024)
        #expect(StreamLogDestination(maximumQueuedBytes: 1).maximumQueuedBytes >= 1024)
    }

    @Test func itWritesOneLinePerEntryToStandardErrorInOrder() async throws {
        let (result, answer) = try await runProbe(["stream-lines", "stderr", "50"])
        #expect(result.status == 0)
        let expected = (0..<50).map { "main.swift (line 1): run(): entry \($0)" }
        #expect(result.err.split(separator: "\n").map(String.init) == expected)
        #expect(answer["dropped"] as? Int == 0)
    }

    @Test func itWritesToStandardOutputWhenAskedTo() async throws {
        let (result, _) = try await runProbe(["stream-lines", "stdout", "5"])
        let written = result.out.split(separator: "\n").map(String.init).filter { $0.hasPrefix("main.swift") }
        #expect(written == (0..<5).map { "main.swift (line 1): run(): entry \($0)" })
        #expect(result.err.isEmpty)
    }

    @Test func aPipeWhoseReaderIsClosedCostsTheEntriesNotTheProcess() async throws {
        let (result, answer) = try await runProbe(["stream-closed-pipe", "100"], timeout: 60)
        #expect(!result.timedOut)
        #expect(
            result.reason == .exit && result.status == 0, "the process ended with \(result.reason == .uncaughtSignal ? "signal" : "status") \(result.status)")
        #expect(answer["dropped"] as? Int == 100, "\(answer)")
    }

    @Test func aFullPipeNobodyReadsHoldsAtMostTheBoundAndLosesNoWarning() async throws {
        let (result, answer) = try await runProbe(["stream-full-pipe", "blocking", "40000", "65536"], timeout: 300)
        #expect(!result.timedOut, "the burst into a full pipe did not end")
        try #require(result.status == 0, "\(result.err.suffix(300))")
        let total = answer["total"] as? Int ?? 0
        let dropped = answer["dropped"] as? Int ?? -1
        #expect((answer["droppedBeforeReading"] as? Int ?? 0) > 0)
        #expect(answer["infosInOrder"] as? Bool == true)
        #expect((answer["infosKept"] as? Int ?? 0) + dropped == total, "\(answer)")
        #expect(answer["warnings"] as? [Int] == [0, 1, 2, 3, 4], "\(answer)")
        #expect(answer["noticeSum"] as? Int == dropped, "\(answer)")
        if Tools.measuresMemory {
            #expect(
                (answer["rssGrowth"] as? Int ?? .max) < 16 << 20, "memory grew by \(answer["rssGrowth"] ?? "?") bytes for 40 MB logged into a bound of 64 KiB")
        }
    }

    @Test func aNonBlockingFullPipeLosesNothingUncountedAndNoWarning() async throws {
        let (result, answer) = try await runProbe(["stream-full-pipe", "nonblocking", "20000", "65536"], timeout: 300)
        #expect(!result.timedOut)
        try #require(result.status == 0, "\(result.err.suffix(300))")
        let total = answer["total"] as? Int ?? 0
        let dropped = answer["dropped"] as? Int ?? -1
        #expect(answer["infosInOrder"] as? Bool == true)
        let warnings = (answer["warnings"] as? [Int])?.count ?? 0
        #expect((answer["infosKept"] as? Int ?? 0) + warnings + dropped == total + 5, "\(answer)")
        #expect(answer["warnings"] as? [Int] == [0, 1, 2, 3, 4], "\(answer)")
        if Tools.measuresMemory {
            #expect((answer["rssGrowth"] as? Int ?? .max) < 16 << 20, "memory grew by \(answer["rssGrowth"] ?? "?") bytes")
        }
    }
}

// MARK: - MemoryLogDestination

@Suite("MemoryLogDestination")
struct MemoryLogDestinationTests {
    @Test func itKeepsTheLatestEntriesUpToItsCapacityOldestFirst() {
        let memory = MemoryLogDestination(capacity: 3)
        let log = controller([memory])
        for index in 0..<5 { log.log(entry(.info, "n\(index)")) }
        #expect(memory.entries.map(\.message) == ["n2", "n3", "n4"])
        #expect(memory.lines == ["Logs.swift (line 7): test(): n2", "Logs.swift (line 7): test(): n3", "Logs.swift (line 7): test(): n4"])
    }

    @Test func itsCapacityIsAtLeastOne() {
        let memory = MemoryLogDestination(capacity: 0)
        #expect(memory.capacity >= 1)
        controller([memory]).log(entry(.info, "kept"))
        #expect(memory.entries.map(\.message) == ["kept"])
    }

    @Test func itsDefaultsAreTheDocumentedOnes() {
        let memory = MemoryLogDestination()
        #expect(memory.capacity == 1000)
        #expect(memory.format.description == "line")
        #expect(memory.minimumLevel == .trace)
    }

    @Test func linesAreRenderedInItsFormat() {
        let memory = MemoryLogDestination(format: .detailedLine)
        controller([memory]).log(
            LogEntry(
                level: .info, message: "reloading", file: "App/FeedScreen.swift", function: "reload()", line: 12,
                date: Date(timeIntervalSince1970: 1_795_342_503.120)))
        #expect(memory.lines == ["2026-11-22T10:15:03.120Z [info] FeedScreen.swift (line 12): reload(): reloading"])
    }

    @Test func removeAllForgetsEveryEntry() {
        let memory = MemoryLogDestination()
        let log = controller([memory])
        log.log(entry(.info, "a"))
        memory.removeAll()
        #expect(memory.entries.isEmpty && memory.lines.isEmpty)
        log.log(entry(.info, "b"))
        #expect(memory.entries.map(\.message) == ["b"])
    }

    @Test func anEntryReachesItOnlyAtOrAboveBothTheControllersAndItsOwnLevel() {
        let memory = MemoryLogDestination(minimumLevel: .notice)
        let log = StandardLogController(minimumLevel: .warning, destinations: [memory])
        log.log(entry(.info, "info"))
        log.log(entry(.notice, "notice"))
        log.log(entry(.error, "error"))
        #expect(memory.entries.map(\.message) == ["error"])
        let lenient = MemoryLogDestination(minimumLevel: .notice)
        let quiet = StandardLogController(minimumLevel: .debug, destinations: [lenient])
        #expect(!quiet.isLogging(.info))
        #expect(quiet.isLogging(.notice))
    }

    @Test func itKeepsEveryEntryFromManyTasksUpToItsCapacity() async {
        let memory = MemoryLogDestination(capacity: 4_000)
        let log = controller([memory])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 { group.addTask { for index in 0..<500 { log.log(entry(.info, "n\(task * 1_000 + index)")) } } }
        }
        #expect(memory.entries.count == 4_000)
        #expect(Set(memory.entries.map(\.message)).count == 4_000)
        let small = MemoryLogDestination(capacity: 100)
        let smallLog = controller([small])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 { group.addTask { for index in 0..<500 { smallLog.log(entry(.info, "n\(task * 1_000 + index)")) } } }
        }
        #expect(small.entries.count == 100)
    }

    @Test func itIsReadSafelyWhileOtherThreadsWrite() async {
        let memory = MemoryLogDestination(capacity: 50)
        let log = controller([memory])
        let writers = Task.detached {
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<4 { group.addTask { for index in 0..<5_000 { log.log(entry(.info, "n\(task)-\(index)")) } } }
            }
        }
        var reads = 0
        while reads < 2_000 { _ = memory.lines.count + memory.entries.count; reads += 1 }
        await writers.value
        #expect(memory.entries.count == 50)
    }

    @Test func aMetaControllersShortcutsReachIt() {
        let memory = MemoryLogDestination()
        let metaController = MetaController()
        metaController.logController = StandardLogController(minimumLevel: .debug, destinations: [memory])
        metaController.infoLog("listed 3 notes", metadata: ["user": "ada"])
        #expect(memory.lines.first?.hasSuffix("listed 3 notes [user=ada]") == true)
    }
}

// MARK: - Signals keyed at run time, measured in a process of their own

@Suite("Signals: keys named at run time, by the hundred thousand", .enabled(if: Tools.measuresMemory, "LogProbe measures its memory in /proc (Linux)"))
struct SignalsMemoryTests {
    /// Keys per round. Three rounds make the 100,000 keys of Signals.md; no more, since under the
    /// thread sanitizer a key costs ten times as much (nine sweeps of 300,000 keys took over five
    /// minutes there, and ran out of their time).
    static let keysPerRound = 34_000

    /// Runs three rounds of `keysPerRound` keys and returns how much the process grew from the
    /// first round's end to the third's (the first round warms the allocator).
    func growth(_ mode: String) async throws -> (bytes: Int, leftListening: Int, answer: [String: Any]) {
        let (result, answer) = try await runProbe(["signals", mode, "\(Self.keysPerRound)"], timeout: 600)
        let rss = answer["rss"] as? [Int] ?? []
        try #require(
            !result.timedOut && result.status == 0 && rss.count == 3,
            "LogProbe signals \(mode): status \(result.status), timed out: \(result.timedOut), \(result.err.suffix(300))")
        return (rss[2] - rss[0], answer["leftListening"] as? Int ?? -1, answer)
    }

    /// A leak of 40 bytes a key is 2.7 MB over the two measured rounds; the resident size of a
    /// process that keeps nothing moves by less than 0.7 MB between them (measured: 0.3 MB, and
    /// 0.6 MB under the thread sanitizer).
    let allowed = Self.keysPerRound * 2 * 40

    @Test func keysListenedToWithATokenDispatchedAndLeftLeaveNothingBehind() async throws {
        let (bytes, left, answer) = try await growth("token")
        #expect(left == 0)
        #expect(bytes < allowed, "grew \(bytes) bytes over \(2 * Self.keysPerRound) keys: \(answer)")
    }

    @Test func keysListenedToByAnObjectDispatchedAndLeftLeaveNothingBehind() async throws {
        let (bytes, left, answer) = try await growth("object-dispatched")
        #expect(left == 0)
        #expect(bytes < allowed, "grew \(bytes) bytes over \(2 * Self.keysPerRound) keys: \(answer)")
    }

    @Test func keysWhoseListenerObjectWentAwayLeaveNothingBehindWithNothingRemoved() async throws {
        let (bytes, left, answer) = try await growth("object-gone")
        #expect(left == 0)
        #expect(bytes < allowed, "grew \(bytes) bytes over \(2 * Self.keysPerRound) keys: \(answer)")
    }

    @Test func keysWhoseListenerWentAwayThenDispatchedLeaveNothingBehind() async throws {
        let (bytes, left, answer) = try await growth("object-gone-then-dispatched")
        #expect(left == 0)
        #expect(bytes < allowed, "grew \(bytes) bytes over \(2 * Self.keysPerRound) keys: \(answer)")
    }

    @Test func keysHeardOnceLeaveNothingBehind() async throws {
        let (bytes, left, answer) = try await growth("once")
        #expect(left == 0)
        #expect(bytes < allowed, "grew \(bytes) bytes over \(2 * Self.keysPerRound) keys: \(answer)")
    }

    @Test func keysWhoseListenerWasRemovedLeaveNothingBehind() async throws {
        let (bytes, left, answer) = try await growth("removed")
        #expect(left == 0)
        #expect(bytes < allowed, "grew \(bytes) bytes over \(2 * Self.keysPerRound) keys: \(answer)")
    }

    @Test func keysOfSequencesReleasedLeaveNothingBehind() async throws {
        let (bytes, left, answer) = try await growth("sequence")
        #expect(left == 0)
        #expect(bytes < allowed, "grew \(bytes) bytes over \(2 * Self.keysPerRound) keys: \(answer)")
    }

    @Test func replayedKeysRemovedWithRemoveSignalLeaveNothingBehind() async throws {
        let (bytes, _, answer) = try await growth("replay-removed")
        #expect(bytes < allowed, "grew \(bytes) bytes over \(2 * Self.keysPerRound) keys: \(answer)")
    }

    @Test func keysOnlyDispatchedToLeaveNothingBehind() async throws {
        let (bytes, _, answer) = try await growth("dispatch-only")
        #expect(bytes < allowed, "grew \(bytes) bytes over \(2 * Self.keysPerRound) keys: \(answer)")
    }
}

// MARK: - Crashes kept in a process of their own

@Suite("graph: longestChain with a factory that requests itself")
struct GraphSelfRequestProcessTests {
    @Test(arguments: ["self", "self-caught", "self-reached"])
    func longestChainOfAGraphWithASelfRequestAnswersWithoutGoingRound(variant: String) async throws {
        let (result, answer) = try await runProbe(["graph", variant], timeout: 120)
        #expect(
            result.reason == .exit && result.status == 0,
            "the process ended with \(result.reason == .uncaughtSignal ? "signal" : "status") \(result.status): \(result.err.split(separator: "\n").first { $0.contains("Fatal") } ?? "")"
        )
        let chain = answer["longestChain"] as? [String] ?? []
        #expect(Set(chain).count == chain.count)
    }
}
