import Dispatch
import Foundation
import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

extension SignalsTests {
    /// A dispatch on the main thread hands its main-actor listeners the payloads
    /// waiting before it and its own, and returns: payloads a background thread
    /// goes on dispatching meanwhile wait for a task, and do not hold the main thread.
    @Test @MainActor func aMainThreadDispatchIsNotHeldByABackgroundDispatcher() async throws {
        final class Screen: Sendable {}
        let screen = Screen()
        let signals = Signals()
        let posted = Lock(0), handled = Lock(0)
        let duringTheSet = Lock<Int?>(nil)
        let postedAtFirstCall = Lock(0)
        let stop = Lock(false)
        try signals.add(screen, to: TestSignals.ping) { @MainActor _, _ in
            handled.withLock { $0 += 1 }
            let call = duringTheSet.withLock { calls -> Int? in
                calls? += 1
                return calls
            }
            if call == 1 { postedAtFirstCall.withLock { $0 = posted.withLock { $0 } } }
            // Slower than the producer: each call waits until another value is waiting behind it.
            let target = handled.withLock { $0 } + 2
            _ = TestThreads.waitUntil(seconds: 2) { posted.withLock { $0 } >= target || stop.withLock { $0 } }
        }
        let producer = TestThreads.onThread {
            for value in 1...200_000 {
                if stop.withLock({ $0 }) { break }
                signals.dispatch(TestSignals.ping, value)   // off the main thread: waits in the listener's mailbox
                posted.withLock { $0 += 1 }
            }
        }
        #expect(TestThreads.waitUntil { posted.withLock { $0 } > 100 })
        duringTheSet.withLock { $0 = 0 }
        let handledBefore = handled.withLock { $0 }   // no handler runs until the dispatch: this is the main actor
        signals.dispatch(TestSignals.ping, -1)   // on the main thread: delivered at once
        let calls = duringTheSet.withLock { $0 } ?? 0
        stop.withLock { $0 = true }
        #expect(producer.wait(timeout: .now() + 300) == .success)
        // The payloads waiting when it began, and its own; not the producer's later ones. The
        // producer counts a payload after dispatching it, so one may be waiting uncounted.
        let waiting = postedAtFirstCall.withLock { $0 } + 1 - handledBefore
        #expect(calls <= waiting + 1, "the dispatch handed over \(calls) payloads; at most \(waiting) were waiting")
        withExtendedLifetime(screen) {}
    }
}

extension SignalsTests {
    /// Signals.md, rule 6: each dispatch is delivered by the thread that made it,
    /// and never waits for another; two threads' dispatches may run one
    /// synchronous handler at the same time.
    @Test func aDispatchNeverWaitsForAnotherThreadsDispatch() throws {
        final class Listener: Sendable {}
        let listener = Listener()
        let signals = Signals()
        let calls = Lock<[(payload: Int, thread: UInt)]>([])
        let other = Lock<DispatchSemaphore?>(nil)
        let sawTheOther = Lock(false)
        try signals.add(listener, to: TestSignals.ping) { _, payload in
            calls.withLock { $0.append((payload, ThreadIdentity.current)) }
            guard payload == 1 else { return }
            // While this (thread A's) handler runs, thread B dispatches 2 and is not held.
            other.withLock { $0 = TestThreads.onThread { signals.dispatch(TestSignals.ping, 2) } }
            let seen = TestThreads.waitUntil { calls.withLock { $0.contains { $0.payload == 2 } } }
            sawTheOther.withLock { $0 = seen }
        }
        let a = TestThreads.onThread { signals.dispatch(TestSignals.ping, 1) }
        #expect(a.wait(timeout: .now() + 300) == .success)
        #expect(other.withLock { $0 }?.wait(timeout: .now() + 300) == .success)
        #expect(sawTheOther.withLock { $0 })   // B's payload was delivered while A's handler ran
        let all = calls.withLock { $0 }
        #expect(all.map(\.payload) == [1, 2])
        #expect(all.count == 2 && all[0].thread != all[1].thread)   // each by its own thread
        withExtendedLifetime(listener) {}
    }
}
