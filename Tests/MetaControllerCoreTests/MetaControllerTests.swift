import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

struct MetaControllerTests {
    @Test func newMetaControllerHasNoControllers() {
        let metaController = MetaController()
        #expect(metaController.locationController == nil)
        #expect(metaController.logController == nil)
        #expect(metaController.apiController == nil)
        #expect(metaController.dataController == nil)
        #expect(metaController.notificationController == nil)
        #expect(metaController.userController == nil)
        #expect(metaController.parent == nil)
    }

    @Test func settingEachBuiltInSlotPushesTheMetaController() {
        let metaController = MetaController()
        let location = FakeLocationController()
        let log = FakeLogController()
        let api = FakeApiController()
        let data = FakeDataController()
        let notification = FakeNotificationController()

        metaController.locationController = location
        metaController.logController = log
        metaController.apiController = api
        metaController.dataController = data
        metaController.notificationController = notification

        #expect(location.metaController === metaController)
        #expect(log.metaController === metaController)
        #expect(api.metaController === metaController)
        #expect(data.metaController === metaController)
        #expect(notification.metaController === metaController)
        #expect(metaController.locationController === location)
        #expect(metaController.logController === log)
        #expect(metaController.apiController === api)
        #expect(metaController.dataController === data)
        #expect(metaController.notificationController === notification)
    }

    @Test func settingACustomSlotPushesTheMetaController() {
        let metaController = MetaController()
        let user = TestUserController()
        metaController.userController = user
        #expect(user.metaController === metaController)
        #expect(metaController.userController === user)
        #expect(metaController[UserControllerKey.self] === user)
    }

    @Test func controllersReachEachOtherThroughThePush() {
        let metaController = MetaController()
        let api = FakeApiController()
        metaController.apiController = api
        metaController.logController = FakeLogController()
        // The API controller was set first, yet it reaches the log controller set later.
        #expect(api.logController === metaController.logController)
    }

    @Test func aControllerThatIsNotAConsumerIsStoredWithoutAPush() {
        let metaController = MetaController()
        let api = PlainApiController()
        metaController.apiController = api
        #expect(metaController.apiController === api)
    }

    @Test func aMainActorConsumerSetOffTheMainActorIsPushedWhenSetOnIt() async {
        // Which types are consumers is remembered per type; a conformance
        // isolated to the main actor must still push on the main actor after a
        // set elsewhere found no consumer it could use.
        let metaController = MetaController()
        let screen = await MainActor.run { MainActorSlotScreen() }
        await Task.detached {
            metaController[MainActorSlotScreenKey.self] = screen
        }.value
        await MainActor.run {
            #expect(screen.metaController == nil)
            metaController[MainActorSlotScreenKey.self] = screen
            #expect(screen.metaController === metaController)
        }
    }

    @Test func settingNilEmptiesTheSlot() {
        let metaController = MetaController.withFakes()
        metaController.apiController = nil
        metaController.userController = TestUserController()
        metaController.userController = nil
        #expect(metaController.apiController == nil)
        #expect(metaController.userController == nil)
        #expect(!metaController.contains(.api))
        #expect(!metaController.contains(.custom(UserControllerKey.self)))
    }

    @Test func theSamePushRuleAppliesToAControllerThatAlreadyBelongsToAnother() {
        let first = MetaController.withFakes()
        let second = MetaController()
        let secondLog = FakeLogController()
        second.logController = secondLog
        let api = first.apiController
        second.apiController = api
        // The controller keeps the MetaController it was first put in; the second one warns.
        #expect(first.fakeApiController?.metaController === first)
        #expect(secondLog.diagnostics.count == 1)
        #expect(secondLog.diagnostics.first?.message.contains("FakeApiController already holds a different MetaController") == true)
    }

    @Test func containsReportsEachSlot() {
        let metaController = MetaController()
        #expect(!metaController.contains(.log))
        metaController.logController = FakeLogController()
        #expect(metaController.contains(.log))
        #expect(!metaController.contains(.custom(UserControllerKey.self)))
        metaController.userController = TestUserController()
        #expect(metaController.contains(.custom(UserControllerKey.self)))
    }

    /// On a thread of its own, bounded: a deadlock (a replaced controller released under the
    /// lock its `deinit` needs) fails the test instead of hanging the run. A `.timeLimit` counted
    /// the time the test waited for a thread in a loaded parallel run, and failed it there.
    @Test func aReplacedControllerMayUseTheMetaControllerInItsDeinit() {
        let messages = BoundedCall.run(within: 120, release: {}) { () -> [String]? in
            let metaController = MetaController.withFakes()
            metaController.apiController = FarewellController()
            metaController.apiController = FakeApiController()
            metaController.userController = FarewellController()
            metaController.userController = nil
            metaController.register(ImageCache.self) { _ in ImageCache() }
            return metaController.fakeLogController?.messages
        }
        #expect(messages == .some(["goodbye", "goodbye"]), "the replacements did not end within 120 s, or logged otherwise")
    }

    // MARK: Scoped overrides

