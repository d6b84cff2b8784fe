import Dispatch
import Foundation
import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

/// Property.md, "Order, threads and reentrancy": a set keeps its thread only for
/// the deliveries queued before it and its own; a thread that sets while another
/// delivers waits for those, then delivers its own value itself.
extension PropertyTests {
    /// One delivery as a subscriber saw it: the value and the thread it ran on.
    struct Delivered: Sendable, Equatable {
        let value: Int
        let thread: UInt
    }

    /// The shape: thread A sets once and, while A delivers, thread B sets
    /// many values. A's set returns having delivered its own value only; B
    /// delivers B's, in order, with no delivery overlapping another.
    @Test func aSetIsNotHeldByAnotherThreadsLaterSets() {
        let property = Property(0)
        let seen = Lock<[Delivered]>([])
        let inside = Lock(0)
        let overlapped = Lock(false)
        let producerDone = Lock<DispatchSemaphore?>(nil)
        let sawBsFirstSet = Lock(false)
        let token = property.observe { value in
            inside.withLock { count in
                count += 1
                if count > 1 { overlapped.withLock { $0 = true } }
            }
            seen.withLock { $0.append(Delivered(value: value, thread: ThreadIdentity.current)) }
            if value == 1 {
                // Thread B starts setting while this, A's delivery, is under way,
                // and this delivery lasts until B's first set has changed the value.
                producerDone.withLock {
                    $0 = TestThreads.onThread { for next in 2...1_001 { property.value = next } }
                }
                let changed = TestThreads.waitUntil { property.value != 1 }
                sawBsFirstSet.withLock { $0 = changed }
            }
            inside.withLock { $0 -= 1 }
        }
        let setterReturned = TestThreads.onThread { property.value = 1 }   // thread A
        #expect(setterReturned.wait(timeout: .now() + 300) == .success)
        let aThread = seen.withLock { $0.first?.thread }
        #expect(sawBsFirstSet.withLock { $0 })
        #expect(producerDone.withLock { $0 }?.wait(timeout: .now() + 300) == .success)

        let all = seen.withLock { $0 }
        #expect(all.map(\.value) == Array(1...1_001), "every value once, in order")
        let byA = all.filter { $0.thread == aThread }.map(\.value)
        #expect(byA.count == 1 && byA.first == 1, "A delivered \(byA.count) values")   // its own only
        #expect(overlapped.withLock { $0 } == false)
        token.cancel()
    }

    /// A thread that delivers and sets again from a handler while another
    /// thread waits with an earlier value: the earlier value goes first,
    /// delivered by its own thread, and then the handler's, by the handler's thread.
    @Test func aHandlersSetWaitsForAnEarlierSetOfAnotherThread() {
        let property = Property(0)
        let seen = Lock<[Delivered]>([])
        let other = Lock<DispatchSemaphore?>(nil)
        let token = property.observe { value in
            seen.withLock { $0.append(Delivered(value: value, thread: ThreadIdentity.current)) }
            guard value == 1 else { return }
            other.withLock { $0 = TestThreads.onThread { property.value = 2 } }
            #expect(TestThreads.waitUntil { property.value == 2 })   // B's set is made and waits
            property.value = 3   // queued behind B's 2
        }
        let a = TestThreads.onThread { property.value = 1 }
        #expect(a.wait(timeout: .now() + 300) == .success)
        #expect(other.withLock { $0 }?.wait(timeout: .now() + 300) == .success)
        let all = seen.withLock { $0 }
        #expect(all.map(\.value) == [1, 2, 3])
        guard all.count == 3 else { return }
        #expect(all[0].thread == all[2].thread)   // A delivered 1 and 3
        #expect(all[1].thread != all[0].thread)   // B delivered 2
        #expect(property.value == 3)
        token.cancel()
    }

