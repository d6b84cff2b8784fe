import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

/// The key of Signals.md's examples.
private enum AppSignals {
    static let signedIn = Signal<String>("signedIn", replaysLast: true)
}

struct SignalsAsyncSequenceTests {
    /// The example of Signals.md's "Async sequences", copied literally: the loop
    /// receives "Ada" whichever comes first, and the cancel ends it.
    @Test func theDocumentedExample() async {
        let signals = Signals()
        let greeter = Task {
            for await name in signals.values(of: AppSignals.signedIn) {   // listens from here
                print("hello, \(name)")
            }
        }
        signals.dispatch(AppSignals.signedIn, "Ada")
        greeter.cancel()   // stops listening

        await greeter.value
        #expect(signals.listenerCount(for: AppSignals.signedIn) == 0)
    }

    @Test func payloadsDispatchedAfterTheSequenceIsMadeArriveOnceInOrder() async {
        let signals = Signals()
        signals.dispatch(TestSignals.ping, 0)   // before: not received
        var iterator = signals.values(of: TestSignals.ping).makeAsyncIterator()
        for payload in 1...100 { signals.dispatch(TestSignals.ping, payload) }
        var seen: [Int] = []
        for _ in 1...100 { seen.append(await iterator.next() ?? -1) }
        #expect(seen == Array(1...100))
    }

    @Test func aReplaysLastSignalsLastPayloadComesFirst() async {
        let signals = Signals()
        signals.dispatch(TestSignals.state, "signed out")
        signals.dispatch(TestSignals.state, "signed in")
        var iterator = signals.values(of: TestSignals.state).makeAsyncIterator()
        signals.dispatch(TestSignals.state, "away")
        #expect(await iterator.next() == "signed in")
        #expect(await iterator.next() == "away")
    }

    @Test func twoConcurrentDispatchersGiveEachPayloadOnceInTheirOrder() async {
        let signals = Signals()
        var iterator = signals.values(of: TestSignals.ping).makeAsyncIterator()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for payload in 1...500 { signals.dispatch(TestSignals.ping, payload) } }
            group.addTask { for payload in 1...500 { signals.dispatch(TestSignals.ping, -payload) } }
        }
        var seen: [Int] = []
        for _ in 0..<1_000 { seen.append(await iterator.next() ?? 0) }
        #expect(Set(seen).count == 1_000)
        #expect(seen.filter { $0 > 0 } == Array(1...500))
        #expect(seen.filter { $0 < 0 } == (1...500).map { -$0 })
    }

    // MARK: Ending

    @Test func breakingOutOfTheLoopStopsTheListening() async {
        let signals = Signals()
        let other = signals.listen(to: TestSignals.state) { _ in }
        signals.dispatch(TestSignals.state, "one")
        var seen: [String] = []
        for await word in signals.values(of: TestSignals.state) {
            #expect(signals.listenerCount(for: TestSignals.state) == 2)
            seen.append(word)
            if seen.count == 3 { break }
            signals.dispatch(TestSignals.state, word + "!")
        }
        #expect(seen == ["one", "one!", "one!!"])
        #expect(signals.listenerCount(for: TestSignals.state) == 1)
        _ = other
    }

    /// Signals.md's recommended pattern: the sequence is made first and handed
    /// to the task. Leaving the loop stops the listening, though the sequence is still kept.
    @Test func leavingTheLoopOfASequenceMadeFirstStopsTheListening() async {
        let signals = Signals()
        let names = signals.values(of: TestSignals.word)   // listens from here
        #expect(signals.listenerCount(for: TestSignals.word) == 1)
        let greeter = Task { () -> [String] in
            var seen: [String] = []
            for await name in names {
                seen.append(name)
                if name == "Ada" { break }
            }
            return seen
        }
        signals.dispatch(TestSignals.word, "Ada")
        #expect(await greeter.value == ["Ada"])
        #expect(signals.listenerCount(for: TestSignals.word) == 0)   // `names` is still held here
        withExtendedLifetime(names) {}
    }

    @Test func droppingTheSequenceAndIteratorStopsTheListening() async {
        let signals = Signals()
        var iterator: SubscriptionSequence<Int>.Iterator? = signals.values(of: TestSignals.ping).makeAsyncIterator()
        signals.dispatch(TestSignals.ping, 1)
        #expect(await iterator?.next() == 1)
        #expect(signals.listenerCount(for: TestSignals.ping) == 1)
        iterator = nil
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)

        var unused: SubscriptionSequence<Int>? = signals.values(of: TestSignals.ping, bufferingNewest: 2)
        #expect(signals.listenerCount(for: TestSignals.ping) == 1)
        unused = nil
        #expect(unused == nil)
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
    }

    @Test func cancellingTheIteratingTaskStopsTheListeningAndEndsTheLoop() async {
        let signals = Signals()
        let (progress, report) = AsyncStream.makeStream(of: Void.self)
        let loop = Task {
            var seen: [Int] = []
            let values = signals.values(of: TestSignals.ping)
            report.yield()
            for await payload in values { seen.append(payload) }
            return seen
        }
        for await _ in progress { break }
        signals.dispatch(TestSignals.ping, 7)
        loop.cancel()
        #expect(await loop.value.allSatisfy { $0 == 7 })
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
    }

    @Test func theSequenceKeepsTheBusWhileItIsIterated() async throws {
        weak var weakSignals: Signals?
        var iterator: SubscriptionSequence<Int>.Iterator? = {
            let signals = Signals()
            weakSignals = signals
            return signals.values(of: TestSignals.ping).makeAsyncIterator()
        }()
        try #require(weakSignals != nil)   // else the next read would wait forever
        weakSignals?.dispatch(TestSignals.ping, 4)
        #expect(await iterator?.next() == 4)
        iterator = nil
        #expect(weakSignals == nil)
    }

    // MARK: Buffering

    @Test func byDefaultASlowLoopLosesNothing() async {
        let signals = Signals()
        var iterator = signals.values(of: TestSignals.ping).makeAsyncIterator()
        for payload in 1...1_000 { signals.dispatch(TestSignals.ping, payload) }
        var seen: [Int] = []
        for _ in 1...1_000 { seen.append(await iterator.next() ?? -1) }
        #expect(seen == Array(1...1_000))
    }

    @Test func bufferingTheNewestOneASlowLoopGetsOnlyTheLatest() async {
        let signals = Signals()
        var iterator = signals.values(of: TestSignals.ping, bufferingNewest: 1).makeAsyncIterator()
        for payload in 1...1_000 { signals.dispatch(TestSignals.ping, payload) }
        #expect(await iterator.next() == 1_000)
        signals.dispatch(TestSignals.ping, 1_001)
        #expect(await iterator.next() == 1_001)
    }
}
