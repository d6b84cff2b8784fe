import Dispatch
import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

/// Derived properties in long chains (issue 38: 200 `map`s crashed a 512 KiB thread, each level's
/// update calling the next).
extension PropertyTests {
    /// A chain of `length` maps, each adding 1, from `root`; the last is returned.
    private static func chain(from root: Property<Int>, length: Int) -> [Property<Int>] {
        var levels: [Property<Int>] = []
        var last = root
        for _ in 0..<length {
            last = last.map { $0 + 1 }
            levels.append(last)
        }
        return levels
    }

    @Test(arguments: [200, 10_000])
    func aLongChainOfMapsUpdatesOnASmallStack(length: Int) async {
        let leaf = await onSmallStack { () -> [Int] in
            let root = Property(0)
            let levels = Self.chain(from: root, length: length)
            var seen: [Int] = []
            for value in [1, 2, 3] {
                root.value = value   // every level is updated before the set returns
                seen.append(levels.last!.value)
            }
            return seen   // the chain is let go of here, at once: on this stack too
        }
        #expect(leaf == [1 + length, 2 + length, 3 + length])
    }

    @Test func longChainsOfCombinedAndRemovingDuplicatesUpdateOnASmallStack() async {
        let results = await onSmallStack { () -> [Int] in
            let root = Property(0), other = Property(100)
            var last = root
            for level in 0..<400 {   // 200 combined, 200 removingDuplicates
                last = level.isMultiple(of: 2) ? last.combined(with: other) { $0 + $1 - 100 + 1 } : last.removingDuplicates()
            }
            var seen: [Int] = []
            for value in [1, 1, 5] {
                root.value = value
                seen.append(last.value)
            }
            other.value = 101   // every combined level adds one more
            seen.append(last.value)
            return seen
        }
        #expect(results == [201, 201, 205, 405])
    }

    /// Every level hears every value, in order, once, also those past the levels updated at once.
    @Test func everyLevelOfALongChainHearsEveryValueInOrder() {
        let root = Property(0)
        let levels = Self.chain(from: root, length: 40)
        let heard = (0..<levels.count).map { _ in Inbox<Int>() }
        let tokens = zip(levels, heard).map { level, inbox in level.observe { inbox.record($0) } }
        for value in 1...20 { root.value = value }
        for (depth, inbox) in heard.enumerated() {
            #expect(inbox.values == (1...20).map { $0 + depth + 1 }, "level \(depth + 1)")
        }
        withExtendedLifetime(tokens) {}
    }

    /// A set from a subscriber deep in a chain (queued behind the set under way) is made too, after it.
    @Test func aSetFromASubscriberDeepInAChainIsMadeAfterTheOneUnderWay() {
        let root = Property(0)
        let levels = Self.chain(from: root, length: 30)
        let heard = Inbox<Int>()
        let token = levels[20].observe { value in
            heard.record(value)
            if value == 22 { root.value = 100 }
        }
        root.value = 1
        #expect(heard.values == [22, 121])
        #expect(levels.last!.value == 130)
        withExtendedLifetime(token) {}
    }

    /// Two threads: one sets the root of a chain, the other sets a level in the middle directly,
    /// 2,000 times each. Whatever the interleaving, once both are done every level below the
    /// middle one holds what its source holds, plus one: no update that ran late is left showing.
    @Test func aChainEndsConsistentWhenItsRootAndAMiddleLevelAreSetFromTwoThreads() {
        let root = Property(0)
        let levels = Self.chain(from: root, length: 24)
        let middle = levels[9]
        let a = TestThreads.onThread { for value in 1...2_000 { root.value = value } }
        let b = TestThreads.onThread { for value in 1...2_000 { middle.value = -value } }
        #expect(a.wait(timeout: .now() + 300) == .success)
        #expect(b.wait(timeout: .now() + 300) == .success)
        for depth in 10..<levels.count {
            #expect(levels[depth].value == levels[depth - 1].value + 1, "level \(depth + 1)")
        }
    }

    /// Thread A sets the root of a chain and is held (a seam) after the eighth level's update,
    /// with the ninth level's update queued; thread B then sets the eighth level directly, and
    /// its update of the ninth runs at once. A's update, numbered earlier, runs after it and is
    /// dropped: the ninth level keeps the transform of what the eighth holds, and its subscribers
    /// hear B's value once, nothing for the dropped update.
    @Test func anUpdateQueuedDeepInAChainThatRunsAfterANewerOneIsDropped() {
        let root = Property(0)
        let levels = Self.chain(from: root, length: 10)
        let heard = Inbox<Int>()
        let token = levels[8].observe { heard.record($0) }
        let (a, release) = Self.settingHeldBeforeDraining(root)
        #expect(levels[7].value == 9)
        #expect(levels[8].value == 9)   // still the transform of 0: its update is queued
        levels[7].value = 100
        #expect(levels[8].value == 101)
        release.signal()
        #expect(a.wait(timeout: .now() + 300) == .success)
        #expect(levels[8].value == 101, "the update queued by A showed an older value")
        #expect(levels[9].value == 102)
        #expect(heard.values == [101], "the dropped update was announced")
        withExtendedLifetime(token) {}
    }

    /// The same with ``Property/removingDuplicates()`` as the ninth level: A's update of it, queued
    /// with the eighth level's older value, runs after B's and is dropped, though it differs from
    /// the value shown (the stale-update check, not the duplicate check, drops it).
    @Test func removingDuplicatesDropsAnUpdateQueuedDeepInAChainThatRunsAfterANewerOne() {
        let root = Property(0)
        let levels = Self.chain(from: root, length: 8)
        let distinct = levels[7].removingDuplicates()
        let (a, release) = Self.settingHeldBeforeDraining(root)
        #expect(levels[7].value == 9)
        #expect(distinct.value == 8)   // its update of 9 is queued
        levels[7].value = 100
        #expect(distinct.value == 100)
        release.signal()
        #expect(a.wait(timeout: .now() + 300) == .success)
        #expect(distinct.value == 100, "the update queued by A showed an older value")
    }

    /// Sets `root` to 1 on thread A, held after its deepest direct update, before it runs what was
    /// queued below it; returns once A is held, with what A signals when done and what releases it.
    private static func settingHeldBeforeDraining(_ root: Property<Int>) -> (done: DispatchSemaphore, release: DispatchSemaphore) {
        let reached = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let done = TestThreads.onThread {
            DerivedUpdates.beforeDraining.withLock {
                $0[ThreadIdentity.current] = {
                    reached.signal()
                    release.wait()
                }
            }
            root.value = 1
            DerivedUpdates.beforeDraining.withLock { $0[ThreadIdentity.current] = nil }
        }
        reached.wait()
        return (done, release)
    }
}
