import Dispatch
import Foundation
import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

struct PropertyTests {
    /// The source's playground: two subscribers see a set; one is released; the
    /// next set culls it and the count drops.
    @Test func playgroundScenario() {
        let property = Property("initial")
        let first = Inbox<String>("first")
        var second: Inbox<String>? = Inbox("second")
        weak let weakSecond = second
        property.subscribe(first) { $0.record($1) }
        property.subscribe(second!) { $0.record($1) }
        #expect(property.subscriberCount == 2)

        property.value = "hello"
        #expect(first.values == ["hello"])
        #expect(second?.values == ["hello"])

        second = nil
        #expect(weakSecond == nil)   // the property does not keep subscribers alive
        #expect(property.subscriberCount == 2)   // not culled yet
        property.value = "world"
        #expect(property.subscriberCount == 1)   // culled by the set
        #expect(first.values == ["hello", "world"])
    }

    @Test func valueGetsAndSets() {
        let property = Property(1)
        #expect(property.value == 1)
        property.value = 2
        #expect(property.value == 2)
        property.set(3)
        #expect(property.value == 3)
    }

    @Test func replayDeliversTheCurrentValueOnSubscribe() {
        let property = Property(5)
        let replayed = Inbox<Int>(), plain = Inbox<Int>()
        property.subscribe(replayed, replay: true) { $0.record($1) }
        property.subscribe(plain) { $0.record($1) }
        let tokenValues = Inbox<Int>()
        let token = property.observe(replay: true) { tokenValues.record($0) }
        property.value = 6
        #expect(replayed.values == [5, 6])
        #expect(plain.values == [6])
        #expect(tokenValues.values == [5, 6])
        _ = token
    }

    @Test func aTokenObservesUntilCancelledOrReleased() {
        let property = Property(0)
        let values = Inbox<Int>()
        var token: SubscriptionToken? = property.observe { values.record($0) }
        property.value = 1
        token?.cancel()
        property.value = 2
        token = property.observe { values.record($0) }
        property.value = 3
        token = nil
        property.value = 4
        #expect(values.values == [1, 3])
        #expect(property.subscriberCount == 0)
    }

    @Test func unsubscribeEndsEverySubscriptionOfAnObject() {
        let property = Property(0)
        let inbox = Inbox<Int>()
        property.subscribe(inbox) { $0.record($1) }
        property.subscribe(inbox) { $0.record($1 * 10) }
        property.value = 1
        #expect(property.unsubscribe(inbox))
        #expect(!property.unsubscribe(inbox))
        property.value = 2
        #expect(inbox.values == [1, 10])
    }

    // MARK: Derived

    @Test func mapFollowsItsSource() {
        let count = Property(3)
        let label = count.map { "\($0) unread" }
        #expect(label.value == "3 unread")
        let seen = Inbox<String>()
        label.subscribe(seen) { $0.record($1) }
        count.value = 4
        #expect(label.value == "4 unread")
        #expect(seen.values == ["4 unread"])
    }

    @Test func aDerivedPropertyStopsFollowingWhenReleased() {
        let count = Property(0)
        var doubled: Property<Int>? = count.map { $0 * 2 }
        weak let weakDoubled = doubled
        #expect(count.subscriberCount == 1)
        doubled = nil
        #expect(weakDoubled == nil)
        #expect(count.subscriberCount == 0)   // its subscription ended with it
    }

    /// `signedIn && online`, made by `combine`, as the two sources change.
    private static func canSyncFollowsBothSources(
        _ combine: (Property<Bool>, Property<Bool>) -> Property<Bool>
    ) -> (initial: Bool, seen: [Bool]) {
        let signedIn = Property(false)
        let online = Property(true)
        let canSync = combine(signedIn, online)
        let seen = Inbox<Bool>()
        canSync.subscribe(seen) { $0.record($1) }
        let initial = canSync.value
        signedIn.value = true
        online.value = false
        online.value = true
        return (initial, seen.values)
    }

