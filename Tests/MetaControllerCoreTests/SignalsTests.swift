import Dispatch
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

struct SignalsTests {
    @Test func dispatchReachesEveryListenerInOrder() throws {
        let signals = Signals()
        let order = Inbox<String>()
        let first = Inbox<Int>("first"), second = Inbox<Int>("second")
        try signals.add(first, to: TestSignals.ping) { listener, value in
            listener.record(value)
            order.record(listener.name)
        }
        try signals.add(second, to: TestSignals.ping) { listener, value in
            listener.record(value)
            order.record(listener.name)
        }
        signals.dispatch(TestSignals.ping, 1)
        signals.dispatch(TestSignals.ping, 2)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
        #expect(order.values == ["first", "second", "first", "second"])
    }

    @Test func signalsWithOtherKeysOrPayloadTypesAreSeparate() throws {
        let signals = Signals()
        let ints = Inbox<Int>(), words = Inbox<String>()
        try signals.add(ints, to: TestSignals.ping) { $0.record($1) }
        try signals.add(words, to: Signal<String>("ping")) { $0.record($1) }   // same name, other payload
        signals.dispatch(TestSignals.ping, 7)
        signals.dispatch(TestSignals.word, "unheard")
        #expect(ints.values == [7])
        #expect(words.values.isEmpty)
    }

