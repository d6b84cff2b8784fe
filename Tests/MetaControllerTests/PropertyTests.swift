import Dispatch
import MetaController
import Testing

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
        #expect(weakSecond == nil)                  // the property does not keep subscribers alive
        #expect(property.subscriberCount == 2)      // not culled yet
        property.value = "world"
        #expect(property.subscriberCount == 1)      // culled by the set
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
        #expect(count.subscriberCount == 0)           // its subscription ended with it
    }

    @Test func combinedHoldsBothLatestValues() {
        let signedIn = Property(false)
        let online = Property(true)
        let pair = signedIn.combined(with: online)
        let canSync = pair.map { $0 && $1 }
        let seen = Inbox<Bool>()
        canSync.subscribe(seen) { $0.record($1) }
        #expect(canSync.value == false)
        signedIn.value = true
        online.value = false
        online.value = true
        #expect(seen.values == [true, false, true])
        #expect(pair.value == (true, true))
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

    @Test func removingDuplicatesSkipsRepeats() {
        let status = Property("offline")
        let distinct = status.removingDuplicates()
        let seen = Inbox<String>()
        distinct.subscribe(seen) { $0.record($1) }
        for value in ["offline", "online", "online", "offline", "offline"] { status.value = value }
        #expect(seen.values == ["online", "offline"])
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
        #expect(late.values == [2])                   // subscribed during the broadcast of 1: not in it
        #expect(log.values == ["read 1", "token 1", "read 2"])
    }

    @Test func aSetFromAHandlerIsBroadcastAfterTheCurrentOneInOrder() {
        let property = Property(0)
        let first = Inbox<Int>("first"), second = Inbox<Int>("second")
        property.subscribe(first) { listener, value in
            listener.record(value)
            if value == 1 {
                property.value = 2
                #expect(property.value == 2)          // the value changes at once
            }
        }
        property.subscribe(second) { $0.record($1) }
        property.value = 1
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])              // never 2 before 1
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
        #expect(property.subscriberCount == 1)        // every released subscriber culled
    }
}
