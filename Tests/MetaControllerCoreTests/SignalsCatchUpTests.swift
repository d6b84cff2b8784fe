import Dispatch
@testable import MetaControllerCore
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// A bus that records (the test and preview MetaControllers'): listeners added while a declared
/// value is handed its MetaController catch up with what was dispatched before.
struct SignalsCatchUpTests {
    private func recordingBus(
        limit: Int = 100, seams: Signals.CatchUpSeams = Signals.CatchUpSeams(),
        missed: (@Sendable (String, String?, Int) -> Void)? = nil
    ) -> Signals {
        Signals(recordingUpTo: limit, reportingMissed: missed, seams: seams)
    }

    @Test func aListenerAddedWhileCatchingUpHearsEarlierPayloadsInOrderBeforeAddReturns() throws {
        let signals = recordingBus()
        for value in 1...3 { signals.dispatch(TestSignals.ping, value) }
        signals.dispatch(TestSignals.word, "other signal")
        let inbox = Inbox<Int>()
        signals.catchingUp {
            try? signals.add(inbox, to: TestSignals.ping) { listener, value in listener.record(value) }
        }
        let heardWhenAdded = inbox.values
        #expect(heardWhenAdded == [1, 2, 3])
        signals.dispatch(TestSignals.ping, 4)
        #expect(inbox.values == [1, 2, 3, 4])
        #expect(signals.listenerCount(for: TestSignals.ping) == 1)
    }

    @Test func aTokenListenerCatchesUpToo() {
        let signals = recordingBus()
        signals.dispatch(TestSignals.ping, 1)
        let inbox = Inbox<Int>()
        var token: SubscriptionToken?
        signals.catchingUp { token = signals.listen(to: TestSignals.ping) { inbox.record($0) } }
        signals.dispatch(TestSignals.ping, 2)
        #expect(inbox.values == [1, 2])
        token?.cancel()
        signals.dispatch(TestSignals.ping, 3)
        #expect(inbox.values == [1, 2])
    }

    @Test func aListenerAddedAtAnyOtherTimeHearsOnlyLaterPayloads() throws {
        let signals = recordingBus()
        signals.dispatch(TestSignals.ping, 1)
        let inbox = Inbox<Int>()
        try signals.add(inbox, to: TestSignals.ping) { listener, value in listener.record(value) }
        signals.dispatch(TestSignals.ping, 2)
        #expect(inbox.values == [2])
    }

    @Test func aPlainBusNeverRecordsNorCatchesUp() {
        let signals = Signals()
        signals.dispatch(TestSignals.ping, 1)
        let inbox = Inbox<Int>()
        signals.catchingUp { try? signals.add(inbox, to: TestSignals.ping) { listener, value in listener.record(value) } }
        #expect(inbox.values.isEmpty)
        #expect(!signals.records)
        #expect(signals.recordedDispatchCount == 0)
    }

    @Test func onlyATestMetaControllersOwnBusAndTheChildrenSharingItRecord() {
        let test = MetaController.withFakes()
        #expect(test.signals.records)
        #expect(MetaController(parent: test).signals.records)
        #expect(!MetaController(parent: test, signals: Signals()).signals.records)
        #expect(!MetaController().signals.records)
        #expect(!MetaController(parent: MetaController()).signals.records)
    }

    @Test func aReplaysLastSignalIsHeardInOrderAndItsLastPayloadOnce() throws {
        let signals = recordingBus()
        for state in ["a", "b", "c"] { signals.dispatch(TestSignals.state, state) }
        let inbox = Inbox<String>()
        signals.catchingUp { try? signals.add(inbox, to: TestSignals.state) { listener, value in listener.record(value) } }
        #expect(inbox.values == ["a", "b", "c"])
    }

    @Test func aOnceListenerHearsTheFirstMatchingRecordedPayloadAndIsGone() throws {
        let signals = recordingBus()
        for value in 1...4 { signals.dispatch(TestSignals.ping, value) }
        let inbox = Inbox<Int>()
        signals.catchingUp {
            try? signals.add(inbox, to: TestSignals.ping, once: true, where: { $0.isMultiple(of: 2) }) { listener, value in
                listener.record(value)
            }
        }
        #expect(inbox.values == [2])
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
        signals.dispatch(TestSignals.ping, 6)
        #expect(inbox.values == [2])
    }

