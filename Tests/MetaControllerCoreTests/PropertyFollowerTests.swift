import Foundation
import MetaController
@testable import MetaControllerCore
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// The follower under the SwiftUI and Observation bridges: one property at a
/// time, main-actor delivery, a silent replay, and nothing from a property it
/// let go of.
@Suite struct PropertyFollowerTests {
    /// Records what `onChange` saw: the value before and after `apply`.
    @MainActor
    final class ChangeLog {
        var changes: [String] = []

        func watch(_ follower: PropertyFollower<Int>) {
            follower.onChange = { [weak follower, weak self] apply in
                let before = follower?.value
                apply()
                self?.changes.append("\(before.map(String.init) ?? "-")→\(follower.map { String($0.value) } ?? "-")")
            }
        }
    }

    @Test @MainActor func itShowsTheDefaultUntilItFollows() {
        let follower = PropertyFollower(default: -1)
        #expect(follower.value == -1)
        #expect(follower.property == nil)
    }

    @Test @MainActor func followingShowsTheCurrentValueAtOnceWithoutCallingOnChange() {
        let property = Property(7)
        let follower = PropertyFollower(default: -1)
        let log = ChangeLog()
        log.watch(follower)
        #expect(follower.follow(property))
        #expect(follower.value == 7)
        #expect(log.changes.isEmpty)
    }

    @Test @MainActor func aValueSetOnTheMainThreadGoesThroughOnChangeBeforeTheSetReturns() {
        let property = Property(1)
        let follower = PropertyFollower(default: -1)
        let log = ChangeLog()
        log.watch(follower)
        follower.follow(property)
        property.value = 2
        property.value = 3
        #expect(log.changes == ["1→2", "2→3"])   // onChange ran around each change, apply set the value
        #expect(follower.value == 3)
    }

    @Test @MainActor func aValueSetOnAnotherThreadArrivesOnTheMainActor() async {
        let property = Property(1)
        let follower = PropertyFollower(default: -1)
        follower.follow(property)
        let onMainActor = await withCheckedContinuation { continuation in
            follower.onChange = { apply in
                apply()
                continuation.resume(returning: MainActorContext.isCurrent(nil))
            }
            Thread { property.value = 2 }.start()
        }
        #expect(onMainActor)
        #expect(follower.value == 2)
    }

    @Test @MainActor func followingTheSameInstanceAgainDoesNothing() {
        let property = Property(1)
        let follower = PropertyFollower(default: -1)
        follower.follow(property)
        // A value waits for the main actor; a new subscription's replay would show it at once.
        onAnotherThreadWhileTheMainThreadWaits { property.value = 2 }
        #expect(!follower.follow(property))
        #expect(follower.value == 1)
        #expect(property.subscriberCount == 1)
    }

    @Test @MainActor func followingAnotherPropertyLetsGoOfTheOldOne() {
        let old = Property(1)
        let new = Property(10)
        let follower = PropertyFollower(default: -1)
        let log = ChangeLog()
        log.watch(follower)
        follower.follow(old)
        #expect(follower.follow(new))
        #expect(follower.value == 10)
        #expect(old.subscriberCount == 0)
        old.value = 2
        new.value = 11
        #expect(log.changes == ["10→11"])
        #expect(follower.property === new)
    }

    /// A value of the old property already on its way to the main actor when
    /// the follower switches is dropped when it arrives.
    @Test @MainActor func aValueOfTheOldPropertyStillOnItsWayIsDropped() async {
        let old = Property(1)
        let new = Property(10)
        let follower = PropertyFollower(default: -1)
        let log = ChangeLog()
        log.watch(follower)
        follower.follow(old)
        // A witness subscribed after the follower: its hop is queued after the follower's.
        let witnessed = AsyncStream<Int>.makeStream()
        let witness = old.observe(delivery: .mainActor) { witnessed.continuation.yield($0) }
        onAnotherThreadWhileTheMainThreadWaits { old.value = 2 }
        follower.follow(new)
        var arrivals = witnessed.stream.makeAsyncIterator()
        #expect(await arrivals.next() == 2)   // both hops have run
        #expect(follower.value == 10)
        #expect(log.changes.isEmpty)
        witness.cancel()
    }

    @Test @MainActor func followingNilShowsTheDefaultAndLetsGo() {
        let property = Property(1)
        let follower = PropertyFollower(default: -1)
        let log = ChangeLog()
        log.watch(follower)
        follower.follow(property)
        #expect(follower.follow(nil))
        #expect(follower.value == -1)
        #expect(property.subscriberCount == 0)
        #expect(log.changes.isEmpty)
        #expect(!follower.follow(nil))
    }

    @Test @MainActor func itKeepsADerivedChainThatNobodyElseKeeps() {
        let source = Property(1)
        var derived: Property<Int>? = source.map { $0 * 10 }.removingDuplicates()
        weak let released = derived
        let follower = PropertyFollower(default: -1)
        follower.follow(derived)
        derived = nil
        #expect(released != nil)
        source.value = 2
        #expect(follower.value == 20)
        follower.follow(nil)
        #expect(released == nil)   // let go: the chain goes with it
    }

    @Test @MainActor func releasingTheFollowerEndsItsSubscription() {
        let property = Property(1)
        var follower: PropertyFollower<Int>? = PropertyFollower(default: -1)
        weak let released = follower
        follower?.follow(property)
        #expect(property.subscriberCount == 1)
        follower = nil
        #expect(released == nil)
        property.value = 2
        #expect(property.subscriberCount == 0)
    }

    // MARK: - Following what a source finds in a MetaController (a wrapper's update)

    @Test @MainActor func aNewMetaControllerMakesItFollowItsProperty() throws {
        let first = MetaController.withFakes()
        let second = MetaController.withFakes()
        let firstLocation = try #require(first.fakeLocationController?.currentLocation)
        let secondLocation = try #require(second.fakeLocationController?.currentLocation)
        let here = try Location(latitude: 1, longitude: 2)
        secondLocation.value = here
        let source = PropertySource(\.locationController?.currentLocation, default: nil)
        let follower = PropertyFollower<Location?>(default: nil)

        #expect(follower.follow(source, in: first))
        #expect(!follower.follow(source, in: first))   // the next update finds the same property
        #expect(follower.follow(source, in: second))
        #expect(follower.value == here)
        #expect(firstLocation.subscriberCount == 0)
        #expect(follower.follow(source, in: nil))
        #expect(follower.value == nil)
        #expect(secondLocation.subscriberCount == 0)
    }

    @Test @MainActor func aSlotFilledWithAnotherControllerMakesItFollowTheNewOne() throws {
        let metaController = MetaController.withFakes()
        let source = PropertySource(\.locationController?.currentLocation, default: nil)
        let follower = PropertyFollower<Location?>(default: nil)
        follower.follow(source, in: metaController)
        let replacement = FakeLocationController()
        let there = try Location(latitude: 3, longitude: 4)
        replacement.currentLocation.value = there
        metaController.locationController = replacement
        #expect(follower.follow(source, in: metaController))
        #expect(follower.value == there)
        metaController.locationController = nil
        #expect(follower.follow(source, in: metaController))
        #expect(follower.value == nil)
    }
}
