import Foundation
import MetaController
import MetaControllerTesting
import Testing

/// A listener object that records what it heard, from any thread.
final class Ear: Sendable {
    let heard = Locked<[Int]>([])
    let threads = Locked<[UInt64]>([])
    let onDeinit: (@Sendable () -> Void)?
    init(onDeinit: (@Sendable () -> Void)? = nil) { self.onDeinit = onDeinit }
    deinit { onDeinit?() }
    func hear(_ value: Int) {
        heard.withLock { $0.append(value) }
        threads.withLock { $0.append(thisThreadID()) }
    }
}

enum TestSignals {
    static let number = Signal<Int>("number")
    static let replayed = Signal<Int>("replayed", replaysLast: true)
    static let name = Signal<String>("signedIn", replaysLast: true)
}

func uniqueSignal(_ label: String = "s", replaysLast: Bool = false) -> Signal<Int> {
    Signal<Int>("\(label)-\(UUID().uuidString)", replaysLast: replaysLast)
}

// MARK: - Keys

@Suite("Signal: keys")
struct SignalKeyTests {
    @Test func keysWithEqualNamesPayloadTypesAndReplaySettingsAreTheSameSignal() {
        let (first, second) = (Signal<Int>("count"), Signal<Int>("count"))
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)
        #expect(Signal<Int>("count") != Signal<Int>("count", replaysLast: true))
        #expect(Signal<Int>("count") != Signal<Int>("other"))
    }

    /// Hashable: equal values hash alike within one run of the program, whenever each was made.
    @Test func equalKeysMadeOneAfterTheOtherHashAlike() {
        let name = "made-\(UUID().uuidString)"
        let first = Signal<Int>(name).hashValue
        let second = Signal<Int>(name).hashValue
        #expect(first == second)
    }

    @Test func aKeyMadeAgainAtRunTimeReachesTheListenersAddedThroughTheFirst() {
        let signals = Signals()
        let heard = Locked<[Int]>([])
        func key(_ id: Int) -> Signal<Int> { Signal<Int>("user-\(id)") }
        let token = signals.listen(to: key(42)) { value in heard.withLock { $0.append(value) } }
        signals.dispatch(Signal<Int>("user-" + String(6 * 7)), 1)
        #expect(heard.get == [1])
        #expect(signals.listenerCount(for: Signal<Int>(String("user-42"))) == 1)
        token.cancel()
    }

    @Test func theSameNameWithAnotherPayloadTypeIsAnotherSignal() {
        let signals = Signals()
        let heard = Locked<[Int]>([])
        let token = signals.listen(to: Signal<Int>("count")) { value in heard.withLock { $0.append(value) } }
        signals.dispatch(Signal<String>("count"), "one")
        #expect(heard.get.isEmpty)
        #expect(signals.listenerCount(for: Signal<String>("count")) == 0)
        #expect(signals.listenerCount(for: Signal<Int>("count")) == 1)
        token.cancel()
    }

    @Test func theSameNameWithAnotherReplaySettingIsAnotherSignal() {
        let signals = Signals()
        let heard = Locked<[Int]>([])
        let token = signals.listen(to: Signal<Int>("flag")) { value in heard.withLock { $0.append(value) } }
        signals.dispatch(Signal<Int>("flag", replaysLast: true), 1)
        #expect(heard.get.isEmpty)
        token.cancel()
    }

    @Test func namesWithAnyCharacterAreKeptApart() {
        let signals = Signals()
        let names = ["a", "a\u{0}", "a\u{0}b", "a\n", "a\u{2028}", "Пример", "例子", String(repeating: "x", count: 100_000), ""]
        let heard = Locked<[String]>([])
        let tokens = names.map { name in signals.listen(to: Signal<Int>(name)) { _ in heard.withLock { $0.append(name) } } }
        for name in names { signals.dispatch(Signal<Int>(name), 0) }
        #expect(heard.get == names)
        withExtendedLifetime(tokens) {}
    }

    @Test func aKeyDescribesItselfByItsName() {
        #expect(Signal<Int>("feedLoaded").description == "feedLoaded")
        #expect(Signal<Int>("feedLoaded", replaysLast: true).replaysLast)
        #expect(Signal<Int>("feedLoaded").name == "feedLoaded")
    }
}

