import Dispatch
import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

/// Signals.md: "an annulled signal takes no memory", for signals whose names are made at run time.
extension SignalsTests {
    /// 100,000 keys named at run time, each listened to and dispatched, then left: the bus forgets
    /// them and gives its table's memory back, and once the keys are gone so are their names.
    @Test func signalsNamedAtRunTimeTakeNoMemoryOnceLeft() throws {
        let signals = Signals()
        let listener = Listener()
        var keys = (0..<100_000).map { Signal<Int>("run-time-\($0)") }
        for key in keys { try signals.add(listener, to: key) { _, _ in } }
        for (index, key) in keys.enumerated() { signals.dispatch(key, index) }
        #expect(signals.keptSignalCount == 100_000)
        #expect(SignalIdentity.kept(namedFrom: "run-time-").count == 100_000)
        for key in keys { signals.remove(listener, from: key) }
        #expect(signals.keptSignalCount == 0)
        #expect(signals.keptSignalCapacity < 10_000, "the bus kept a table for \(signals.keptSignalCapacity) signals")
        keys = []
        let kept = SignalIdentity.kept(namedFrom: "run-time-")
        #expect(kept.count == 0, "\(kept.count) names kept")
        // Other tests keep a few thousand keys at most meanwhile; kept full, the table had room for 100,000.
        #expect(kept.capacity < 20_000, "the table of names kept room for \(kept.capacity)")
    }

    /// A key made again, after the first was gone, is the same signal while a bus keeps it: its
    /// listeners and its replayed payload are found.
    @Test func aKeyMadeAgainIsTheSameSignalWhileABusKeepsIt() throws {
        let signals = Signals()
        let listener = Listener()
        let heard = Inbox<Int>("heard")
        do {
            let key = Signal<Int>("made-again", replaysLast: true)
            try signals.add(listener, to: key) { _, value in heard.record(value) }
            signals.dispatch(key, 1)
        }
        signals.dispatch(Signal<Int>("made-again", replaysLast: true), 2)
        #expect(heard.values == [1, 2])
        let late = Inbox<Int>("late")
        try signals.add(Listener(), to: Signal<Int>("made-again", replaysLast: true)) { _, value in late.record(value) }
        #expect(late.values == [2])
        // Another payload type or replay setting is another signal, as before.
        signals.dispatch(Signal<Int>("made-again"), 3)
        signals.dispatch(Signal<String>("made-again", replaysLast: true), "4")
        #expect(heard.values == [1, 2])
        withExtendedLifetime(listener) {}
    }
}

/// Issue 45: signals named at run time whose listener objects go away, with no dispatch after,
/// were never forgotten (500,000 of them took a process from 25 to 342 MiB).
extension SignalsTests {
    /// Each signal's listener goes away right after it is added, and nothing is dispatched: the
    /// bus's sweeps forget the signals, and with them their names, so the table stays bounded
    /// however many such signals there are (it kept all 20,000).
    @Test func signalsWhoseListenersWentAwayAreForgottenWithoutADispatch() throws {
        let signals = Signals()
        for id in 0..<20_000 {
            let listener = Listener()   // gone at the end of each round
            try signals.add(listener, to: Signal<Int>("gone-session-\(id)-ended")) { _, _ in }
        }
        #expect(signals.keptSignalCount <= 64, "the bus keeps \(signals.keptSignalCount) signals")
        #expect(signals.keptSignalCapacity < 1_024, "the bus keeps a table for \(signals.keptSignalCapacity) signals")
        let names = SignalIdentity.kept(namedFrom: "gone-session-").count
        #expect(names <= 64, "\(names) names kept")
    }