    @Test func aFilterAppliesWhileCatchingUpAndAfter() throws {
        let signals = recordingBus()
        for value in 1...5 { signals.dispatch(TestSignals.ping, value) }
        let inbox = Inbox<Int>()
        signals.catchingUp {
            try? signals.add(inbox, to: TestSignals.ping, where: { $0.isMultiple(of: 2) }) { listener, value in
                listener.record(value)
            }
        }
        signals.dispatch(TestSignals.ping, 6)
        signals.dispatch(TestSignals.ping, 7)
        #expect(inbox.values == [2, 4, 6])
    }

    @Test func aSecondAddOfTheSameListenerStillThrows() throws {
        let signals = recordingBus()
        signals.dispatch(TestSignals.ping, 1)
        let inbox = Inbox<Int>()
        try signals.add(inbox, to: TestSignals.ping) { listener, value in listener.record(value) }
        var thrown: SignalsError?
        signals.catchingUp {
            do {
                try signals.add(inbox, to: TestSignals.ping) { listener, value in listener.record(value) }
            } catch { thrown = error as? SignalsError }
        }
        #expect(thrown?.code == .alreadyListening)
        #expect(inbox.values.isEmpty)
    }

    /// A handler that removes its listener while it catches up: it hears no later payload.
    @Test func aListenerRemovedWhileItCatchesUpHearsNothingMore() {
        let signals = recordingBus()
        for value in 1...3 { signals.dispatch(TestSignals.ping, value) }
        let inbox = Inbox<Int>()
        let removed = Inbox<Bool>()
        signals.catchingUp {
            try? signals.add(inbox, to: TestSignals.ping) { listener, value in
                listener.record(value)
                if value == 2 { removed.record(signals.remove(listener, from: TestSignals.ping)) }
            }
        }
        signals.dispatch(TestSignals.ping, 4)
        #expect(inbox.values == [1, 2])
        #expect(removed.values == [true])
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
    }

    @Test func removingASignalForgetsWhatItRecorded() {
        let signals = recordingBus()
        signals.dispatch(TestSignals.ping, 1)
        signals.dispatch(TestSignals.word, "kept")
        signals.removeSignal(TestSignals.ping)
        let pings = Inbox<Int>(), words = Inbox<String>()
        signals.catchingUp {
            try? signals.add(pings, to: TestSignals.ping) { listener, value in listener.record(value) }
            try? signals.add(words, to: TestSignals.word) { listener, value in listener.record(value) }
        }
        #expect(pings.values.isEmpty)
        #expect(words.values == ["kept"])
        #expect(signals.recordedDispatchCount == 1)
    }

    /// 100,000 dispatches keep 10,000; a listener that catches up hears those, the last ones,
    /// and the bus says how many of its signal it missed.
    @Test func theRecordKeepsTheLastTenThousandDispatches() {
        let missed = Inbox<String>()
        let signals = recordingBus(
            limit: Signals.recordedDispatchLimit,
            missed: { signal, listener, count in
                missed.record("\(listener ?? "token") missed \(count) of \(signal)")
            })
        for value in 1...100_000 { signals.dispatch(TestSignals.ping, value) }
        #expect(Signals.recordedDispatchLimit == 10_000)
        #expect(signals.recordedDispatchCount == 10_000)
        let inbox = Inbox<Int>()
        signals.catchingUp { try? signals.add(inbox, to: TestSignals.ping) { listener, value in listener.record(value) } }
        let heard = inbox.values
        #expect(heard.count == 10_000)
        #expect(heard.elementsEqual(90_001...100_000), "heard \(heard.first ?? 0) to \(heard.last ?? 0)")
        #expect(missed.values == ["Inbox<Int> missed 90000 of ping"])
    }

    /// A `replaysLast` signal whose payloads all fell out of the record still hands its last one.
    @Test func aReplaysLastSignalWhoseRecordIsGoneStillHandsItsLastPayload() {
        let missed = Inbox<Int>()
        let signals = recordingBus(limit: 2, missed: { _, _, count in missed.record(count) })
        signals.dispatch(TestSignals.state, "signed in")
        signals.dispatch(TestSignals.ping, 1)
        signals.dispatch(TestSignals.ping, 2)
        let inbox = Inbox<String>()
        signals.catchingUp { try? signals.add(inbox, to: TestSignals.state) { listener, value in listener.record(value) } }
        #expect(inbox.values == ["signed in"])
        #expect(missed.values == [1])
    }