// MARK: - Listeners

@Suite("Signals: listeners, tokens and options")
struct SignalsListenerTests {
    @Test func aSynchronousHandlerRunsOnTheDispatchingThreadBeforeDispatchReturns() throws {
        let signals = Signals()
        let ear = Ear()
        try signals.add(ear, to: TestSignals.number) { ear, value in ear.hear(value) }
        signals.dispatch(TestSignals.number, 7)
        #expect(ear.heard.get == [7])
        #expect(ear.threads.get == [thisThreadID()])
    }

    @Test func theHandlerReceivesTheListenerItself() throws {
        let signals = Signals()
        let ear = Ear()
        let same = Locked(false)
        try signals.add(ear, to: TestSignals.number) { listener, _ in same.withLock { $0 = listener === ear } }
        signals.dispatch(TestSignals.number, 1)
        #expect(same.get)
    }

    @Test func anObjectListensToASignalAtMostOnce() throws {
        let signals = Signals()
        let ear = Ear()
        try signals.add(ear, to: TestSignals.number) { ear, value in ear.hear(value) }
        do {
            try signals.add(ear, to: TestSignals.number) { ear, value in ear.hear(value) }
            Issue.record("a second add did not throw")
        } catch {
            #expect(error.code == .alreadyListening)
            #expect(error.description.contains("Ear"))
            #expect(error.description.contains("number"))
        }
        signals.dispatch(TestSignals.number, 1)
        #expect(ear.heard.get == [1])
    }

    @Test func anObjectMayListenToTwoSignals() throws {
        let signals = Signals()
        let ear = Ear()
        try signals.add(ear, to: TestSignals.number) { ear, value in ear.hear(value) }
        try signals.add(ear, to: Signal<Int>("other")) { ear, value in ear.hear(value * 10) }
        signals.dispatch(TestSignals.number, 1)
        signals.dispatch(Signal<Int>("other"), 2)
        #expect(ear.heard.get == [1, 20])
    }

    @Test func removeStopsOneListenerAndSaysWhetherItWasListening() throws {
        let signals = Signals()
        let (first, second) = (Ear(), Ear())
        try signals.add(first, to: TestSignals.number) { ear, value in ear.hear(value) }
        try signals.add(second, to: TestSignals.number) { ear, value in ear.hear(value) }
        #expect(signals.remove(first, from: TestSignals.number))
        #expect(!signals.remove(first, from: TestSignals.number))
        signals.dispatch(TestSignals.number, 1)
        #expect(first.heard.get.isEmpty)
        #expect(second.heard.get == [1])
        try signals.add(first, to: TestSignals.number) { ear, value in ear.hear(value) }
        #expect(signals.listenerCount(for: TestSignals.number) == 2)
    }

    @Test func aListenerThatIsGoneReceivesNothingAndIsNotCounted() throws {
        let signals = Signals()
        let calls = Locked(0)
        do {
            let ear = Ear()
            try signals.add(ear, to: TestSignals.number) { _, _ in calls.withLock { $0 += 1 } }
            #expect(signals.listenerCount(for: TestSignals.number) == 1)
        }
        #expect(signals.listenerCount(for: TestSignals.number) == 0)
        signals.dispatch(TestSignals.number, 1)
        #expect(calls.get == 0)
    }

    @Test func aListenerNeedsNoRemovalInDeinitAndTheBusIsNotKeptBusy() throws {
        let signals = Signals()
        let gone = Locked(0)
        for _ in 0..<1_000 {
            let ear = Ear(onDeinit: { gone.withLock { $0 += 1 } })
            try signals.add(ear, to: TestSignals.number) { ear, value in ear.hear(value) }
        }
        #expect(gone.get == 1_000)
        signals.dispatch(TestSignals.number, 1)
        #expect(signals.listenerCount(for: TestSignals.number) == 0)
    }

    @Test func theBusDoesNotKeepAListenerAlive() throws {
        let signals = Signals()
        weak var weakEar: Ear?
        do {
            let ear = Ear()
            weakEar = ear
            try signals.add(ear, to: TestSignals.number) { ear, value in ear.hear(value) }
        }
        #expect(weakEar == nil)
    }