    @Test func combinedHoldsBothLatestValues() {
        var pair: Property<(Bool, Bool)>?
        let outcome = Self.canSyncFollowsBothSources { signedIn, online in
            pair = signedIn.combined(with: online)
            return pair!.map { $0 && $1 }
        }
        #expect(outcome.initial == false)
        #expect(outcome.seen == [true, false, true])
        #expect(pair.map { $0.value == (true, true) } == true)
    }

    @Test func combinedEndsOnTheLatestOfBothUnderConcurrentSets() async {
        let left = Property(0)
        let right = Property(0)
        let pair = left.combined(with: right)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for i in 1...500 { left.value = i } }
            group.addTask { for i in 1...500 { right.value = -i } }
        }
        #expect(pair.value == (500, -500))
    }

    @Test func combinedWithATransformFollowsBothSources() {
        let outcome = Self.canSyncFollowsBothSources { signedIn, online in signedIn.combined(with: online) { $0 && $1 } }
        #expect(outcome.initial == false)
        #expect(outcome.seen == [true, false, true])
    }

    /// Each side is set from its own task; the combined value never goes back to
    /// an older combination and ends on the transform of both latest values.
    @Test func combinedWithATransformEndsOnTheLatestOfBothUnderConcurrentSets() async {
        let left = Property(0)
        let right = Property(0)
        let calls = Inbox<Int>()
        let pair = left.combined(with: right) {
            calls.record(0); return ($0, $1)
        }
        let described = left.combined(with: right) { "\($0) \(-$1)" }
        let seen = Inbox<String>()
        described.subscribe(seen) { $0.record($1) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for i in 1...500 { left.value = i } }
            group.addTask { for i in 1...500 { right.value = -i } }
        }
        #expect(described.value == "500 500")
        #expect(pair.value == (500, -500))
        #expect(calls.values.count == 1_001)   // once at first, then once per source change
        let pairs = seen.values.map { $0.split(separator: " ").map { Int($0)! } }
        #expect(pairs.last == [500, 500])
        #expect(zip(pairs, pairs.dropFirst()).allSatisfy { $0[0] <= $1[0] && $0[1] <= $1[1] })
    }

    /// One source's change is held inside the transform, computed from the other
    /// source's older value, while the other source changes and its result is
    /// shown; once let go, the held, older result is dropped (no timing decides it).
    @Test func combinedDropsAResultComputedFromOlderValues() throws {
        let left = Property(0)
        let right = Property(0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let pair = left.combined(with: right) { left, right -> String in
            if left == 1 && right == 0 {   // the held change
                entered.signal()
                release.wait()
            }
            return "\(left) \(right)"
        }
        let seen = Inbox<String>()
        pair.subscribe(seen) { $0.record($1) }
        let done = TestThreads.onThread { left.value = 1 }
        try #require(entered.wait(timeout: .now() + 300) == .success)
        right.value = 2   // computed from the latest of both, and shown
        #expect(pair.value == "1 2")
        release.signal()
        try #require(done.wait(timeout: .now() + 300) == .success)
        #expect(pair.value == "1 2")
        #expect(seen.values == ["1 2"])
    }

    @Test func combinedWithATransformKeepsItsSources() {
        weak var weakSignedIn: Property<Bool>?
        weak var weakOnline: Property<Bool>?
        var canSync: Property<Bool>? = {
            let signedIn = Property(false)
            let online = Property(false)
            weakSignedIn = signedIn
            weakOnline = online
            return signedIn.combined(with: online) { $0 && $1 }
        }()
        weak let weakCanSync = canSync
        weakSignedIn?.value = true
        weakOnline?.value = true
        #expect(canSync?.value == true)
        canSync = nil
        #expect(weakCanSync == nil)
        #expect(weakSignedIn == nil)
        #expect(weakOnline == nil)
    }

    @Test func combinedWithATransformChainsRemovingDuplicates() {
        let signedIn = Property(false)
        let online = Property(false)
        let canSync = signedIn.combined(with: online) { $0 && $1 }.removingDuplicates()
        let seen = Inbox<Bool>()
        canSync.subscribe(seen) { $0.record($1) }
        signedIn.value = true   // false: not heard
        online.value = true   // true
        online.value = true   // true: not heard
        signedIn.value = false   // false
        online.value = false   // false: not heard
        #expect(seen.values == [true, false])
    }

    @Test func removingDuplicatesSkipsRepeats() {
        let status = Property("offline")
        let distinct = status.removingDuplicates()
        let seen = Inbox<String>()
        distinct.subscribe(seen) { $0.record($1) }
        for value in ["offline", "online", "online", "offline", "offline"] { status.value = value }
        #expect(seen.values == ["online", "offline"])
    }

    /// The example of Property.md's "Derived properties", copied literally.
    @Test func theDocumentedDerivedPropertiesFollowTheirSources() {
        let count = Property(3)
        let label = count.map { "\($0) unread" }   // follows count

        let signedIn = Property(false)
        let online = Property(true)
        let canSync = signedIn.combined(with: online) { $0 && $1 }

        let connection = Property("offline")
        let status = connection.removingDuplicates()   // hears only changes

        let heard = Inbox<String>()
        status.subscribe(heard) { $0.record($1) }
        count.value = 4
        #expect(label.value == "4 unread")
        #expect(canSync.value == false)
        signedIn.value = true
        #expect(canSync.value == true)
        online.value = false
        #expect(canSync.value == false)
        for value in ["offline", "online", "online"] { connection.value = value }
        #expect(status.value == "online")
        #expect(heard.values == ["online"])
    }

    /// The example of `map(_:)`'s documentation, copied literally.
    @Test func theDocumentedMapExample() {
        let count = Property(3)
        let label = count.map { "\($0) unread" }
        count.value = 4
        #expect(label.value == "4 unread")
    }

    @Test func aChainWithUnkeptIntermediatesFollowsItsSource() {
        let count = Property(1)
        let text = count.map { $0 + 1 }.map { $0 * 10 }.map { "\($0)" }.map { "[\($0)]" }
        let seen = Inbox<String>()
        text.subscribe(seen) { $0.record($1) }
        #expect(text.value == "[20]")
        count.value = 2
        count.value = 5
        #expect(text.value == "[60]")
        #expect(seen.values == ["[30]", "[60]"])
    }

    @Test func aCombinedPairInTheMiddleFollowsEachSide() {
        let signedIn = Property(false)
        let online = Property(true)
        let canSync = signedIn.combined(with: online).map { $0 && $1 }
        let seen = Inbox<Bool>()
        canSync.subscribe(seen) { $0.record($1) }
        signedIn.value = true   // left side
        #expect(canSync.value == true)
        online.value = false   // right side
        #expect(canSync.value == false)
        online.value = true
        signedIn.value = false
        #expect(seen.values == [true, false, true, false])
    }

    @Test func removingDuplicatesAfterAMapReportsEachChange() {
        let count = Property(0)
        let tens = count.map { $0 / 10 }.removingDuplicates()
        let seen = Inbox<Int>()
        tens.subscribe(seen) { $0.record($1) }
        for value in [3, 9, 10, 15, 27, 21, 5] { count.value = value }
        #expect(seen.values == [1, 2, 0])
        #expect(tens.value == 0)
    }

    @Test func droppingTheLastDerivedPropertyReleasesTheWholeChain() {
        weak var weakSource: Property<Int>?
        weak var weakMiddle: Property<Int>?
        weak var weakOther: Property<Int>?
        weak var weakPair: Property<(Int, Int)>?
        var last: Property<String>? = {
            let source = Property(1)
            let middle = source.map { $0 * 2 }
            let other = Property(0)
            let pair = middle.combined(with: other)
            weakSource = source
            weakMiddle = middle
            weakOther = other
            weakPair = pair
            return pair.map { "\($0.0 + $0.1)" }
        }()
        weak let weakLast = last
        // Nothing but `last` keeps them, and they still follow.
        #expect(weakSource != nil && weakMiddle != nil && weakOther != nil && weakPair != nil)
        weakSource?.value = 5
        weakOther?.value = 1
        #expect(last?.value == "11")

        last = nil
        #expect(weakLast == nil)
        #expect(weakPair == nil)
        #expect(weakMiddle == nil)
        #expect(weakSource == nil)
        #expect(weakOther == nil)
    }

    @Test func aKeptSourceReleasesAnUnkeptDerivedChainAndStopsComputingIt() {
        let count = Property(0)
        let calls = Inbox<String>()
        var last: Property<Int>? =
            count
            .map {
                calls.record("first \($0)"); return $0 + 1
            }
            .map {
                calls.record("second \($0)"); return $0 * 2
            }
        weak let weakLast = last
        count.value = 1
        #expect(last?.value == 4)
        #expect(calls.values == ["first 0", "second 1", "first 1", "second 2"])

        last = nil
        #expect(weakLast == nil)   // the source does not keep it
        #expect(count.subscriberCount == 0)   // nor the property in the middle
        count.value = 2
        count.value = 3
        #expect(calls.values.count == 4)   // no transform ran again
    }

    // MARK: Reentrancy

    @Test func aSubscriberMayReadSubscribeAndCancelFromItsHandler() {
        let property = Property(0)
        let log = Inbox<String>()
        let late = Inbox<Int>()
        let tokens = Lock<[SubscriptionToken]>([])
        property.subscribe(log) { listener, value in
            listener.record("read \(property.value)")
            if value == 1 {
                property.subscribe(late) { $0.record($1) }
                tokens.withLock { $0.forEach { $0.cancel() } }
            }
        }
        tokens.withLock { $0.append(property.observe { log.record("token \($0)") }) }
        property.value = 1
        property.value = 2
        #expect(late.values == [2])   // subscribed during the broadcast of 1: not in it
        #expect(log.values == ["read 1", "token 1", "read 2"])
    }

    @Test func aSetFromAHandlerIsBroadcastAfterTheCurrentOneInOrder() {
        let property = Property(0)
        let first = Inbox<Int>("first"), second = Inbox<Int>("second")
        property.subscribe(first) { listener, value in
            listener.record(value)
            if value == 1 {
                property.value = 2
                #expect(property.value == 2)   // the value changes at once
            }
        }
        property.subscribe(second) { $0.record($1) }
        property.value = 1
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])   // never 2 before 1
    }

    /// Pins down the rule for subscribing during a broadcast: a subscription
    /// hears the values set after it, each once, in order; with replay, the
    /// current value first, once the deliveries already queued are done.
    @Test func aSubscriptionDuringABroadcastHearsTheCurrentValueThenLaterOnes() {
        let property = Property(0)
        let first = Inbox<Int>("first")
        let replayed = Inbox<Int>("replayed"), plain = Inbox<Int>("plain")
        property.subscribe(first) { listener, value in
            listener.record(value)
            if value == 1 {
                property.value = 2   // queued behind the broadcast of 1
                property.subscribe(replayed, replay: true) { $0.record($1) }
                property.subscribe(plain) { $0.record($1) }
                #expect(replayed.values.isEmpty)   // its replay waits its turn
            }
            if value == 2 { property.value = 3 }
        }
        property.value = 1
        #expect(first.values == [1, 2, 3])
        #expect(replayed.values == [2, 3])   // 2 by replay, not again by its broadcast
        #expect(plain.values == [3])   // 2 was set before it subscribed
    }

    // MARK: Delivery

    @Test func queueDeliveryRunsOnTheQueue() async {
        let property = Property(0)
        let queue = DispatchQueue(label: "property.test")
        let inbox = Inbox<Int>()
        property.subscribe(inbox, delivery: .queue(queue)) { listener, value in
            dispatchPrecondition(condition: .onQueue(queue))
            listener.record(value)
        }
        property.value = 1
        property.value = 2
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(inbox.values == [1, 2])
    }

    @Test @MainActor func mainActorSubscribersRunAtOnceWhenSetOnTheMainActor() {
        let property = Property("a")
        let screen = MainActorInbox()
        property.subscribe(screen, replay: true) { @MainActor screen, word in screen.words.append(word) }
        property.set("b")
        #expect(screen.words == ["a", "b"])
    }

    // MARK: Concurrency

    @Test func manyTasksSettingWhileSubscribersComeAndGo() async {
        let property = Property(0)
        let permanent = Inbox<Int>()
        property.subscribe(permanent) { $0.record($1) }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<200 {
                        switch (task + i) % 3 {
                        case 0:
                            property.value = i
                        case 1:
                            let inbox = Inbox<Int>()
                            property.subscribe(inbox) { $0.record($1) }
                            property.value = i
                        default:
                            let token = property.observe(replay: true) { _ in _ = property.value }
                            property.value = i
                            token.cancel()
                        }
                    }
                }
            }
        }
        #expect(permanent.values.count == 8 * 200)
        property.value = -1
        #expect(property.subscriberCount == 1)   // every released subscriber culled
    }

    /// One thread sets 1...10,000 while another subscribes with replay 200
    /// times: no subscriber is ever called twice at once, each sees strictly
    /// increasing values, and those still subscribed end on the last value.
    ///
    /// A call made on the subscribing thread (a replay, or the deliveries it
    /// goes on with) waits inside the handler until the setter has set a newer
    /// value, so a broadcast that reached the subscriber meanwhile would overlap it.
    @Test func replaysNeverOverlapBroadcastsAndKeepTheOrder() async {
        final class Recorder: Sendable {
            let state = Lock<(inside: Int, overlaps: Int, values: [Int])>((0, 0, []))
            func enter() {
                state.withLock {
                    $0.inside += 1
                    if $0.inside > 1 { $0.overlaps += 1 }
                }
            }
            func leave(_ value: Int) {
                state.withLock {
                    $0.values.append(value)
                    $0.inside -= 1
                }
            }
        }
        let last = 10_000, subscriptions = 200
        let property = Property(0)
        let recorders = (0..<subscriptions).map { _ in Recorder() }
        let tokens = Lock<[SubscriptionToken]>([])
        let turn = DispatchSemaphore(value: 0)
        let setter = DispatchQueue(label: "property.setter")
        let onSetter = DispatchSpecificKey<Bool>()
        setter.setSpecific(key: onSetter, value: true)
        let group = DispatchGroup()
        setter.async(group: group) {
            for value in 1...last {
                property.value = value
                if value % (last / subscriptions) == 0 { turn.signal() }
            }
        }
        DispatchQueue.global().async(group: group) {
            for (index, recorder) in recorders.enumerated() {
                turn.wait()   // spread the subscriptions over the sets
                let token = property.observe(replay: true) { value in
                    recorder.enter()
                    if DispatchQueue.getSpecific(key: onSetter) == nil {
                        // The setter never waits for this thread, so it gets there.
                        while value < last, property.value <= value {}
                    }
                    recorder.leave(value)
                }
                if index % 4 == 3 { token.cancel() } else { tokens.withLock { $0.append(token) } }
            }
        }
        // Every delivery is made before its set or subscribe returns. Waiting without
        // blocking leaves the test runner's threads to the other tests.
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
        #expect(property.value == last)
        for (index, recorder) in recorders.enumerated() {
            let (_, overlaps, values) = recorder.state.withLock { $0 }
            #expect(overlaps == 0, "subscription \(index)")
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "subscription \(index)")
            if index % 4 != 3 { #expect(values.last == last, "subscription \(index)") }
        }
        #expect(tokens.withLock { $0.count } == subscriptions - subscriptions / 4)
    }
}