    @Test func anObjectListensToASignalAtMostOnce() throws {
        let signals = Signals()
        let inbox = Inbox<Int>()
        try signals.add(inbox, to: TestSignals.ping) { $0.record($1) }
        let error = #expect(throws: SignalsError.self) {
            try signals.add(inbox, to: TestSignals.ping) { $0.record($1 * 100) }
        }
        #expect(error?.code == .alreadyListening)
        #expect(error?.description == "Inbox<Int> already listens to ping")
        signals.dispatch(TestSignals.ping, 1)
        #expect(inbox.values == [1])   // the refused handler never runs
        try signals.add(inbox, to: Signal<Int>("other")) { $0.record($1) }   // another signal is fine
    }

    @Test func listenersAreHeldWeaklyAndDroppedWhenGone() throws {
        let signals = Signals()
        let counter = Counter()
        var listener: Inbox<Int>? = Inbox()
        weak let weakListener = listener
        try signals.add(listener!, to: TestSignals.ping) { _, _ in counter.increment() }
        #expect(signals.listenerCount(for: TestSignals.ping) == 1)
        listener = nil
        #expect(weakListener == nil)   // the bus did not keep it
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
        signals.dispatch(TestSignals.ping, 1)
        #expect(counter.value == 0)
    }

    @Test func aGoneListenerCanBeReplacedByANewOneAtTheSameAddress() throws {
        let signals = Signals()
        for _ in 0..<50 {
            let inbox = Inbox<Int>()
            try signals.add(inbox, to: TestSignals.ping) { $0.record($1) }
        }
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
    }

    @Test func removeStopsOneListener() throws {
        let signals = Signals()
        let kept = Inbox<Int>(), removed = Inbox<Int>()
        try signals.add(kept, to: TestSignals.ping) { $0.record($1) }
        try signals.add(removed, to: TestSignals.ping) { $0.record($1) }
        #expect(signals.remove(removed, from: TestSignals.ping))
        #expect(!signals.remove(removed, from: TestSignals.ping))
        signals.dispatch(TestSignals.ping, 1)
        #expect(kept.values == [1])
        #expect(removed.values.isEmpty)
        try signals.add(removed, to: TestSignals.ping) { $0.record($1) }   // may listen again
        signals.dispatch(TestSignals.ping, 2)
        #expect(removed.values == [2])
    }

    @Test func removeSignalDropsEveryListenerAndTheReplay() throws {
        let signals = Signals()
        let inbox = Inbox<String>()
        signals.dispatch(TestSignals.state, "old")
        try signals.add(inbox, to: TestSignals.state) { $0.record($1) }
        signals.removeSignal(TestSignals.state)
        #expect(signals.listenerCount(for: TestSignals.state) == 0)
        signals.dispatch(TestSignals.word, "other signal")
        let late = Inbox<String>()
        try signals.add(late, to: TestSignals.state) { $0.record($1) }
        #expect(late.values.isEmpty)   // nothing replayed
        #expect(inbox.values == ["old"])
    }

    @Test func onceDeliversOnlyTheFirstPayload() throws {
        let signals = Signals()
        let inbox = Inbox<Int>()
        try signals.add(inbox, to: TestSignals.ping, once: true) { $0.record($1) }
        signals.dispatch(TestSignals.ping, 1)
        signals.dispatch(TestSignals.ping, 2)
        #expect(inbox.values == [1])
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
    }

    @Test func onceIsDeliveredOnceEvenUnderConcurrentDispatch() async throws {
        let signals = Signals()
        let counter = Counter()
        let token = signals.listen(to: TestSignals.ping, once: true) { _ in counter.increment() }
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<16 { group.addTask { signals.dispatch(TestSignals.ping, i) } }
        }
        #expect(counter.value == 1)
        _ = token
    }

    @Test func filterDeliversMatchingPayloadsAndOnceWaitsForAMatch() throws {
        let signals = Signals()
        let evens = Inbox<Int>(), firstBig = Inbox<Int>()
        try signals.add(evens, to: TestSignals.ping, where: { $0 % 2 == 0 }) { $0.record($1) }
        try signals.add(firstBig, to: TestSignals.ping, once: true, where: { $0 > 2 }) { $0.record($1) }
        for i in 1...6 { signals.dispatch(TestSignals.ping, i) }
        #expect(evens.values == [2, 4, 6])
        #expect(firstBig.values == [3])
    }

    @Test func replayHandsTheLastPayloadToANewListener() throws {
        let signals = Signals()
        signals.dispatch(TestSignals.state, "first")
        signals.dispatch(TestSignals.state, "second")   // kept with no listener at all
        let late = Inbox<String>()
        try signals.add(late, to: TestSignals.state) { $0.record($1) }
        #expect(late.values == ["second"])
        signals.dispatch(TestSignals.state, "third")
        #expect(late.values == ["second", "third"])
        let token = signals.listen(to: TestSignals.state) { late.record("token: \($0)") }
        #expect(late.values.last == "token: third")
        // Without replaysLast nothing is kept.
        signals.dispatch(TestSignals.word, "gone")
        let wordInbox = Inbox<String>()
        try signals.add(wordInbox, to: TestSignals.word) { $0.record($1) }
        #expect(wordInbox.values.isEmpty)
        _ = token
    }

    @Test func aTokenListensUntilCancelledOrReleased() {
        let signals = Signals()
        let inbox = Inbox<Int>()
        var token: SubscriptionToken? = signals.listen(to: TestSignals.ping) { inbox.record($0) }
        signals.dispatch(TestSignals.ping, 1)
        token?.cancel()
        #expect(token?.isCancelled == true)
        token?.cancel()   // twice is fine
        signals.dispatch(TestSignals.ping, 2)
        token = signals.listen(to: TestSignals.ping) { inbox.record($0) }
        signals.dispatch(TestSignals.ping, 3)
        #expect(signals.listenerCount(for: TestSignals.ping) == 1)
        token = nil   // released: cancelled
        signals.dispatch(TestSignals.ping, 4)
        #expect(inbox.values == [1, 3])
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
    }

    @Test func listenerCountCountsLiveListeners() throws {
        let signals = Signals()
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
        let a = Inbox<Int>(), b = Inbox<Int>()
        try signals.add(a, to: TestSignals.ping) { _, _ in }
        try signals.add(b, to: TestSignals.ping) { _, _ in }
        let token = signals.listen(to: TestSignals.ping) { _ in }
        #expect(signals.listenerCount(for: TestSignals.ping) == 3)
        token.cancel()
        #expect(signals.listenerCount(for: TestSignals.ping) == 2)
    }

    // MARK: Reentrancy

    @Test func aHandlerMayAddRemoveAndDispatchWithoutDeadlock() throws {
        let signals = Signals()
        let log = Inbox<String>()
        let late = Inbox<Int>("late"), victim = Inbox<Int>("victim"), actor = Inbox<Int>("actor")
        try signals.add(actor, to: TestSignals.ping) { listener, value in
            log.record("actor \(value)")
            if value == 1 {
                try? signals.add(late, to: TestSignals.ping) { $0.record($1) }
                signals.remove(victim, from: TestSignals.ping)
                signals.dispatch(TestSignals.word, "nested")
            }
        }
        try signals.add(victim, to: TestSignals.ping) { listener, value in log.record("victim \(value)") }
        try signals.add(log, to: TestSignals.word) { listener, word in listener.record("word \(word)") }
        signals.dispatch(TestSignals.ping, 1)
        signals.dispatch(TestSignals.ping, 2)
        #expect(late.values == [2])   // added during dispatch 1: not in it
        #expect(
            log.values == [
                "actor 1", "word nested",   // the nested dispatch ran in full, at once
                "victim 1",   // removed during dispatch 1: still in it
                "actor 2",   // and in no later one
            ])
    }

    @Test func aHandlerMayDispatchTheSameSignalAgain() throws {
        let signals = Signals()
        let inbox = Inbox<Int>()
        try signals.add(inbox, to: TestSignals.ping) { listener, value in
            listener.record(value)
            if value < 3 { signals.dispatch(TestSignals.ping, value + 1) }
        }
        signals.dispatch(TestSignals.ping, 1)
        #expect(inbox.values == [1, 2, 3])
    }

    // MARK: Delivery

    @Test func queueDeliveryRunsOnTheQueueInOrder() async throws {
        let signals = Signals()
        let queue = DispatchQueue(label: "signals.test")
        let inbox = Inbox<Int>()
        try signals.add(inbox, to: TestSignals.ping, delivery: .queue(queue)) { listener, value in
            dispatchPrecondition(condition: .onQueue(queue))
            listener.record(value)
        }
        for i in 1...5 { signals.dispatch(TestSignals.ping, i) }
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(inbox.values == [1, 2, 3, 4, 5])
    }

    @Test @MainActor func mainActorHandlersRunAtOnceWhenDispatchedOnTheMainActor() throws {
        let signals = Signals()
        let screen = MainActorInbox()
        try signals.add(screen, to: TestSignals.word) { @MainActor screen, word in screen.words.append(word) }
        let token = signals.listen(to: TestSignals.word, delivery: .mainActor) { word in
            MainActor.assumeIsolated { screen.words.append("token \(word)") }
        }
        signals.dispatch(TestSignals.word, "hello")
        #expect(screen.words == ["hello", "token hello"])
        _ = token
    }

    /// The wait is bounded from when the body runs, so a hop that never comes fails the test; a
    /// `.timeLimit` also counted the wait for the main actor's turn in a loaded parallel run
    /// (other tests' main-actor bodies), and failed the test there.
    @Test @MainActor func mainActorHandlersHopToTheMainActorFromElsewhere() async throws {
        let signals = Signals()
        let screen = MainActorInbox()
        try signals.add(screen, to: TestSignals.word) { @MainActor screen, word in
            MainActor.assertIsolated()
            screen.words.append(word)
        }
        await Task.detached { signals.dispatch(TestSignals.word, "from afar") }.value
        let deadline = ContinuousClock.now + .seconds(300)
        while screen.words.isEmpty, ContinuousClock.now < deadline { await Task.yield() }
        #expect(screen.words == ["from afar"])
    }

    /// A dispatch from a nonisolated function that runs on the main thread.
    nonisolated private static func dispatchFromPlainCode(_ signals: Signals, _ word: String) {
        signals.dispatch(TestSignals.word, word)
    }

    @Test @MainActor func aDispatchOnTheMainThreadReachesMainActorListenersBeforeItReturns() throws {
        let signals = Signals()
        let screen = MainActorInbox()
        try signals.add(screen, to: TestSignals.word) { @MainActor screen, word in screen.words.append("closure \(word)") }
        let token = signals.listen(to: TestSignals.word, delivery: .mainActor) { word in
            MainActor.assumeIsolated { screen.words.append("token \(word)") }
        }
        Self.dispatchFromPlainCode(signals, "a")
        #expect(screen.words == ["closure a", "token a"])
        token.cancel()
    }

    @Test @MainActor func payloadsWaitingForTheMainActorArriveFirstAndInOrder() throws {
        let signals = Signals()
        let screen = MainActorInbox()
        try signals.add(screen, to: TestSignals.ping) { @MainActor screen, value in screen.words.append("\(value)") }
        onAnotherThreadWhileTheMainThreadWaits {
            for value in 1...100 { signals.dispatch(TestSignals.ping, value) }
        }
        #expect(screen.words.isEmpty)
        Self.dispatchPing(signals, 101)
        #expect(screen.words == (1...101).map(String.init))
    }

    nonisolated private static func dispatchPing(_ signals: Signals, _ value: Int) {
        signals.dispatch(TestSignals.ping, value)
    }

    /// A main-actor handler is never re-entered: what it dispatches to itself
    /// reaches it right after it returns; other listeners get it at once.
    @Test @MainActor func aMainActorListenerIsNeverReentered() throws {
        let signals = Signals()
        let screen = MainActorInbox()
        let other = MainActorInbox()
        try signals.add(screen, to: TestSignals.ping) { @MainActor screen, value in
            screen.words.append("enter \(value)")
            if value < 2 { signals.dispatch(TestSignals.ping, value + 1) }
            screen.words.append("leave \(value)")
        }
        try signals.add(other, to: TestSignals.ping) { @MainActor other, value in
            other.words.append("\(value) while the first saw \(screen.words.count) calls")
        }
        signals.dispatch(TestSignals.ping, 1)
        #expect(screen.words == ["enter 1", "leave 1", "enter 2", "leave 2"])
        #expect(other.words == ["2 while the first saw 1 calls", "1 while the first saw 4 calls"])
    }

    // MARK: In a MetaController

    @Test func everyMetaControllerHasABusThatChildrenShare() throws {
        let metaController = MetaController()
        let child = MetaController(parent: metaController)
        #expect(child.signals === metaController.signals)
        #expect(MetaController().signals !== metaController.signals)
        let screen = Screen()
        #expect(screen.signals == nil)
        child.passMetaController(to: screen)
        let inbox = Inbox<Int>()
        try metaController.signals.add(inbox, to: TestSignals.ping) { $0.record($1) }
        screen.signals?.dispatch(TestSignals.ping, 5)
        #expect(inbox.values == [5])
    }

    // MARK: Concurrency

    @Test func manyTasksDispatchingWhileListenersComeAndGo() async throws {
        let signals = Signals()
        let permanent = Inbox<Int>()
        try signals.add(permanent, to: TestSignals.ping) { $0.record($1) }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<200 {
                        switch (task + i) % 4 {
                        case 0:
                            signals.dispatch(TestSignals.ping, i)
                        case 1:
                            let inbox = Inbox<Int>()
                            try? signals.add(inbox, to: TestSignals.ping) { $0.record($1) }
                            signals.dispatch(TestSignals.ping, i)
                            signals.remove(inbox, from: TestSignals.ping)
                        case 2:
                            let token = signals.listen(to: TestSignals.ping, once: i % 2 == 0) { _ in }
                            signals.dispatch(TestSignals.state, "\(i)")
                            token.cancel()
                        default:
                            _ = signals.listenerCount(for: TestSignals.ping)
                            signals.dispatch(TestSignals.ping, i)
                        }
                    }
                }
            }
        }
        #expect(permanent.values.count == 8 * 200 / 4 * 3)
        #expect(signals.listenerCount(for: TestSignals.ping) == 1)
    }
}

@MainActor
final class MainActorInbox {
    var words: [String] = []
}