    @Test func aTokenListensWhileKeptAndCancellingStopsIt() {
        let signals = Signals()
        let heard = Locked<[Int]>([])
        let token = signals.listen(to: TestSignals.number) { value in heard.withLock { $0.append(value) } }
        signals.dispatch(TestSignals.number, 1)
        #expect(!token.isCancelled)
        token.cancel()
        #expect(token.isCancelled)
        token.cancel()
        signals.dispatch(TestSignals.number, 2)
        #expect(heard.get == [1])
        #expect(signals.listenerCount(for: TestSignals.number) == 0)
    }

    @Test func releasingATokenStopsItsHandler() {
        let signals = Signals()
        let heard = Locked<[Int]>([])
        do {
            let token = signals.listen(to: TestSignals.number) { value in heard.withLock { $0.append(value) } }
            signals.dispatch(TestSignals.number, 1)
            withExtendedLifetime(token) {}
        }
        signals.dispatch(TestSignals.number, 2)
        #expect(heard.get == [1])
        #expect(signals.listenerCount(for: TestSignals.number) == 0)
    }

    @Test func listenerCountCountsObjectsAndTokensThatAreAlive() throws {
        let signals = Signals()
        let ear = Ear()
        try signals.add(ear, to: TestSignals.number) { _, _ in }
        let token = signals.listen(to: TestSignals.number) { _ in }
        #expect(signals.listenerCount(for: TestSignals.number) == 2)
        token.cancel()
        #expect(signals.listenerCount(for: TestSignals.number) == 1)
    }

    @Test func onceRemovesTheListenerAfterItsFirstPayloadThatPassesTheFilter() throws {
        let signals = Signals()
        let ear = Ear()
        try signals.add(ear, to: TestSignals.number, once: true, where: { $0 > 2 }) { ear, value in ear.hear(value) }
        for value in 1...5 { signals.dispatch(TestSignals.number, value) }
        #expect(ear.heard.get == [3])
        #expect(signals.listenerCount(for: TestSignals.number) == 0)
    }

    @Test func aOnceTokenHearsOnePayload() {
        let signals = Signals()
        let heard = Locked<[Int]>([])
        let token = signals.listen(to: TestSignals.number, once: true) { value in heard.withLock { $0.append(value) } }
        signals.dispatch(TestSignals.number, 1)
        signals.dispatch(TestSignals.number, 2)
        #expect(heard.get == [1])
        withExtendedLifetime(token) {}
    }

    @Test func aOnceListenerUnderConcurrentDispatchesReceivesExactlyOne() async throws {
        for _ in 0..<50 {
            let signals = Signals()
            let ear = Ear()
            try signals.add(ear, to: TestSignals.number, once: true) { ear, value in ear.hear(value) }
            await withTaskGroup(of: Void.self) { group in
                for thread in 0..<8 {
                    group.addTask { for value in 0..<50 { signals.dispatch(TestSignals.number, thread * 100 + value) } }
                }
            }
            #expect(ear.heard.get.count == 1)
        }
    }

    @Test func theFilterDeliversOnlyPayloadsForWhichItReturnsTrue() {
        let signals = Signals()
        let heard = Locked<[Int]>([])
        let token = signals.listen(to: TestSignals.number, where: { $0 % 2 == 0 }) { value in heard.withLock { $0.append(value) } }
        for value in 1...6 { signals.dispatch(TestSignals.number, value) }
        #expect(heard.get == [2, 4, 6])
        withExtendedLifetime(token) {}
    }

    @Test func queueDeliveryRunsOnTheQueueInDispatchOrder() async {
        let signals = Signals()
        let queue = DispatchQueue(label: "acceptance.serial")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let heard = Locked<[Int]>([])
        let onQueue = Locked(true)
        let token = signals.listen(to: TestSignals.number, delivery: .queue(queue)) { value in
            if DispatchQueue.getSpecific(key: key) != 1 { onQueue.withLock { $0 = false } }
            heard.withLock { $0.append(value) }
        }
        for value in 0..<1_000 { signals.dispatch(TestSignals.number, value) }
        #expect(await waitUntil { heard.get.count == 1_000 })
        #expect(heard.get == Array(0..<1_000))
        #expect(onQueue.get)
        withExtendedLifetime(token) {}
    }