    @Test func childOverridesSomeSlotsAndLeavesItsParentUntouched() {
        let production = MetaController.withFakes()
        let productionApi = production.apiController
        let child = MetaController(parent: production)
        let fakeApi = FakeApiController()
        child.apiController = fakeApi

        #expect(child.parent === production)
        #expect(child.apiController === fakeApi)
        #expect(production.apiController === productionApi)
        #expect(child.logController === production.logController)
        #expect(child.locationController === production.locationController)
        #expect(child.dataController === production.dataController)
        #expect(child.notificationController === production.notificationController)
        // The override receives the child; the parent's controllers keep the parent.
        #expect(fakeApi.metaController === child)
        #expect(production.fakeLogController?.metaController === production)
    }

    @Test func clearingAChildSlotShowsTheParentsAgain() {
        let parent = MetaController.withFakes()
        let child = MetaController(parent: parent)
        child.apiController = FakeApiController()
        child.apiController = nil
        #expect(child.apiController === parent.apiController)
    }

    @Test func childFallsBackForCustomSlotsAndContains() {
        let parent = MetaController()
        let user = TestUserController(userName: "parent")
        parent.userController = user
        let child = MetaController(parent: parent)
        #expect(child.userController === user)
        #expect(child.contains(.custom(UserControllerKey.self)))
        #expect(!child.contains(.api))

        let override = TestUserController(userName: "child")
        child.userController = override
        #expect(child.userController?.userName == "child")
        #expect(parent.userController?.userName == "parent")
    }

    @Test func grandchildFallsBackThroughEveryAncestor() {
        let root = MetaController.withFakes()
        let middle = MetaController(parent: root)
        let leaf = MetaController(parent: middle)
        #expect(leaf.logController === root.logController)
        let api = FakeApiController()
        middle.apiController = api
        #expect(leaf.apiController === api)
        #expect(root.apiController !== api)
    }

    @Test func consumerOfAChildReadsTheOverride() {
        let production = MetaController.withFakes()
        let child = MetaController(parent: production)
        let fakeApi = FakeApiController()
        child.apiController = fakeApi
        let screen = Screen()
        child.passMetaController(to: screen)
        #expect(screen.apiController === fakeApi)
        #expect(screen.logController === production.logController)
    }

    // MARK: - A long chain of children, read on a 512 KB stack

    /// What a read at the end of a long chain of children finds, from the root.
    private struct DeepChainReads: Sendable {
        var log = false, user = false, made = false, madeNamed = false, shared = false, sharedObject = false
        var contains = false, lacks = false, missing: [String] = []
    }

    @Test func aChainOfAHundredThousandChildrenIsReadWithoutRecursion() {
        // The chain is built and let go of on a thread with a large stack, and
        // read on one with 512 KB: before the reads were loops, each level of
        // the chain was a stack frame or more, and the read crashed past a few
        // thousand levels.
        let reads = onThread(stackBytes: 1 << 30) { () -> DeepChainReads in
            let root = MetaController()
            let log = FakeLogController()
            let user = TestUserController(userName: "root user")
            root.logController = log
            root[UserControllerKey.self] = user
            root.register(Screen.self) { _ in Screen("made") }
            root.register(Screen.self, name: "named") { _ in Screen("named") }
            root.registerShared(SharedBox.self) { _ in SharedBox() }
            root.registerShared(Int.self) { _ in 42 }
            var leaf = root
            for _ in 0..<100_000 { leaf = MetaController(parent: leaf) }
            let deepest = leaf
            return onThread(stackBytes: 512 * 1024) {
                var reads = DeepChainReads()
                reads.log = deepest.logController === log
                reads.user = deepest[UserControllerKey.self] === user
                reads.made = (try? deepest.make(Screen.self))?.name == "made"
                reads.madeNamed = (try? deepest.make(Screen.self, name: "named"))?.name == "named"
                reads.sharedObject = (try? deepest.make(SharedBox.self)) != nil
                reads.shared = (try? deepest.make(Int.self)) == 42
                reads.contains = deepest.contains(.custom(UserControllerKey.self))
                reads.lacks = !deepest.contains(.api)
                let audit = deepest.audit(ProfileScreen())
                reads.missing = audit.consumers.flatMap { $0.missingControllers.map(\.name) }
                return reads
            }
        }
        #expect(reads.log)
        #expect(reads.user)
        #expect(reads.made)
        #expect(reads.madeNamed)
        #expect(reads.sharedObject)
        #expect(reads.shared)
        #expect(reads.contains)
        #expect(reads.lacks)
        #expect(reads.missing == [])
    }
}

/// A shared product that is an object.
private final class SharedBox: Sendable {}

/// A controller whose deinit uses the MetaController it was in.
private final class FarewellController: ApiController, UserController, MetaControllerConsumer {
    let userName = "farewell"
    private let reference = WeakMetaControllerReference()
    var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }
    func send(_ request: ApiRequest) async throws(ApiError) -> ApiResponse { ApiResponse(request: request) }
    deinit {
        metaController?.logController?.log(
            LogEntry(level: .info, message: "goodbye", file: #fileID, function: #function, line: #line))
    }
}

@MainActor
final class MainActorSlotScreen: @MainActor MetaControllerConsumer, Sendable {
    var metaController: MetaController?
}

enum MainActorSlotScreenKey: MetaControllerKey {
    typealias Value = MainActorSlotScreen
}
