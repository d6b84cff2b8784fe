import Dispatch
import MetaController
@testable import MetaControllerCore
import MetaControllerTesting
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

@MainActor
final class MainActorScreen: @MainActor MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.log]
    var metaController: MetaController?
    var title = "Main"

    func appear() { infoLog("\(title) appeared") }
}

/// A model that counts the arrivals of its MetaController and, on each, reads a slot and subscribes.
final class ArrivalCounter: MetaControllerConsumer {
    var metaController: MetaController?
    var arrivals: [MetaController?] = []
    var apiAtArrival: [Bool] = []

    func metaControllerDidArrive() {
        arrivals.append(metaController)
        apiAtArrival.append(apiController != nil)
    }
}

struct MetaControllerConsumerTests {
    @Test func accessorsReadTheMetaControllersSlots() {
        let metaController = MetaController.withFakes()
        let user = TestUserController()
        metaController.userController = user
        let screen = Screen()
        screen.metaController = metaController
        #expect(screen.locationController === metaController.locationController)
        #expect(screen.logController === metaController.logController)
        #expect(screen.apiController === metaController.apiController)
        #expect(screen.dataController === metaController.dataController)
        #expect(screen.notificationController === metaController.notificationController)
        #expect(screen.userController === user)
    }

    @Test func accessorsAreNilWithoutAMetaControllerOrController() {
        let screen = Screen()
        #expect(screen.apiController == nil)
        #expect(screen.logController == nil)
        #expect(screen.userController == nil)
        screen.metaController = MetaController()
        #expect(screen.apiController == nil)
        #expect(screen.locationController == nil)
    }

    @Test func subscriptReadsACustomSlotSetThroughTheMetaControllersSubscript() {
        let metaController = MetaController()
        let screen = Screen()
        #expect(screen[RetryCountKey.self] == nil)
        screen.metaController = metaController
        #expect(screen[RetryCountKey.self] == nil)
        metaController[RetryCountKey.self] = 3
        #expect(screen[RetryCountKey.self] == 3)
        let user = TestUserController()
        metaController[UserControllerKey.self] = user
        #expect(screen.userController === user)
        #expect(user.metaController === metaController)
    }

    @Test func subscriptFallsBackToTheParentAndSeesTheChildsOverride() {
        let parent = MetaController()
        parent[RetryCountKey.self] = 3
        let child = MetaController(parent: parent)
        let screen = Screen()
        screen.metaController = child
        #expect(screen[RetryCountKey.self] == 3)
        child[RetryCountKey.self] = 5
        #expect(screen[RetryCountKey.self] == 5)
        child[RetryCountKey.self] = nil
        #expect(screen[RetryCountKey.self] == 3)
    }

    @Test func debugLogWritesTheExactLineWithTheCallersFileFunctionAndLine() throws {
        let metaController = MetaController.withFakes()
        let updater = LocationUpdater()
        updater.metaController = metaController
        updater.updateLocation()
        let entry = try #require(metaController.fakeLogController?.entries.first)
        #expect(entry.level == .debug)
        #expect(entry.file == "MetaControllerTestSupport/TestConsumers.swift")
        #expect(entry.description == "TestConsumers.swift (line \(updater.lastLine)): updateLocation(): Bazinga!")
    }

    @Test func eachShortcutLogsAtItsLevel() throws {
        let metaController = MetaController.withFakes()
        let screen = Screen()
        screen.metaController = metaController
        screen.debugLog("d")
        screen.infoLog("i")
        screen.warningLog("w")
        let line: UInt = #line; screen.errorLog("e")
        let entries = try #require(metaController.fakeLogController?.entries)
        #expect(entries.map(\.level) == [.debug, .info, .warning, .error])
        #expect(entries.map(\.message) == ["d", "i", "w", "e"])
        #expect(entries.last?.line == line)
        #expect(entries.last?.function == "eachShortcutLogsAtItsLevel()")
        #expect(entries.last?.fileName == "MetaControllerConsumerTests.swift")
    }

    @Test func messageIsNotEvaluatedWhenNothingWillLogIt() {
        let evaluations = Counter()
        func message() -> LogMessage {
            evaluations.increment()
            return "expensive"
        }
        let screen = Screen()
        screen.debugLog(message())   // no MetaController
        screen.metaController = MetaController()
        screen.debugLog(message())   // no log controller
        let metaController = MetaController.withFakes()
        metaController.fakeLogController?.minimumLevel = .warning
        screen.metaController = metaController
        screen.debugLog(message())   // level not kept
        screen.infoLog(message())
        #expect(evaluations.value == 0)
        screen.warningLog(message())
        #expect(evaluations.value == 1)
        #expect(metaController.fakeLogController?.messages == ["expensive"])
    }