/// The rule for main-actor subscribers: a value set on the main thread reaches
/// them before the set returns, in order after any values still waiting for
/// them; from elsewhere it hops, and the hop keeps no subscriber alive.
@Suite struct PropertyMainActorDeliveryTests {
    /// A controller as the docs recommend: a plain `Sendable` class, not isolated to the main actor.
    final class NotesController: Sendable {
        let notes = Property<[String]>([])
        func add(_ note: String) { notes.value = notes.value + [note] }
    }

    @Test @MainActor func aValueSetOnTheMainThreadReachesEveryKindOfMainActorSubscriberAtOnce() {
        let controller = NotesController()
        let screen = MainActorInbox()
        controller.notes.subscribe(screen) { @MainActor screen, notes in screen.words.append("closure \(notes.joined())") }
        controller.notes.subscribe(screen, delivery: .mainActor) { screen, notes in
            MainActor.assumeIsolated { screen.words.append("delivery \(notes.joined())") }
        }
        let token = controller.notes.observe(delivery: .mainActor) { notes in
            MainActor.assumeIsolated { screen.words.append("token \(notes.joined())") }
        }
        controller.add("a")   // a nonisolated setter, called on the main thread
        #expect(screen.words == ["closure a", "delivery a", "token a"])
        token.cancel()
    }

