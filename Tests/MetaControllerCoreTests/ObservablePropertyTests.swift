import Foundation
import MetaController
@testable import MetaControllerCore
import MetaControllerTesting
import Observation
import Testing
import MetaControllerTestSupport

/// The Observation bridge: reading `value` under `withObservationTracking`
/// observes the followed property's changes, and only those.
/// (Each test needs Observation; Swift Testing takes `@available` on a test, not on a suite.)
@Suite struct ObservablePropertyTests {
    /// Counts the changes observation reported for one read of `observed.value`.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor
    func track(_ observed: ObservableProperty<Int>) -> Inbox<Int> {
        let fired = Inbox<Int>()
        withObservationTracking {
            _ = observed.value
        } onChange: {
            fired.record(1)
        }
        return fired
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test @MainActor func itShowsTheFollowedPropertysValue() {
        let property = Property(3)
        #expect(ObservableProperty(property).value == 3)
        #expect(ObservableProperty<Int>(default: -1).value == -1)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test @MainActor func aSetOnTheMainActorNotifiesObserversBeforeItReturns() {
        let property = Property(1)
        let observed = ObservableProperty(property)
        let fired = track(observed)
        property.value = 2
        #expect(fired.values.count == 1)
        #expect(observed.value == 2)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test @MainActor func aSetOnAnotherThreadNotifiesObserversOnTheMainActor() async {
        let property = Property(1)
        let observed = ObservableProperty(property)
        let onMainActor = await withCheckedContinuation { continuation in
            withObservationTracking {
                _ = observed.value
            } onChange: {
                continuation.resume(returning: MainActorContext.isCurrent(nil))
            }
            Thread { property.value = 2 }.start()
        }
        #expect(onMainActor)
        #expect(observed.value == 2)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test @MainActor func followingAnotherPropertyStopsChangesFromTheOldOne() {
        let old = Property(1)
        let new = Property(10)
        let observed = ObservableProperty(old)
        observed.follow(new)
        #expect(observed.value == 10)   // shown at once, silently
        let fired = track(observed)
        old.value = 2
        #expect(fired.values.isEmpty)
        #expect(observed.value == 10)
        #expect(old.subscriberCount == 0)
        new.value = 11
        #expect(fired.values.count == 1)
        #expect(observed.value == 11)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    /// A view that shows the old property's value hears of the switch, once; following the
    /// same instance again, or nil twice, is no change.
    @Test @MainActor func followingAnotherPropertyNotifiesObserversOnce() {
        let observed = ObservableProperty<Int>(default: -1)
        let first = track(observed)
        let four = Property(4)
        observed.follow(four)
        #expect(observed.value == 4)
        #expect(first.values.count == 1)
        let second = track(observed)
        observed.follow(four)
        #expect(second.values.isEmpty)
        observed.follow(nil)
        #expect(observed.value == -1)
        #expect(second.values.count == 1)
        let third = track(observed)
        observed.follow(nil)
        #expect(third.values.isEmpty)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test @MainActor func followingTheSameInstanceDoesNothing() async {
        let property = Property(1)
        let observed = ObservableProperty(property)
        let fired = track(observed)
        // A witness subscribed after the bridge: its hop is queued after the bridge's.
        let witnessed = AsyncStream<Int>.makeStream()
        let witness = property.observe(delivery: .mainActor) { witnessed.continuation.yield($0) }
        // A value waits for the main actor; following anew would show it at once, silently.
        onAnotherThreadWhileTheMainThreadWaits { property.value = 2 }
        observed.follow(property)
        #expect(observed.value == 1)
        #expect(property.subscriberCount == 2)
        var arrivals = witnessed.stream.makeAsyncIterator()
        #expect(await arrivals.next() == 2)   // both hops have run
        #expect(fired.values.count == 1)   // the waiting value arrived as a change
        #expect(observed.value == 2)
        witness.cancel()
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test @MainActor func itKeepsADerivedSourceAlive() {
        let source = Property(1)
        var derived: Property<Int>? = source.map { $0 * 10 }.removingDuplicates()
        weak let released = derived
        let observed = ObservableProperty<Int>(default: 0)
        observed.follow(derived)
        derived = nil
        #expect(released != nil)
        let fired = track(observed)
        source.value = 2
        #expect(fired.values.count == 1)
        #expect(observed.value == 20)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test @MainActor func releasingItLetsGoOfTheSubscription() {
        let property = Property(1)
        var observed: ObservableProperty<Int>? = ObservableProperty(property)
        weak let released = observed
        #expect(property.subscriberCount == 1)
        observed = nil
        #expect(released == nil)
        property.value = 2
        #expect(property.subscriberCount == 0)
    }

    /// The model of the docs: made off the main actor, following once it has its MetaController.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func itCanBeMadeOffTheMainActor() async {
        let observed = await Task.detached { ObservableProperty<Int>(default: 8) }.value
        await MainActor.run { #expect(observed.value == 8) }
    }
}

// MARK: - The SwiftUI article's @Observable model, as a user writes it

protocol ArticleFavoritesController: AnyObject, Sendable {
    var favorites: Property<Set<Int>> { get }
}
final class ArticleFavorites: ArticleFavoritesController {
    let favorites = Property<Set<Int>>([])
}
enum ArticleFavoritesKey: MetaControllerKey {
    typealias Value = any ArticleFavoritesController
}
extension MetaControllerReader {
    var articleFavorites: (any ArticleFavoritesController)? { self[ArticleFavoritesKey.self] }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
final class ArticleFeedModel: @MainActor MetaControllerConsumer {
    @ObservationIgnored var metaController: MetaController?
    @ObservationIgnored var arrivals = 0
    let favorites = ObservableProperty<Set<Int>>(default: [])

    func metaControllerDidArrive() {
        arrivals += 1
        favorites.follow(articleFavorites?.favorites)
    }
}

extension ObservablePropertyTests {
    /// Docs/SwiftUI.md: the model follows the controller's property from
    /// `metaControllerDidArrive()`, which the view's wrapper calls once, before the first body;
    /// a change made on the main actor is observed before the update returns.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test @MainActor func theArticlesModelFollowsAControllersPropertyOnceItsMetaControllerArrives() {
        let metaController = MetaController.strict { Issue.record("\($0)") }
        let controller = ArticleFavorites()
        metaController[ArticleFavoritesKey.self] = controller
        let model = ArticleFeedModel()
        MetaControllerHandOver.handOver(metaController, to: model)   // the wrapper's first update
        MetaControllerHandOver.handOver(metaController, to: model)   // and the next render's
        #expect(model.arrivals == 1)

        let fired = Inbox<Int>()
        withObservationTracking {
            _ = model.favorites.value
        } onChange: {
            fired.record(1)
        }
        metaController.articleFavorites?.favorites.update { $0.insert(7) }
        #expect(fired.values.count == 1)
        #expect(model.favorites.value == [7])
    }
}