    /// A replaying subscribe made while another thread delivers waits for the
    /// deliveries before it and replays on its own thread, then hears later values.
    @Test func aReplayingSubscribeWaitsItsTurnAndReplaysOnItsOwnThread() {
        let property = Property(0)
        let late = Lock<[Delivered]>([])
        let subscriber = Lock<DispatchSemaphore?>(nil)
        let subscribed = Lock(false)
        let subscriberThread = Lock<UInt>(0)
        let token = property.observe { value in
            guard value == 1 else { return }
            subscriber.withLock {
                $0 = TestThreads.onThread {
                    subscriberThread.withLock { $0 = ThreadIdentity.current }
                    let token = property.observe(replay: true) { value in
                        late.withLock { $0.append(Delivered(value: value, thread: ThreadIdentity.current)) }
                    }
                    subscribed.withLock { $0 = true }
                    // Kept until the test's own set of 2 has reached it.
                    withExtendedLifetime(token) { _ = TestThreads.waitUntil { late.withLock { $0.count == 2 } } }
                }
            }
            #expect(TestThreads.waitUntil { property.subscriberCount == 2 })   // subscribed; its replay waits
            #expect(late.withLock { $0.isEmpty })
        }
        let a = TestThreads.onThread { property.value = 1 }
        #expect(a.wait(timeout: .now() + 300) == .success)
        #expect(TestThreads.waitUntil { subscribed.withLock { $0 } })
        let replay = late.withLock { $0 }
        #expect(replay.map(\.value) == [1])
        #expect(replay.first?.thread == subscriberThread.withLock { $0 })   // replayed by the subscribing thread
        property.value = 2
        #expect(subscriber.withLock { $0 }?.wait(timeout: .now() + 300) == .success)
        #expect(late.withLock { $0 }.map(\.value) == [1, 2])
        token.cancel()
    }

    /// A producer faster than the subscriber: the property holds at most one
    /// queued value per thread that is waiting to deliver, never a backlog.
    @Test func fastProducersQueueAtMostOneValueEach() {
        let property = Property(0)
        let producers = 4, perProducer = 5_000
        let mostQueued = Lock(0)
        let received = Lock<[Int: [Int]]>([:])
        let token = property.observe { value in
            let queued = property.queuedDeliveryCount
            mostQueued.withLock { $0 = max($0, queued) }
            received.withLock { $0[value / 1_000_000, default: []].append(value % 1_000_000) }
        }
        let done = (1...producers).map { producer in
            TestThreads.onThread {
                for index in 1...perProducer { property.value = producer * 1_000_000 + index }
            }
        }
        for thread in done { #expect(thread.wait(timeout: .now() + 300) == .success) }
        #expect(mostQueued.withLock { $0 } <= producers - 1)   // each waiting thread holds its own value only
        #expect(property.queuedDeliveryCount == 0)
        let byProducer = received.withLock { $0 }
        for producer in 1...producers {
            #expect(byProducer[producer] == Array(1...perProducer))   // each thread's values, all, in its order
        }
        token.cancel()
    }
}

extension PropertyTests {
    /// A subscription that ends before its replay's turn gets no replay: a
    /// handler subscribes with replay (queued behind the broadcast under way)
    /// and unsubscribes at once.
    @Test func aReplayToASubscriptionEndedBeforeItsTurnIsDropped() {
        let property = Property(0)
        let first = Inbox<Int>("first"), late = Inbox<Int>("late")
        property.subscribe(first) { listener, value in
            listener.record(value)
            guard value == 1 else { return }
            property.subscribe(late, replay: true) { $0.record($1) }
            property.unsubscribe(late)
        }
        property.value = 1
        property.value = 2
        #expect(first.values == [1, 2])
        #expect(late.values.isEmpty)
    }
}

extension PropertyTests {
    /// A set from a handler never waits (the thread is the one delivering): the
    /// outer set returns, with both values delivered in order. Run with a
    /// deadline, so that a set that waited for its own thread fails the test
    /// instead of hanging the suite.
    @Test func aHandlersSetNeverWaitsForItsOwnThread() {
        let property = Property(0)
        let seen = Inbox<Int>()
        let token = property.observe { value in
            seen.record(value)
            if value == 1 { property.value = 2 }
            if value == 2 { property.update { $0 += 1 } }
        }
        let returned = BoundedCall.run(within: 10, release: {}) { () -> Bool in
            property.value = 1
            return true
        }
        #expect(returned == true, "the outer set did not return within 10 s")
        #expect(seen.values == [1, 2, 3])
        token.cancel()
    }
}