    /// A main-queue block is on the main actor too, whichever thread drains the main queue.
    @Test @MainActor func aValueSetInAMainQueueBlockReachesMainActorSubscribersAtOnce() async {
        let controller = NotesController()
        let screen = MainActorInbox()
        controller.notes.subscribe(screen) { @MainActor screen, notes in screen.words = notes }
        let shown = await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                controller.add("a")
                continuation.resume(returning: MainActor.assumeIsolated { screen.words })
            }
        }
        #expect(shown == ["a"])
    }

    @Test @MainActor func valuesWaitingForTheMainActorArriveFirstAndInOrder() {
        let property = Property(0)
        let screen = MainActorInbox()
        property.subscribe(screen) { @MainActor screen, value in screen.words.append("\(value)") }
        // The main thread is held while another thread sets 1...100: those values wait.
        onAnotherThreadWhileTheMainThreadWaits {
            for value in 1...100 { property.value = value }
        }
        #expect(screen.words.isEmpty)
        property.value = 101
        #expect(screen.words == (1...101).map(String.init))
    }

    @Test @MainActor func aPendingHopKeepsNoSubscriberAlive() async {
        let property = Property(0)
        let calls = Inbox<Int>()
        var screen: MainActorInbox? = MainActorInbox()
        weak let released = screen
        property.subscribe(screen!) { @MainActor _, value in calls.record(value) }
        onAnotherThreadWhileTheMainThreadWaits { property.value = 1 }
        screen = nil
        #expect(released == nil)   // the hop waiting for the main actor holds only the value
        await Task.yield()   // let the hop run: it finds the subscriber gone
        property.value = 2   // on the main thread: nothing waits any more, nothing is called
        #expect(calls.values.isEmpty)
    }

    @Test @MainActor func theLeakCheckHoldsRightAfterAMainActorUpdate() {
        let controller = NotesController()
        var screen: MainActorInbox? = MainActorInbox()
        weak let released = screen
        controller.notes.subscribe(screen!) { @MainActor screen, notes in screen.words = notes }
        controller.add("a")
        #expect(screen?.words == ["a"])
        screen = nil
        #expect(released == nil)
    }

    @Test @MainActor func aMainActorSubscriberIsNeverReentered() {
        let property = Property(0)
        let screen = MainActorInbox()
        property.subscribe(screen) { @MainActor screen, value in
            screen.words.append("enter \(value)")
            if value < 3 { property.value = value + 1 }
            screen.words.append("leave \(value)")
        }
        property.value = 1
        #expect(screen.words == ["enter 1", "leave 1", "enter 2", "leave 2", "enter 3", "leave 3"])
    }

    /// The main thread and another thread set at once; the subscriber sees every
    /// value once, each thread's values in the order it set them.
    @Test @MainActor func setsRacingFromTheMainThreadAndAnotherArriveOnceEachInOrder() async {
        let property = Property(0)
        let screen = MainActorInbox()
        property.subscribe(screen) { @MainActor screen, value in screen.words.append("\(value)") }
        let done = DispatchSemaphore(value: 0)
        Thread {
            for value in 1...1_000 { property.value = value }
            done.signal()
        }.start()
        for value in 1_001...2_000 { property.value = value }
        done.wait()
        property.value = 2_001   // on the main thread: hands over whatever still waits, then itself
        let seen = screen.words.compactMap { Int($0) }
        #expect(seen.count == 2_001)
        #expect(seen.filter { $0 <= 1_000 } == Array(1...1_000))
        #expect(seen.filter { $0 > 1_000 } == Array(1_001...2_001))
    }
}