    @Test func mainActorDeliveryFromAnotherThreadRunsLaterOnTheMainActorInOrder() async {
        let signals = Signals()
        let heard = Locked<[Int]>([])
        let onMain = Locked(true)
        // The main actor runs on the main queue (on Linux not always on the main thread).
        let key = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        let token = signals.listen(to: TestSignals.number, delivery: .mainActor) { value in
            if DispatchQueue.getSpecific(key: key) != 1 { onMain.withLock { $0 = false } }
            heard.withLock { $0.append(value) }
        }
        await Task.detached {
            for value in 0..<200 { signals.dispatch(TestSignals.number, value) }
        }.value
        #expect(await waitUntil(180) { heard.get.count == 200 })
        #expect(heard.get == Array(0..<200))
        #expect(onMain.get)
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func aMainActorHandlerRunsAtOnceWhenTheDispatchIsMadeOnTheMainActor() throws {
        let signals = Signals()
        let ear = Ear()
        try signals.add(ear, to: TestSignals.number) { @MainActor ear, value in ear.hear(value) }
        signals.dispatch(TestSignals.number, 5)
        #expect(ear.heard.get == [5])
    }

    @Test @MainActor func aMainActorHandlerIsNeverReEntered() throws {
        let signals = Signals()
        let events = Locked<[String]>([])
        let ear = Ear()
        try signals.add(ear, to: TestSignals.number) { @MainActor _, value in
            events.withLock { $0.append("enter \(value)") }
            if value == 1 { signals.dispatch(TestSignals.number, 2) }
            events.withLock { $0.append("exit \(value)") }
        }
        signals.dispatch(TestSignals.number, 1)
        #expect(events.get == ["enter 1", "exit 1", "enter 2", "exit 2"])
    }

    @Test @MainActor func mainActorDeliveryRunsAtOnceWhenTheDispatchIsMadeOnTheMainActor() {
        let signals = Signals()
        let heard = Locked<[Int]>([])
        let token = signals.listen(to: TestSignals.number, delivery: .mainActor) { value in heard.withLock { $0.append(value) } }
        signals.dispatch(TestSignals.number, 3)
        #expect(heard.get == [3])
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func aMainActorHandlerNeverSeesAnOlderPayloadAfterANewerOne() async {
        let signals = Signals()
        let heard = Locked<[Int]>([])
        let token = signals.listen(to: TestSignals.number, delivery: .mainActor) { value in heard.withLock { $0.append(value) } }
        await Task.detached { for value in 0..<1_000 { signals.dispatch(TestSignals.number, value) } }.value
        signals.dispatch(TestSignals.number, 1_000)
        #expect(await waitUntil(180) { heard.get.count == 1_001 })
        #expect(heard.get == Array(0...1_000))
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func aPayloadWaitingForTheMainActorDoesNotKeepItsListenerAlive() async throws {
        let signals = Signals()
        let calls = Locked(0)
        weak var weakEar: Ear?
        do {
            let ear = Ear()
            weakEar = ear
            try signals.add(ear, to: TestSignals.number) { @MainActor _, _ in calls.withLock { $0 += 1 } }
            // Dispatched off the main actor while the main actor is held here: the payload waits.
            let done = DispatchSemaphore(value: 0)
            Thread {
                signals.dispatch(TestSignals.number, 1); done.signal()
            }.start()
            done.wait()
        }
        #expect(weakEar == nil)
        let marker = Locked(false)
        let token = signals.listen(to: Signal<Int>("marker"), delivery: .mainActor) { _ in marker.withLock { $0 = true } }
        await Task.detached { signals.dispatch(Signal<Int>("marker"), 0) }.value
        #expect(await waitUntil(180) { marker.get })
        #expect(calls.get == 0)
        withExtendedLifetime(token) {}
    }

    @Test func aReplayedSignalHandsItsLastPayloadToALaterListenerAtOnce() throws {
        let signals = Signals()
        let signal = uniqueSignal(replaysLast: true)
        signals.dispatch(signal, 1)
        signals.dispatch(signal, 2)
        let ear = Ear()
        try signals.add(ear, to: signal) { ear, value in ear.hear(value) }
        #expect(ear.heard.get == [2])
        signals.dispatch(signal, 3)
        #expect(ear.heard.get == [2, 3])
    }

    @Test func aSignalThatDoesNotReplayHandsNothingToALaterListener() throws {
        let signals = Signals()
        let signal = uniqueSignal()
        signals.dispatch(signal, 1)
        let ear = Ear()
        try signals.add(ear, to: signal) { ear, value in ear.hear(value) }
        #expect(ear.heard.get.isEmpty)
    }

    @Test func removeSignalRemovesEveryListenerAndThePayloadItWouldReplay() throws {
        let signals = Signals()
        let signal = uniqueSignal(replaysLast: true)
        let (first, second) = (Ear(), Ear())
        try signals.add(first, to: signal) { ear, value in ear.hear(value) }
        try signals.add(second, to: signal) { ear, value in ear.hear(value) }
        signals.dispatch(signal, 1)
        signals.removeSignal(signal)
        #expect(signals.listenerCount(for: signal) == 0)
        signals.dispatch(Signal<Int>("unrelated"), 9)
        let late = Ear()
        try signals.add(late, to: signal) { ear, value in ear.hear(value) }
        #expect(late.heard.get.isEmpty)
        signals.dispatch(signal, 2)
        #expect(first.heard.get == [1])
        #expect(late.heard.get == [2])
    }

    @Test func aChildSharesItsParentsBusUnlessGivenItsOwn() {
        let app = MetaController()
        let child = MetaController(parent: app)
        let own = MetaController(parent: app, signals: Signals())
        #expect(child.signals === app.signals)
        #expect(own.signals !== app.signals)
        #expect(MetaController(parent: own).signals === own.signals)
    }

    @Test func aRecordingRecordsWhatIsDispatchedWithTheReplayedPayloadFirst() {
        let signals = Signals()
        let signal = uniqueSignal(replaysLast: true)
        signals.dispatch(signal, 1)
        let recording = signals.record(signal)
        signals.dispatch(signal, 2)
        #expect(recording.values == [1, 2])
        #expect(recording.count == 2 && recording.last == 2)
        recording.cancel()
        signals.dispatch(signal, 3)
        #expect(recording.values == [1, 2])
    }
}

// MARK: - Order, threads and reentrancy

@Suite("Signals: order, threads and reentrancy")
struct SignalsOrderTests {
    @Test func aDispatchDeliversInTheOrderListenersWereAdded() throws {
        let signals = Signals()
        let order = Locked<[Int]>([])
        let ears = (0..<10).map { _ in Ear() }
        for (index, ear) in ears.enumerated() {
            try signals.add(ear, to: TestSignals.number) { _, _ in order.withLock { $0.append(index) } }
        }
        signals.dispatch(TestSignals.number, 0)
        #expect(order.get == Array(0..<10))
    }

    @Test func aListenerAddedDuringADispatchDoesNotReceiveThatDispatch() throws {
        let signals = Signals()
        let late = Ear()
        let first = Ear()
        try signals.add(first, to: TestSignals.number) { _, value in
            if value == 1 { try? signals.add(late, to: TestSignals.number) { ear, value in ear.hear(value) } }
        }
        signals.dispatch(TestSignals.number, 1)
        signals.dispatch(TestSignals.number, 2)
        #expect(late.heard.get == [2])
    }

    @Test func aListenerRemovedDuringADispatchReceivesNoLaterOne() throws {
        let signals = Signals()
        let second = Ear()
        let first = Ear()
        try signals.add(first, to: TestSignals.number) { _, value in
            if value == 1 { signals.remove(second, from: TestSignals.number) }
        }
        try signals.add(second, to: TestSignals.number) { ear, value in ear.hear(value) }
        signals.dispatch(TestSignals.number, 1)
        signals.dispatch(TestSignals.number, 2)
        #expect(!second.heard.get.contains(2))
    }

    @Test func aDispatchFromAHandlerIsDeliveredInFullBeforeTheOuterGoesOn() throws {
        let signals = Signals()
        let events = Locked<[String]>([])
        let (a, b) = (Ear(), Ear())
        try signals.add(a, to: TestSignals.number) { _, value in
            events.withLock { $0.append("a\(value)") }
            if value == 1 { signals.dispatch(TestSignals.number, 2) }
        }
        try signals.add(b, to: TestSignals.number) { _, value in events.withLock { $0.append("b\(value)") } }
        signals.dispatch(TestSignals.number, 1)
        #expect(events.get == ["a1", "a2", "b2", "b1"])
    }

    @Test func eachDispatchIsDeliveredByTheThreadThatMadeIt() async throws {
        let signals = Signals()
        let signal = Signal<UInt64>("thread")
        let mismatches = Locked(0)
        let calls = Locked(0)
        let token = signals.listen(to: signal) { dispatcher in
            calls.withLock { $0 += 1 }
            if dispatcher != thisThreadID() { mismatches.withLock { $0 += 1 } }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let thread = Thread {
                        for _ in 0..<2_000 { signals.dispatch(signal, thisThreadID()) }
                    }
                    thread.start()
                    _ = await waitUntil(60) { thread.isFinished }
                }
            }
        }
        #expect(calls.get == 8_000)
        #expect(mismatches.get == 0)
        withExtendedLifetime(token) {}
    }

    @Test func manyThreadsDispatchingWhileListenersComeAndGoLoseNothingForAListenerThatStays() async throws {
        let signals = Signals()
        let staying = Ear()
        let count = Locked(0)
        try signals.add(staying, to: TestSignals.number) { _, _ in count.withLock { $0 += 1 } }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for value in 0..<1_000 {
                        let passing = Ear()
                        try? signals.add(passing, to: TestSignals.number) { ear, value in ear.hear(value) }
                        signals.dispatch(TestSignals.number, task * 10_000 + value)
                        if value % 2 == 0 { signals.remove(passing, from: TestSignals.number) }
                    }
                }
            }
        }
        #expect(count.get == 8_000)
        #expect(signals.listenerCount(for: TestSignals.number) == 1)
    }

    @Test func handlersThatAddAndRemoveListenersDuringConcurrentDispatchesDoNotDeadlock() async throws {
        let signals = Signals()
        let signal = uniqueSignal()
        let total = Locked(0)
        let tokens = Locked<[SubscriptionToken]>([])
        let root = signals.listen(to: signal) { value in
            total.withLock { $0 += 1 }
            let token = signals.listen(to: signal, once: true) { _ in }
            tokens.withLock { list in
                list.append(token)
                if list.count > 50 { list.prefix(25).forEach { $0.cancel() }; list.removeFirst(25) }
            }
            if value % 7 == 0 { signals.dispatch(Signal<Int>("nested"), value) }
        }
        // The dispatchers are threads of their own, not tasks: in a parallel run, tasks of the
        // cooperative pool can wait minutes behind other tests' blocking work, and the bound
        // would count that wait as a deadlock (it did, under the thread sanitizer).
        let finished = Locked(0)
        for task in 0..<4 {
            Thread {
                for value in 0..<500 { signals.dispatch(signal, task * 1_000 + value) }
                finished.withLock { $0 += 1 }
            }.start()
        }
        #expect(await waitUntil(300) { finished.get == 4 }, "the dispatches did not finish: a deadlock")
        #expect(total.get == 2_000)
        withExtendedLifetime(root) {}
    }
}