    /// A sweep forgets only what is gone: listeners alive, token listeners and a payload to replay
    /// stay, and the bus keeps at most twice the signals in use at its last sweep.
    @Test func aSweepKeepsWhatIsInUse() throws {
        let signals = Signals()
        let alive = Listener()
        let heard = Inbox<Int>("heard")
        let live = (0..<500).map { Signal<Int>("swept-live-\($0)") }
        for key in live { try signals.add(alive, to: key) { _, value in heard.record(value) } }
        let tokens = (0..<500).map { index in signals.listen(to: Signal<Int>("swept-token-\(index)")) { heard.record($0) } }
        let replaying = Signal<Int>("swept-replaying", replaysLast: true)
        signals.dispatch(replaying, 7)
        for id in 0..<10_000 {
            let listener = Listener()
            try signals.add(listener, to: Signal<Int>("swept-gone-\(id)")) { _, _ in }
        }
        #expect(signals.keptSignalCount <= 2 * 1_002, "the bus keeps \(signals.keptSignalCount) signals")
        for key in live { signals.dispatch(key, 1) }
        for index in 0..<500 { signals.dispatch(Signal<Int>("swept-token-\(index)"), 2) }
        #expect(heard.values == Array(repeating: 1, count: 500) + Array(repeating: 2, count: 500))
        let late = Inbox<Int>("late")
        try signals.add(late, to: replaying) { $0.record($1) }
        #expect(late.values == [7])
        withExtendedLifetime((alive, tokens)) {}
    }

    /// A signal one of whose listeners went away, and one stayed, keeps the one that stayed through
    /// a sweep (the sweep drops the gone listener, not the signal), with nothing to replay.
    @Test func aSweepKeepsTheListenerThatStayedBesideOneThatWentAway() throws {
        let signals = Signals()
        let key = Signal<Int>("half-gone")
        let stayed = Listener()
        let heard = Inbox<Int>("heard")
        try signals.add(stayed, to: key) { _, value in heard.record(value) }
        do {
            let gone = Listener()
            try signals.add(gone, to: key) { _, _ in }
        }
        // Enough signals whose listeners went away that the bus sweeps, without a dispatch on `key`.
        for id in 0..<200 {
            let listener = Listener()
            try signals.add(listener, to: Signal<Int>("half-gone-sweep-\(id)")) { _, _ in }
        }
        #expect(signals.keptSignalCount < 200, "no sweep ran: \(signals.keptSignalCount) signals kept")
        signals.dispatch(key, 5)
        #expect(heard.values == [5])
        #expect(signals.listenerCount(for: key) == 1)
        withExtendedLifetime(stayed) {}
    }

    /// What a gone listener's handler captured is let go of by the sweep, without a dispatch.
    @Test func aSweepLetsGoOfWhatAGoneListenersHandlerCaptured() throws {
        let signals = Signals()
        weak var captured: Capture?
        do {
            let listener = Listener(), capture = Capture()
            captured = capture
            try signals.add(listener, to: Signal<Int>("captured-by-a-gone-listener")) { _, _ in withExtendedLifetime(capture) {} }
        }
        #expect(captured != nil)   // held by the bus until it notices
        for id in 0..<200 {
            let listener = Listener()
            try signals.add(listener, to: Signal<Int>("sweeping-\(id)")) { _, _ in }
        }
        #expect(captured == nil, "the gone listener's handler is still kept")
    }

    /// Two keys of one name, one made while the last key of an earlier one is being let go of
    /// (held at that point by a seam, on another thread): the key made then and every key made
    /// after are one signal, and the earlier key's going does not forget the new one's name.
    @Test func aKeyMadeWhileAnEarlierOneOfItsNameGoesIsTheSignalOfEveryLaterKey() throws {
        let name = "made-while-forgotten"
        let reached = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let armed = Lock(true)   // only the first key's release is held
        SignalIdentity.beforeForgetting.withLock {
            $0 = { forgotten in
                guard forgotten == name,
                    armed.withLock({ armed in
                        defer { armed = false }; return armed
                    })
                else { return }
                reached.signal()
                release.wait()
            }
        }
        defer { SignalIdentity.beforeForgetting.withLock { $0 = nil } }
        let firstNumber = Lock(-1)
        let done = TestThreads.onThread {
            let first = Signal<Int>(name)
            firstNumber.withLock { $0 = first.number }
        }   // the first key goes here, and its identity's release is held
        reached.wait()
        let second = Signal<Int>(name)
        #expect(second.number != firstNumber.withLock { $0 })
        release.signal()
        done.wait()
        let signals = Signals()
        let heard = Inbox<Int>("heard")
        try signals.add(heard, to: second) { $0.record($1) }
        let third = Signal<Int>(name)
        #expect(third == second)
        signals.dispatch(third, 1)
        #expect(heard.values == [1])
    }
}