    @Test func consumerPassesItsOwnMetaControllerOn() {
        let metaController = MetaController.withFakes()
        let parent = Screen("parent")
        let child = Screen("child")
        parent.passMetaController(to: child)   // parent has none yet: nothing happens
        #expect(child.metaController == nil)
        parent.metaController = metaController
        parent.passMetaController(to: child)
        parent.passMetaController(to: nil)
        parent.passMetaController(to: PlainObject())
        #expect(child.metaController === metaController)
    }

    @Test @MainActor func aMainActorScreenIsAConsumer() {
        let metaController = MetaController.withFakes()
        let screen = MainActorScreen()
        metaController.passMetaController(to: screen)
        #expect(screen.metaController === metaController)
        screen.appear()
        #expect(metaController.fakeLogController?.messages == ["Main appeared"])
        #expect(metaController.audit(screen).isSatisfied)
    }

    @Test func aPlainClassIsAConsumerInABackgroundTask() async {
        let metaController = MetaController.withFakes()
        let reached = await Task.detached {
            final class Worker: MetaControllerConsumer {
                var metaController: MetaController?
                func run() -> Bool {
                    infoLog("working")
                    return apiController != nil
                }
            }
            let worker = Worker()
            metaController.passMetaController(to: worker)
            return worker.run()
        }.value
        #expect(reached)
        #expect(metaController.fakeLogController?.messages == ["working"])
    }

    @Test func requiredControllersDefaultsToNone() {
        #expect(Screen.requiredControllers.isEmpty)
        #expect(SettingsScreen.requiredControllers == [.api, .notification])
    }

    // MARK: - metaControllerDidArrive()

    @Test func theHookRunsOnceWhenAPassGivesAMetaControllerAndSeesItsSlots() {
        let metaController = MetaController.withFakes()
        let model = ArrivalCounter()
        metaController.passMetaController(to: model)
        metaController.passMetaController(to: model)   // the same one again: no second call
        metaController.passMetaController(to: Stack([model]))
        #expect(model.arrivals.count == 1)
        #expect(model.arrivals.first! === metaController)   // set before the hook runs
        #expect(model.apiAtArrival == [true])
    }

    @Test func aRefusedPassDoesNotCallTheHookAndAReplacingOneDoes() {
        let first = MetaController()
        let second = MetaController()
        let model = ArrivalCounter()
        first.passMetaController(to: model)
        second.passMetaController(to: model)   // refused: the model keeps the first
        #expect(model.arrivals.count == 1)
        second.passMetaController(to: model, replacingExisting: true)
        #expect(model.arrivals.count == 2)
        #expect(model.arrivals.last! === second)
    }

    @Test func thePushOnSetCallsTheHookOfAController() {
        let metaController = MetaController()
        let controller = ArrivingApiController()
        metaController.apiController = controller
        metaController.apiController = controller   // set again: it holds this MetaController already
        #expect(controller.arrivals.withLock { $0 } == 1)
    }

    @Test func aConsumerThatDoesNotImplementTheHookIsPassedAsBefore() {
        let metaController = MetaController()
        let screen = Screen()
        screen.metaControllerDidArrive()   // the default does nothing
        metaController.passMetaController(to: screen)
        #expect(screen.metaController === metaController)
    }

    /// The hook runs outside the MetaController's lock: it may read slots (above), pass the
    /// MetaController on and subscribe, without deadlock.
    @Test func theHookMayPassOnAndSubscribe() {
        final class Parent: MetaControllerConsumer {
            var metaController: MetaController?
            let child = Screen()
            var token: SubscriptionToken?
            let heard = Inbox<Int>()
            let count = Property(0)
            func metaControllerDidArrive() {
                passMetaController(to: child)
                let heard = heard
                token = count.observe(replay: true) { heard.record($0) }
            }
        }
        let metaController = MetaController()
        let parent = Parent()
        metaController.passMetaController(to: parent)
        #expect(parent.child.metaController === metaController)
        parent.count.value = 1
        #expect(parent.heard.values == [0, 1])
    }

    /// Four threads pass one MetaController to one `Sendable` controller at once. The first is
    /// held after it found the controller holding nothing and before it sets it, until the
    /// three others have either waited for it or finished: the controller receives the
    /// MetaController once and its hook runs once, every run.
    @Test func theHookRunsOnceWhenThreadsPassAtOnce() {
        let metaController = MetaController()
        let controller = ArrivingApiController()
        let race = HeldDelivery()
        DeliveryClaims.watching(controller, with: race.seams) {
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { metaController.passMetaController(to: controller) }
            race.reached.wait()
            for _ in 0..<3 {
                DispatchQueue.global().async(group: group) {
                    metaController.passMetaController(to: controller)
                    race.others.signal()
                }
            }
            for _ in 0..<3 { race.others.wait() }   // each waited for the first, or finished
            race.held.signal()
            group.wait()
        }
        #expect(controller.arrivals.withLock { $0 } == 1)
        #expect(controller.metaController === metaController)
    }