    /// Another thread dispatches while the catching-up listener is held between taking the
    /// recorded payloads and hearing them: it hears every payload once, the recorded first.
    @Test(arguments: [false, true])
    func aDispatchWhileCatchingUpIsHeardOnceAfterTheRecordedOnes(onAQueue: Bool) {
        let hold = HeldCatchUp()
        let signals = recordingBus(seams: hold.seams)
        signals.dispatch(TestSignals.ping, 1)
        signals.dispatch(TestSignals.ping, 2)
        let inbox = Inbox<Int>()
        let queue = DispatchQueue(label: "catch-up delivery")
        let delivery: SignalDelivery = onAQueue ? .queue(queue) : .synchronous
        let adding = DispatchGroup()
        DispatchQueue.global().async(group: adding) {
            signals.catchingUp {
                try? signals.add(inbox, to: TestSignals.ping, delivery: delivery) { listener, value in listener.record(value) }
            }
        }
        guard hold.reachedInTime() else { return }
        signals.dispatch(TestSignals.ping, 3)   // not a listener yet: recorded, heard in its next round
        signals.dispatch(TestSignals.ping, 4)
        hold.held.signal()
        adding.wait()
        signals.dispatch(TestSignals.ping, 5)   // a listener now: heard live
        queue.sync {}
        #expect(inbox.values == [1, 2, 3, 4, 5])
    }

    /// A dispatcher that outpaces the handler: every round of the catch-up finds a new payload
    /// (dispatched from the seam, between the round's take and its hearing). The listener stops
    /// looking after `catchUpRounds` rounds, joins, and hears the rest and the live ones, each once.
    @Test func aDispatcherThatOutpacesTheCatchUpCannotKeepItFromJoining() throws {
        let bus = Lock<Signals?>(nil)
        let rounds = Lock(0)
        let seams = Signals.CatchUpSeams(took: {
            // At most 1,000, so that a catch-up without a bound ends the test instead of hanging it.
            let round = rounds.withLock { count in
                count += 1
                return count
            }
            if round <= 1_000 { bus.withLock { $0 }?.dispatch(TestSignals.ping, 100 + round) }
        })
        let signals = recordingBus(seams: seams)
        bus.withLock { $0 = signals }
        signals.dispatch(TestSignals.ping, 1)
        let inbox = Inbox<Int>()
        signals.catchingUp { try? signals.add(inbox, to: TestSignals.ping) { listener, value in listener.record(value) } }

        let taken = rounds.withLock { $0 }
        // Docs/Signals.md, rule 7: it stops catching up after 16 rounds (15 that heard, the 16th joins).
        #expect(taken == 15, "rounds that heard before joining")
        #expect(signals.listenerCount(for: TestSignals.ping) == 1)
        signals.dispatch(TestSignals.ping, 999)
        #expect(inbox.values == [1] + (1...taken).map { 100 + $0 } + [999])
    }

    /// A `once` listener that joins after the last round still hears one payload in all.
    @Test func aOnceListenerThatJoinsAfterTheLastRoundHearsOneInAll() throws {
        let bus = Lock<Signals?>(nil)
        let rounds = Lock(0)
        let seams = Signals.CatchUpSeams(took: {
            let round = rounds.withLock { count in
                count += 1
                return count
            }
            if round <= 1_000 { bus.withLock { $0 }?.dispatch(TestSignals.ping, 7) }
        })
        let signals = recordingBus(seams: seams)
        bus.withLock { $0 = signals }
        signals.dispatch(TestSignals.ping, 7)
        let inbox = Inbox<Int>()
        // Every payload of the catch-up is filtered out, so each round finds more and none is heard.
        signals.catchingUp {
            try? signals.add(inbox, to: TestSignals.ping, once: true, where: { $0 == 42 }) { listener, value in listener.record(value) }
        }
        #expect(rounds.withLock { $0 } == 15)
        #expect(signals.listenerCount(for: TestSignals.ping) == 1)
        signals.dispatch(TestSignals.ping, 42)
        signals.dispatch(TestSignals.ping, 42)
        #expect(inbox.values == [42])
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
    }

    /// The same race for a listener whose handler runs on the main actor: the payloads reach
    /// its mailbox in order, the recorded ones first, each once.
    @Test(.timeLimit(.minutes(2))) func aMainActorListenerCatchingUpWhileAnotherThreadDispatchesHearsEachOnceInOrder() async {
        let (heard, listener) = raceAMainActorCatchUp()
        var values: [Int] = []
        for await value in heard {
            values.append(value)
            if values.count == 5 { break }
        }
        #expect(values == [1, 2, 3, 4, 5])
        withExtendedLifetime(listener) {}
    }

