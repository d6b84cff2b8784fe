import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

struct PropertyAsyncSequenceTests {
    /// Starts a task that iterates `sequence` until `done` says it has seen
    /// enough, and returns once the task has made the sequence (and so subscribed).
    private func startLoop<Value: Sendable>(
        _ makeSequence: @escaping @Sendable () -> SubscriptionSequence<Value>,
        until done: @escaping @Sendable ([Value]) -> Bool
    ) async -> Task<[Value], Never> {
        let (subscribed, ready) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            var seen: [Value] = []
            let values = makeSequence()
            ready.yield()
            for await value in values {
                seen.append(value)
                if done(seen) { break }
            }
            return seen
        }
        for await _ in subscribed { break }
        return task
    }

    @Test func theCurrentValueComesFirstThenEachSetOnceInOrder() async {
        let property = Property(0)
        var iterator = property.values.makeAsyncIterator()
        for value in 1...100 { property.value = value }
        var seen: [Int] = []
        for _ in 0...100 { seen.append(await iterator.next() ?? -1) }
        #expect(seen == Array(0...100))
    }

    @Test func aLoopRunningAlongsideTheSetterReceivesEveryValueInOrder() async {
        let property = Property(0)
        let loop = await startLoop({ property.values }, until: { $0.last == 1_000 })
        for value in 1...1_000 {
            property.value = value
            if value.isMultiple(of: 50) { await Task.yield() }
        }
        #expect(await loop.value == Array(0...1_000))
        #expect(property.subscriberCount == 0)   // leaving the loop ended the subscription
    }

    @Test func twoConcurrentSettersGiveEachValueOnceInTheirOrder() async {
        let property = Property(0)
        let loop = await startLoop({ property.values }, until: { $0.count == 1_001 })
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for value in 1...500 { property.value = value } }
            group.addTask { for value in 1...500 { property.value = -value } }
        }
        let seen = await loop.value
        #expect(seen.count == 1_001)
        #expect(Set(seen) == Set(-500...500))
        #expect(seen.filter { $0 > 0 } == Array(1...500))
        #expect(seen.filter { $0 < 0 } == (1...500).map { -$0 })
        #expect(seen.last == property.value)
        #expect(property.subscriberCount == 0)
    }

    // MARK: Ending

    @Test func breakingOutOfTheLoopEndsTheSubscription() async {
        let property = Property(0)
        let other = property.observe { _ in }
        for value in 1...3 { property.value = value }   // before the loop: not seen
        var seen: [Int] = []
        for await value in property.values {
            #expect(property.subscriberCount == 2)
            seen.append(value)
            if value == 5 { break }
            property.value = value + 1
        }
        #expect(seen == [3, 4, 5])
        #expect(property.subscriberCount == 1)
        _ = other
    }

    /// Property.md's recommended pattern: the sequence is made first, then
    /// iterated in a task. Leaving the loop ends the subscription, though the
    /// sequence is still kept.
    @Test(arguments: ["break", "return", "throw"])
    func leavingTheLoopOfASequenceMadeFirstEndsTheSubscription(howTheLoopIsLeft: String) async {
        struct Stop: Error {}
        let badgeCount = Property(0)
        let counts = badgeCount.values   // subscribes here
        #expect(badgeCount.subscriberCount == 1)
        let watcher = Task { () -> [Int] in
            var seen: [Int] = []
            do {
                for await count in counts {
                    seen.append(count)
                    guard count == 3 else { continue }
                    switch howTheLoopIsLeft {
                    case "break": break
                    case "return": return seen
                    default: throw Stop()
                    }
                    break
                }
            } catch {}
            return seen
        }
        badgeCount.value = 3
        #expect(await watcher.value == [0, 3])
        #expect(badgeCount.subscriberCount == 0)   // `counts` is still held here
        // The sequence was for that one loop: iterating it again ends at once.
        var again = counts.makeAsyncIterator()
        badgeCount.value = 4
        #expect(await again.next() == nil)
        withExtendedLifetime(counts) {}
    }

    @Test func droppingTheIteratorEndsTheSubscription() async {
        let property = Property("a")
        var iterator: SubscriptionSequence<String>.Iterator? = property.values.makeAsyncIterator()
        #expect(property.subscriberCount == 1)
        #expect(await iterator?.next() == "a")
        #expect(property.subscriberCount == 1)
        iterator = nil
        #expect(property.subscriberCount == 0)
    }

    @Test func aSequenceNeverIteratedEndsItsSubscriptionWhenDropped() {
        let property = Property(1)
        var values: SubscriptionSequence<Int>? = property.values(bufferingNewest: 1)
        #expect(property.subscriberCount == 1)
        values = nil
        #expect(values == nil)
        #expect(property.subscriberCount == 0)
    }

    @Test func cancellingTheIteratingTaskEndsTheSubscriptionAndTheLoop() async {
        let property = Property(0)
        let (progress, report) = AsyncStream.makeStream(of: Int.self)
        let loop = Task {
            var seen: [Int] = []
            for await value in property.values {
                seen.append(value)
                report.yield(value)
            }
            return seen
        }
        for await value in progress {
            if value == 0 { break }   // the loop has subscribed and is waiting
        }
        #expect(property.subscriberCount == 1)
        loop.cancel()
        #expect(await loop.value.first == 0)   // the loop ended
        #expect(property.subscriberCount == 0)
    }

    @Test func aCancelledLoopStillReceivesTheValuesAlreadyBufferedThenEnds() async {
        let property = Property(0)
        let values = property.values
        property.value = 1
        let loop = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var seen: [Int] = []
            for await value in values { seen.append(value) }
            return seen
        }
        #expect(await loop.value == [0, 1])
        #expect(property.subscriberCount == 0)
        property.value = 2   // nobody hears it, nothing is buffered
        #expect(property.subscriberCount == 0)
    }

    // MARK: Lifetime

    @Test func theSequenceKeepsThePropertyWhileItIsIterated() async throws {
        weak var weakProperty: Property<Int>?
        var iterator: SubscriptionSequence<Int>.Iterator? = {
            let property = Property(1)
            weakProperty = property
            return property.values.makeAsyncIterator()
        }()
        try #require(weakProperty != nil)   // else the next read would wait forever
        #expect(await iterator?.next() == 1)
        weakProperty?.value = 2
        #expect(await iterator?.next() == 2)
        iterator = nil
        #expect(weakProperty == nil)
    }

    @Test func aDerivedPropertysSequenceKeepsTheChain() async throws {
        let count = Property(1)
        weak var weakDoubled: Property<Int>?
        var iterator: SubscriptionSequence<Int>.Iterator? = {
            let doubled = count.map { $0 * 2 }
            weakDoubled = doubled
            return doubled.values.makeAsyncIterator()
        }()
        try #require(weakDoubled != nil)   // else the next reads would wait forever
        count.value = 3
        #expect(await iterator?.next() == 2)
        #expect(await iterator?.next() == 6)
        iterator = nil
        #expect(weakDoubled == nil)
        #expect(count.subscriberCount == 0)
    }

    // MARK: Buffering

    @Test func byDefaultASlowLoopLosesNothing() async {
        let property = Property(0)
        var iterator = property.values.makeAsyncIterator()
        for value in 1...1_000 { property.value = value }
        var seen: [Int] = []
        for _ in 0...1_000 { seen.append(await iterator.next() ?? -1) }
        #expect(seen == Array(0...1_000))
        property.value = 1_001
        #expect(await iterator.next() == 1_001)
    }

    @Test func bufferingTheNewestOneASlowLoopGetsOnlyTheLatest() async {
        let property = Property(0)
        var iterator = property.values(bufferingNewest: 1).makeAsyncIterator()
        for value in 1...1_000 { property.value = value }
        #expect(await iterator.next() == 1_000)
        property.value = 1_001
        #expect(await iterator.next() == 1_001)
    }

    @Test(arguments: [0, -5, Int.min])
    func aLimitBelowOneCountsAsOne(limit: Int) async {
        let property = Property(0)
        var iterator = property.values(bufferingNewest: limit).makeAsyncIterator()
        for value in 1...10 { property.value = value }
        #expect(await iterator.next() == 10)
    }

    @Test func bufferingTheNewestThreeKeepsTheLastThreeInOrder() async {
        let property = Property(0)
        var iterator = property.values(bufferingNewest: 3).makeAsyncIterator()
        for value in 1...10 { property.value = value }
        var seen: [Int] = []
        for _ in 0..<3 { seen.append(await iterator.next() ?? -1) }
        #expect(seen == [8, 9, 10])
    }

    /// The example of Property.md's "Async sequences", copied literally.
    @Test func theDocumentedExample() async {
        let badgeCount = Property(0)

        let watcher = Task {
            for await count in badgeCount.values {   // subscribes here, and receives 0 or 3 first
                print("badge: \(count)")
                if count == 3 { break }   // leaving the loop unsubscribes
            }
        }
        badgeCount.value = 3
        await watcher.value

        #expect(badgeCount.subscriberCount == 0)
    }

    // MARK: Sweep

    /// Random interleavings of starting loops, sets, reads and dropping loops:
    /// each loop receives exactly what its model says, and the property counts
    /// exactly the loops that are kept.
    @Test(arguments: 0..<20 as Range<UInt64>)
    func aSeededSweepOfSetsReadsAndDrops(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        let property = Property(0)
        var loops: [(iterator: SubscriptionSequence<Int>.Iterator, limit: Int?, expected: [Int])] = []
        var last = 0
        for _ in 0..<300 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<2:
                let limit: Int? = Bool.random(using: &random) ? nil : Int.random(in: 1...3, using: &random)
                let values = limit.map { property.values(bufferingNewest: $0) } ?? property.values
                loops.append((values.makeAsyncIterator(), limit, [last]))
            case 2..<6:
                last += 1
                property.value = last
                for index in loops.indices {
                    loops[index].expected.append(last)
                    if let limit = loops[index].limit, loops[index].expected.count > limit {
                        loops[index].expected.removeFirst()
                    }
                }
            case 6..<9:
                let waiting = loops.indices.filter { !loops[$0].expected.isEmpty }
                guard let index = waiting.randomElement(using: &random) else { continue }
                var iterator = loops[index].iterator
                let value = await iterator.next()
                loops[index].iterator = iterator
                #expect(value == loops[index].expected.removeFirst())
            default:
                guard !loops.isEmpty else { continue }
                loops.remove(at: Int.random(in: loops.indices, using: &random))
            }
            #expect(property.subscriberCount == loops.count)
        }
        loops.removeAll()
        #expect(property.subscriberCount == 0)
    }
}