    /// Two threads pass two different MetaControllers to one controller at once: the write-once
    /// rule holds across threads. The one that got there first keeps it, the other pass is
    /// refused with a warning, and the hook runs once.
    @Test func ofTwoMetaControllersPassedAtOnceTheFirstIsKept() {
        let first = MetaController.withFakes()
        let second = MetaController.withFakes()
        let controller = ArrivingApiController()
        let race = HeldDelivery()
        DeliveryClaims.watching(controller, with: race.seams) {
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { first.passMetaController(to: controller) }
            race.reached.wait()
            DispatchQueue.global().async(group: group) {
                second.passMetaController(to: controller)
                race.others.signal()
            }
            race.others.wait()
            race.held.signal()
            group.wait()
        }
        #expect(controller.arrivals.withLock { $0 } == 1)
        #expect(controller.metaController === first)
        let warnings = (second.logController as? FakeLogController)?.diagnostics.map(\.message) ?? []
        #expect(warnings.contains { $0.contains("already holds") }, "\(warnings)")
    }

    /// Without a hold: eight threads pass one MetaController to a fresh controller, 200 times.
    @Test func theHookRunsOnceWhateverTheThreads() {
        for _ in 0..<200 {
            let metaController = MetaController()
            let controller = ArrivingApiController()
            DispatchQueue.concurrentPerform(iterations: 8) { _ in metaController.passMetaController(to: controller) }
            #expect(controller.arrivals.withLock { $0 } == 1)
        }
    }

    @Test @MainActor func aMainActorModelsHookRunsOnTheMainActor() {
        @MainActor final class Model: @MainActor MetaControllerConsumer {
            var metaController: MetaController?
            var calls = 0
            func metaControllerDidArrive() {
                MainActor.assertIsolated()
                calls += 1
            }
        }
        let model = Model()
        MetaController().passMetaController(to: model)
        #expect(model.calls == 1)
    }
}

/// Holds the first delivery to a watched consumer between finding that it holds another (or none) and setting it.
final class HeldDelivery: Sendable {
    /// The first delivery reached its hold.
    let reached = DispatchSemaphore(value: 0)
    /// Lets the first delivery go on.
    let held = DispatchSemaphore(value: 0)
    /// Signalled by each other delivery when it waits for the first (and by the test when one finishes).
    let others = DispatchSemaphore(value: 0)
    private let first = Lock(true)

    var seams: DeliveryClaims.Seams {
        DeliveryClaims.Seams(
            claimed: { [self] in
                guard
                    first.withLock({ isFirst in
                        defer { isFirst = false }; return isFirst
                    })
                else { return }
                reached.signal()
                held.wait()
            },
            waiting: { [self] in others.signal() })
    }
}

/// An API controller that counts the arrivals of its MetaController.
final class ArrivingApiController: ApiController, MetaControllerConsumer {
    let arrivals = Lock(0)
    private let reference = WeakMetaControllerReference()
    var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }
    func metaControllerDidArrive() { arrivals.withLock { $0 += 1 } }
    func send(_ request: ApiRequest) async throws(ApiError) -> ApiResponse { ApiResponse(request: request) }
}

// MARK: - Docs/SwiftUI.md, "App-wide listeners", as the article writes it

enum ShareSignals {
    static let itemShared = Signal<Int>("itemShared")
}

final class ShareHistoryController: MetaControllerConsumer, Sendable {
    let shareCount = Property(0)
    private let reference = WeakMetaControllerReference()

    var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    func metaControllerDidArrive() {
        try? signals?.add(self, to: ShareSignals.itemShared) { controller, _ in
            controller.shareCount.update { $0 += 1 }
        }
    }
}

enum ShareHistoryKey: MetaControllerKey {
    typealias Value = ShareHistoryController
}

extension MetaControllerReader {
    var shareHistory: ShareHistoryController? { self[ShareHistoryKey.self] }
}

extension MetaControllerConsumerTests {
    /// A controller put in a slot at launch starts listening in its hook (the push on set calls
    /// it), so it hears what is dispatched before any screen exists; a view reads what it
    /// keeps through a key path on the MetaController.
    @Test func anAppWideListenerSetInASlotHearsEveryDispatch() throws {
        let metaController = MetaController()
        metaController[ShareHistoryKey.self] = ShareHistoryController()
        metaController.signals.dispatch(ShareSignals.itemShared, 1)
        metaController.signals.dispatch(ShareSignals.itemShared, 2)
        #expect(metaController.shareHistory?.shareCount.value == 2)
        metaController[ShareHistoryKey.self] = metaController.shareHistory   // set again: no second listener
        metaController.signals.dispatch(ShareSignals.itemShared, 3)
        #expect(metaController.shareHistory?.shareCount.value == 3)
        let keyPath: KeyPath<MetaController, Property<Int>?> = \.shareHistory?.shareCount
        #expect(metaController[keyPath: keyPath] === metaController.shareHistory?.shareCount)
    }
}
