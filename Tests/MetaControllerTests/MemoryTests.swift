import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// Tearing down an app graph frees every part of it: no retain cycle between
/// a MetaController, its controllers and its consumers.
struct MemoryTests {
    private struct Graph {
        weak var metaController: MetaController?
        weak var child: MetaController?
        weak var log: FakeLogController?
        weak var location: FakeLocationController?
        weak var api: FakeApiController?
        weak var data: FakeDataController?
        weak var notification: FakeNotificationController?
        weak var user: TestUserController?
        weak var root: TabsScreen?
        weak var detail: Screen?
        weak var made: DetailScreen?
        weak var shared: ImageCache?

        var everythingIsGone: Bool {
            metaController == nil && child == nil && log == nil && location == nil && api == nil
                && data == nil && notification == nil && user == nil && root == nil && detail == nil
                && made == nil && shared == nil
        }
    }

    private func buildAndUseGraph() throws -> Graph {
        let metaController = MetaController.withFakes()
        let user = TestUserController()
        metaController.userController = user
        metaController.registerShared(ImageCache.self) { _ in ImageCache() }
        metaController.register(DetailScreen.self) { _ in DetailScreen() }
        let child = MetaController(parent: metaController)
        child.apiController = FakeApiController()
        let detail = Screen("detail")
        let root = TabsScreen([Stack([detail])])
        metaController.passMetaController(to: root)
        root.infoLog("launched")
        let made = try child.make(DetailScreen.self)
        let shared = try metaController.make(ImageCache.self)
        #expect(detail.apiController != nil)
        return Graph(
            metaController: metaController, child: child,
            log: metaController.fakeLogController, location: metaController.fakeLocationController,
            api: metaController.fakeApiController, data: metaController.fakeDataController,
            notification: metaController.fakeNotificationController, user: user,
            root: root, detail: detail, made: made, shared: shared)
    }

    @Test func droppingTheMetaControllerAndItsConsumersFreesEveryController() throws {
        let graph = try buildAndUseGraph()
        #expect(graph.everythingIsGone)
    }

    @Test func controllersDoNotKeepTheMetaControllerAlive() {
        weak var weakMetaController: MetaController?
        let log = FakeLogController()
        do {
            let metaController = MetaController()
            metaController.logController = log
            weakMetaController = metaController
            #expect(log.metaController === metaController)
        }
        #expect(weakMetaController == nil)
        #expect(log.metaController == nil)
    }

    @Test func aConsumerKeepsItsMetaControllerAndControllersAlive() {
        let screen = Screen()
        weak var weakLog: FakeLogController?
        do {
            let metaController = MetaController.withFakes()
            weakLog = metaController.fakeLogController
            metaController.passMetaController(to: screen)
        }
        #expect(weakLog != nil)
        screen.infoLog("still here")
        #expect(weakLog?.messages == ["still here"])
        screen.metaController = nil
        #expect(weakLog == nil)
    }
}