extension PropertyTests {
    // MARK: - update(_:)

    /// Two threads each toggle and count 20,000 times through `update`: no change is lost,
    /// and every update is broadcast once. (Reading `value` and setting it loses some.)
    @Test func updatesFromTwoThreadsLoseNothingAndBroadcastOnceEach() {
        let count = Property(0)
        let heard = Counter()
        let token = count.observe { _ in heard.increment() }
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread {
                for _ in 0..<20_000 { count.update { $0 += 1 } }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(count.value == 40_000)
        #expect(heard.value == 40_000)
        _ = token
    }

    @Test func updateReturnsTheBodysResultAndSubscribersHearTheResult() {
        let favorites = Property<Set<Int>>([])
        let heard = Inbox<Set<Int>>()
        favorites.subscribe(heard) { $0.record($1) }
        #expect(favorites.update { $0.insert(42).inserted } == true)
        #expect(favorites.update { $0.insert(42).inserted } == false)   // already there: still broadcast, once
        let isFavorite = Property(false)
        isFavorite.update { $0.toggle() }
        #expect(isFavorite.value == true)
        #expect(heard.values == [[42], [42]])
    }

    @Test func aThrowingBodyChangesNothingAndBroadcastsNothing() {
        struct Refused: Error {}
        let property = Property(1)
        let heard = Inbox<Int>()
        property.subscribe(heard) { $0.record($1) }
        #expect(throws: Refused.self) {
            try property.update { value in
                value = 99
                throw Refused()
            }
        }
        #expect(property.value == 1)
        #expect(heard.values.isEmpty)
    }