// MARK: - Async sequences

@Suite("Signals: values(of:) as an async sequence")
struct SignalsSequenceTests {
    @Test func aSequenceReceivesEveryPayloadDispatchedAfterItWasMadeInOrder() async {
        let signals = Signals()
        let signal = uniqueSignal()
        signals.dispatch(signal, 0)
        let values = signals.values(of: signal)
        for value in 1...5 { signals.dispatch(signal, value) }
        var got: [Int] = []
        for await value in values {
            got.append(value)
            if got.count == 5 { break }
        }
        #expect(got == [1, 2, 3, 4, 5])
    }

    @Test func aReplayedSignalsLastPayloadComesFirst() async {
        let signals = Signals()
        signals.dispatch(TestSignals.name, "Ada")
        let names = signals.values(of: TestSignals.name)
        signals.dispatch(TestSignals.name, "Grace")
        var got: [String] = []
        for await name in names {
            got.append(name)
            if got.count == 2 { break }
        }
        #expect(got == ["Ada", "Grace"])
    }

    @Test func theDocsGreeterReceivesAdaWhenTheDispatchComesFirst() async {
        let signals = Signals()
        let heard = Locked<[String]>([])
        let names = signals.values(of: TestSignals.name)
        let greeter = Task {
            for await name in names { heard.withLock { $0.append(name) } }
        }
        signals.dispatch(TestSignals.name, "Ada")
        #expect(await waitUntil { heard.get == ["Ada"] })
        greeter.cancel()
        await greeter.value
    }