    /// Adds a main-actor listener on another thread, held while this one dispatches 3 and 4.
    /// - Returns: What the listener hears, and the listener, to keep while it hears.
    private func raceAMainActorCatchUp() -> (AsyncStream<Int>, Inbox<Int>) {
        let hold = HeldCatchUp()
        let signals = recordingBus(seams: hold.seams)
        signals.dispatch(TestSignals.ping, 1)
        signals.dispatch(TestSignals.ping, 2)
        let (heard, continuation) = AsyncStream<Int>.makeStream()
        let listener = Inbox<Int>()
        let adding = DispatchGroup()
        DispatchQueue.global().async(group: adding) {
            signals.catchingUp {
                try? signals.add(listener, to: TestSignals.ping, delivery: .mainActor) { _, value in
                    MainActor.assertIsolated()
                    continuation.yield(value)
                }
            }
        }
        guard hold.reachedInTime() else {
            continuation.finish()
            return (heard, listener)
        }
        signals.dispatch(TestSignals.ping, 3)
        signals.dispatch(TestSignals.ping, 4)
        hold.held.signal()
        adding.wait()
        signals.dispatch(TestSignals.ping, 5)
        return (heard, listener)
    }

    /// Two threads read the same empty declared slot; the first is held after it made its
    /// value. The second stores and pushes its own, which catches up; the first finds it stored
    /// and returns it. The value that lost never listens: each payload is counted once.
    @Test func theDeclaredValueThatLosesARaceLeavesNoListenerBehind() {
        let hold = HeldCatchUp(holdingMade: true)
        let metaController = MetaController(
            declaredValues: .test, signals: Signals(recordingUpTo: 100, reportingMissed: nil, seams: hold.seams))
        metaController.signals.dispatch(TestSignals.ping, 1)
        metaController.signals.dispatch(TestSignals.ping, 2)
        let reads = Lock<[PingCounter]>([])
        let first = DispatchGroup()
        DispatchQueue.global().async(group: first) {
            if let read = metaController[PingCounterKey.self] { reads.withLock { $0.append(read) } }
        }
        guard hold.reachedInTime() else { return }
        let second = metaController[PingCounterKey.self]
        hold.held.signal()
        first.wait()
        metaController.signals.dispatch(TestSignals.ping, 3)
        let firstRead = reads.withLock { $0.first }
        #expect(firstRead != nil && firstRead === second)
        #expect(second?.heard.values == [1, 2, 3])
        #expect(metaController.signals.listenerCount(for: TestSignals.ping) == 1)
        #expect(PingCounter.made.withLock { $0 } >= 2)
    }
}

/// Counts what it hears on `TestSignals.ping` from its arrival on.
final class PingCounter: WeakMetaControllerConsumer, Sendable {
    static let made = Lock(0)
    let metaControllerReference = WeakMetaControllerReference()
    let heard = Inbox<Int>()
    init() { Self.made.withLock { $0 += 1 } }
    func metaControllerDidArrive() {
        try? signals?.add(self, to: TestSignals.ping) { counter, value in counter.heard.record(value) }
    }
}

enum PingCounterKey: MetaControllerKey {
    typealias Value = PingCounter
    static var testValue: Value? { PingCounter() }
}

/// Holds the first catch-up of a bus after it took the recorded payloads (or, with
/// `holdingMade`, the first declared value made), until the test lets it go.
final class HeldCatchUp: Sendable {
    let reached = DispatchSemaphore(value: 0)
    let held = DispatchSemaphore(value: 0)
    private let first = Lock(true)
    private let holdingMade: Bool

    init(holdingMade: Bool = false) { self.holdingMade = holdingMade }

    /// Whether the held side reached its hold; a test fails, instead of hanging, when it never
    /// does (the deadline is a bound for a broken build, never a wait for the scheduler).
    func reachedInTime() -> Bool {
        if reached.wait(timeout: .now() + .seconds(120)) == .success { return true }
        held.signal()
        Issue.record("the catching-up side never reached its hold")
        return false
    }

    private func holdTheFirst() {
        guard
            first.withLock({ isFirst in
                defer { isFirst = false }
                return isFirst
            })
        else { return }
        reached.signal()
        held.wait()
    }

    var seams: Signals.CatchUpSeams {
        Signals.CatchUpSeams(
            took: { [self] in if !holdingMade { holdTheFirst() } },
            made: { [self] in if holdingMade { holdTheFirst() } })
    }
}