    /// The body may read the property (it runs outside the lock), and runs again on
    /// the newer value when a set comes between its read and its store.
    @Test func aSetDuringTheBodyMakesItRunAgainOnTheNewerValue() {
        let property = Property(1)
        let runs = Counter()
        let result = property.update { value -> Int in
            runs.increment()
            if runs.value == 1 {
                #expect(property.value == 1)   // reading inside the body does not deadlock
                property.value = 10   // another writer comes between
            }
            value += 1
            return value
        }
        #expect(runs.value == 2)
        #expect(result == 11)
        #expect(property.value == 11)
    }

    /// The body runs outside the lock, so it may subscribe; the new subscription hears the
    /// result, since it was made before the update's broadcast.
    @Test func theBodyMaySubscribe() {
        let property = Property(1)
        let heard = Inbox<Int>()
        var token: SubscriptionToken?
        property.update { value in
            token = property.observe { heard.record($0) }
            value = 2
        }
        #expect(heard.values == [2])
        _ = token
    }

    @Test @MainActor func anUpdateOnTheMainActorReachesMainActorSubscribersAtOnce() {
        final class Screen: Sendable {
            let shown = Lock<[Int]>([])
        }
        let property = Property(0)
        let screen = Screen()
        property.subscribe(screen) { @MainActor screen, value in screen.shown.withLock { $0.append(value) } }
        property.update { $0 += 5 }
        #expect(screen.shown.withLock { $0 } == [5])
    }

    // MARK: - Tokens keep what they observe

    /// A token keeps the property it observes, and a derived property its sources:
    /// `count.map { … }.observe { … }` follows `count` with nothing else keeping the mapped one.
    @Test func aTokenKeepsADerivedPropertyItObservesAlive() {
        let count = Property(1)
        let heard = Inbox<String>()
        weak var weakLabel: Property<String>?
        var token: SubscriptionToken? = {
            let label = count.map { "\($0) unread" }.removingDuplicates()
            weakLabel = label
            return label.observe { heard.record($0) }
        }()
        #expect(weakLabel != nil)
        count.value = 2
        count.value = 2
        count.value = 3
        #expect(heard.values == ["2 unread", "3 unread"])
        token = nil
        #expect(weakLabel == nil)   // the token was all that kept it
        #expect(count.subscriberCount == 0)
        _ = token
    }
}

/// Runs `body` on a thread of its own and holds the calling (main) thread until it ends,
/// so that nothing of the main actor can run meanwhile.
func onAnotherThreadWhileTheMainThreadWaits(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    done.wait()
}