    @Test func bufferingNewestKeepsOnlyTheNewestWaitingPayloads() async {
        let signals = Signals()
        let signal = uniqueSignal()
        let values = signals.values(of: signal, bufferingNewest: 2)
        for value in 1...5 { signals.dispatch(signal, value) }
        var iterator = values.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect([first, second] == [4, 5])
        signals.dispatch(signal, 6)
        #expect(await iterator.next() == 6)
    }

    @Test func bufferingNewestBelowOneCountsAsOne() async {
        let signals = Signals()
        let signal = uniqueSignal()
        let values = signals.values(of: signal, bufferingNewest: 0)
        for value in 1...3 { signals.dispatch(signal, value) }
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == 3)
    }

    @Test func nothingIsLostByDefaultWhileTheLoopIsBusy() async {
        let signals = Signals()
        let signal = uniqueSignal()
        let values = signals.values(of: signal)
        for value in 0..<10_000 { signals.dispatch(signal, value) }
        var got: [Int] = []
        for await value in values {
            got.append(value)
            if got.count == 10_000 { break }
        }
        #expect(got == Array(0..<10_000))
    }

    @Test func leavingTheLoopStopsListeningEvenWhileTheSequenceIsKept() async {
        let signals = Signals()
        let signal = uniqueSignal()
        let values = signals.values(of: signal)
        #expect(signals.listenerCount(for: signal) == 1)
        signals.dispatch(signal, 1)
        for await _ in values { break }
        #expect(signals.listenerCount(for: signal) == 0)
        withExtendedLifetime(values) {}
    }

    @Test func iteratingAgainAfterTheLoopWasLeftEndsAtOnce() async {
        let signals = Signals()
        let signal = uniqueSignal()
        let values = signals.values(of: signal)
        signals.dispatch(signal, 1)
        for await _ in values { break }
        signals.dispatch(signal, 2)
        var again: [Int] = []
        for await value in values { again.append(value) }
        #expect(again.isEmpty)
    }

    @Test func cancellingTheIteratingTaskStopsListening() async {
        let signals = Signals()
        let signal = uniqueSignal()
        let values = signals.values(of: signal)
        let started = Locked(false)
        let task = Task {
            for await _ in values { started.withLock { $0 = true } }
        }
        signals.dispatch(signal, 1)
        #expect(await waitUntil { started.get })
        task.cancel()
        await task.value
        #expect(await waitUntil { signals.listenerCount(for: signal) == 0 })
    }

    @Test func releasingASequenceNeverIteratedStopsListening() {
        let signals = Signals()
        let signal = uniqueSignal()
        do {
            let values = signals.values(of: signal)
            #expect(signals.listenerCount(for: signal) == 1)
            withExtendedLifetime(values) {}
        }
        #expect(signals.listenerCount(for: signal) == 0)
    }

    @Test func aCancelledLoopStillReceivesThePayloadsAlreadyWaitingThenEnds() async {
        let signals = Signals()
        let signal = uniqueSignal()
        let values = signals.values(of: signal)
        for value in 1...3 { signals.dispatch(signal, value) }
        let task = Task { () -> [Int] in
            withUnsafeCurrentTask { $0?.cancel() }
            var got: [Int] = []
            for await value in values { got.append(value) }
            return got
        }
        #expect(await task.value == [1, 2, 3])
    }

    @Test func theSequenceKeepsTheBusAlive() async {
        weak var weakBus: Signals?
        let signal = uniqueSignal()
        var values: SubscriptionSequence<Int>?
        do {
            let signals = Signals()
            weakBus = signals
            values = signals.values(of: signal)
        }
        #expect(weakBus != nil && values != nil)
        values = nil
        #expect(await waitUntil { weakBus == nil })
    }
}
