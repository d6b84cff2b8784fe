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
