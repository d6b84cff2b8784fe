import Foundation
import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

/// The `ObservableObject` bridge, through its platform-neutral form: `follow(_:willChange:)`
/// with a stand-in model for `objectWillChange.send()` (Combine is not on Linux).
@Suite struct PublishedPropertyTests {
    /// An `ObservableObject` model's stand-in: it records, at each announcement, the value
    /// shown then (so an announcement made after the change would show the new value).
    @MainActor
    final class Model {
        let shown = PublishedProperty<Int>(default: -1)
        var announcements: [Int] = []
        var announcedOnMainActor: [Bool] = []

        func follow(_ property: Property<Int>?) {
            shown.follow(property) { [weak self] in
                guard let self else { return }
                announcements.append(shown.value)
                announcedOnMainActor.append(MainActorContext.isCurrent(nil))
            }
        }
    }

    @Test @MainActor func theFirstFollowShowsTheCurrentValueAtOnceAndAnnouncesNothing() {
        let model = Model()
        #expect(model.shown.value == -1)
        model.follow(Property(3))
        #expect(model.shown.value == 3)
        #expect(model.announcements.isEmpty)
    }

    @Test @MainActor func aSetOnTheMainThreadIsAnnouncedBeforeTheValueChangesAndBeforeTheSetReturns() {
        let property = Property(1)
        let model = Model()
        model.follow(property)
        property.value = 2
        #expect(model.announcements == [1])   // announced while the old value was still shown
        #expect(model.shown.value == 2)
        property.value = 3
        #expect(model.announcements == [1, 2])
    }

    @Test @MainActor func aSetOnAnotherThreadIsAnnouncedOnTheMainActor() async {
        let property = Property(1)
        let model = Model()
        model.follow(property)
        let arrived = AsyncStream<Int>.makeStream()
        let witness = property.observe(delivery: .mainActor) { arrived.continuation.yield($0) }
        onAnotherThreadWhileTheMainThreadWaits { property.value = 2 }
        var arrivals = arrived.stream.makeAsyncIterator()
        #expect(await arrivals.next() == 2)   // the model's hop, queued first, has run too
        #expect(model.announcements == [1])
        #expect(model.announcedOnMainActor == [true])
        #expect(model.shown.value == 2)
        witness.cancel()
    }

    @Test @MainActor func followingAnotherPropertyIsAnnouncedOnceAndLetsGoOfTheOldOne() {
        let old = Property(1)
        let new = Property(10)
        let model = Model()
        model.follow(old)
        model.follow(new)
        #expect(model.announcements == [1])
        #expect(model.shown.value == 10)
        #expect(old.subscriberCount == 0)
        old.value = 2
        #expect(model.announcements == [1])
        #expect(model.shown.value == 10)
        new.value = 11
        #expect(model.announcements == [1, 10])
    }

    @Test @MainActor func followingTheSameInstanceAgainChangesNothingButTheAnnouncement() {
        let property = Property(1)
        let model = Model()
        model.follow(property)
        var other: [Int] = []
        model.shown.follow(property) { other.append(0) }
        #expect(model.announcements.isEmpty)
        #expect(property.subscriberCount == 1)
        property.value = 2
        #expect(other == [0])   // the new closure
        #expect(model.announcements.isEmpty)   // not the old one
    }

    @Test @MainActor func followingNilIsAnnouncedOnceAndShowsTheDefault() {
        let property = Property(1)
        let model = Model()
        model.follow(property)
        model.follow(nil)
        #expect(model.announcements == [1])
        #expect(model.shown.value == -1)
        #expect(property.subscriberCount == 0)
        model.follow(nil)
        #expect(model.announcements == [1])
    }

    @Test @MainActor func aValueOfTheOldPropertyStillOnItsWayIsNeitherShownNorAnnounced() async {
        let old = Property(1)
        let new = Property(10)
        let model = Model()
        model.follow(old)
        let witnessed = AsyncStream<Int>.makeStream()
        let witness = old.observe(delivery: .mainActor) { witnessed.continuation.yield($0) }
        onAnotherThreadWhileTheMainThreadWaits { old.value = 2 }
        model.follow(new)
        var arrivals = witnessed.stream.makeAsyncIterator()
        #expect(await arrivals.next() == 2)
        #expect(model.shown.value == 10)
        #expect(model.announcements == [1])   // the switch only
        witness.cancel()
    }

    @Test @MainActor func itKeepsADerivedChainAndReleasingItEndsTheSubscription() {
        let source = Property(1)
        var derived: Property<Int>? = source.map { $0 * 10 }.removingDuplicates()
        weak let releasedChain = derived
        var model: Model? = Model()
        weak let releasedModel = model
        model?.follow(derived)
        derived = nil
        source.value = 2
        #expect(model?.shown.value == 20)
        #expect(releasedChain != nil)
        model = nil
        #expect(releasedModel == nil)   // the closure holds the model weakly
        #expect(releasedChain == nil)
        source.value = 3
        #expect(source.subscriberCount == 0)
    }

    @Test func itMayBeMadeOffTheMainActor() async {
        let made = await Task.detached { PublishedProperty<Int>(default: 7) }.value
        let shown = await MainActor.run { made.value }
        #expect(shown == 7)
    }
}
