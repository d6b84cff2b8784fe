import Dispatch
import Foundation
import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

/// Signals.md's promises about memory and `once`, tested by what is released and
/// what is kept, not by `listenerCount` (which skips dead listeners anyway).
extension SignalsTests {
    /// Adds a listener that is gone as soon as this returns, whose handler
    /// captures an object. - Returns: Whether that object is still alive.
    private static func addGoneListener(to signals: Signals) throws -> () -> Bool {
        let screen = Listener()
        let capture = Capture()
        try signals.add(screen, to: TestSignals.ping) { _, _ in withExtendedLifetime(capture) {} }
        return { [weak capture] in capture != nil }
    }

    final class Listener: Sendable {}
    /// Something a handler captures, to see when the bus lets go of the handler.
    final class Capture: Sendable {}

    /// "A signal left with no listeners and nothing to replay is annulled: the bus
    /// forgets it and it takes no memory." Every way of leaving a signal without
    /// listeners, over 1,000 signals each.
    @Test func aSignalLeftWithNoListenersIsForgotten() throws {
        let signals = Signals()
        let keys = (0..<1_000).map { Signal<Int>("annulled-\($0)") }
        let listener = Listener()
        // remove(_:from:)
        for key in keys { try signals.add(listener, to: key) { _, _ in } }
        #expect(signals.keptSignalCount == 1_000)
        for key in keys { signals.remove(listener, from: key) }
        #expect(signals.keptSignalCount == 0)
        // a token cancelled
        let tokens = keys.map { signals.listen(to: $0) { _ in } }
        #expect(signals.keptSignalCount == 1_000)
        for token in tokens { token.cancel() }
        #expect(signals.keptSignalCount == 0)
        // a once listener after its payload
        for key in keys { try signals.add(listener, to: key, once: true) { _, _ in } }
        for key in keys { signals.dispatch(key, 1) }
        #expect(signals.keptSignalCount == 0)
        // a listener gone, then a dispatch
        var gone: Listener? = Listener()
        for key in keys { try signals.add(gone!, to: key) { _, _ in } }
        gone = nil
        for key in keys { signals.dispatch(key, 1) }
        #expect(signals.keptSignalCount == 0)
        // a replaysLast signal keeps its payload, and so its entry
        let replaying = Signal<Int>("kept", replaysLast: true)
        signals.dispatch(replaying, 1)
        #expect(signals.keptSignalCount == 1)
        signals.removeSignal(replaying)
        #expect(signals.keptSignalCount == 0)
    }

    /// "A listener that is gone receives nothing and is dropped on the next
    /// dispatch": what its handler captured is released by that dispatch.
    @Test func theNextDispatchReleasesAGoneListenersHandler() throws {
        let signals = Signals()
        let staying = Listener()
        try signals.add(staying, to: TestSignals.ping) { _, _ in }
        let captureIsAlive = try Self.addGoneListener(to: signals)
        #expect(captureIsAlive())   // the bus still holds the handler
        signals.dispatch(TestSignals.ping, 1)
        #expect(!captureIsAlive())   // dropped by the dispatch
        withExtendedLifetime(staying) {}
    }

    /// The same from the other side: adding a listener to a signal drops its gone
    /// listeners, so a rarely dispatched signal does not pile up closed screens.
    @Test func addingAListenerReleasesGoneListenersHandlers() throws {
        let signals = Signals()
        let captureIsAlive = try Self.addGoneListener(to: signals)
        #expect(captureIsAlive())
        let next = Listener()
        try signals.add(next, to: TestSignals.ping) { _, _ in }
        #expect(!captureIsAlive())   // dropped by the add, with no dispatch
        withExtendedLifetime(next) {}
    }

    /// "Under concurrent dispatches it still receives exactly one", with another
    /// listener on the same signal, so the signal outlives the first payload. The
    /// other listener, first on the signal, holds each dispatch until all four
    /// threads' dispatches have started delivering, so all four reach the `once`
    /// listener.
    @Test(arguments: 0..<5)
    func aOnceListenerBesideAnotherReceivesExactlyOneOfConcurrentDispatches(round: Int) throws {
        let signals = Signals()
        let threads = 4
        let other = Listener()
        let arrived = Lock(0)
        try signals.add(other, to: TestSignals.ping) { _, _ in
            arrived.withLock { $0 += 1 }
            _ = TestThreads.waitUntil { arrived.withLock { $0 } >= threads }
        }
        let onceCount = Lock(0)
        let token = signals.listen(to: TestSignals.ping, once: true) { _ in onceCount.withLock { $0 += 1 } }
        let done = (0..<threads).map { payload in TestThreads.onThread { signals.dispatch(TestSignals.ping, payload) } }
        for thread in done { #expect(thread.wait(timeout: .now() + 300) == .success) }
        #expect(arrived.withLock { $0 } == threads)
        #expect(onceCount.withLock { $0 } == 1)
        #expect(signals.listenerCount(for: TestSignals.ping) == 1)
        withExtendedLifetime((other, token)) {}
    }
}
