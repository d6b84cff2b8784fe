import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// Many tasks reading and setting slots, passing MetaControllers down trees
/// and making products at once. Run under the thread sanitizer in CI.
struct ConcurrencyTests {
    @Test func metaControllerIsSendable() async {
        let metaController = MetaController.withFakes()
        let api = await Task.detached { metaController.apiController }.value
        #expect(api === metaController.apiController)
    }

    @Test func concurrentReadsAndWritesOfEverySlot() async {
        let metaController = MetaController()
        let child = MetaController(parent: metaController)
        let user = TestUserController()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<300 {
                        switch (task + i) % 6 {
                        case 0: metaController.logController = FakeLogController()
                        case 1: metaController.apiController = FakeApiController()
                        case 2: child.locationController = FakeLocationController()
                        case 3: metaController.userController = user
                        case 4: metaController.dataController = i % 2 == 0 ? FakeDataController() : nil
                        default: metaController.notificationController = FakeNotificationController()
                        }
                        _ = child.logController
                        _ = child.apiController
                        _ = child.userController
                        _ = child.contains(.data)
                        let screen = Screen()
                        screen.metaController = child
                        screen.debugLog("task \(task) step \(i)")
                    }
                }
            }
        }
        #expect(metaController.logController != nil)
        #expect(metaController.apiController != nil)
        #expect(child.locationController != nil)
        #expect(metaController.userController === user)
        #expect(metaController.notificationController != nil)
    }

    @Test func concurrentPassingDownTrees() async {
        let metaController = MetaController.withFakes()
        let reached = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let leaves = (0..<50).map { Screen("\($0)") }
                    let root = TabsScreen([Stack(Array(leaves[..<25])), Stack(Array(leaves[25...]))])
                    metaController.passMetaController(to: root)
                    #expect(metaController.audit(root).consumers.count == 51)
                    return leaves.filter { $0.metaController === metaController }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(reached == 400)
    }

    @Test func concurrentRegistrationAndMaking() async {
        let metaController = MetaController()
        metaController.register(DetailScreen.self) { _ in DetailScreen() }
        let failures = Counter()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<200 {
                        if (task + i) % 10 == 0 {
                            metaController.register(DetailScreen.self, name: "\(task)") { _ in DetailScreen() }
                        }
                        if (try? metaController.make(DetailScreen.self)) == nil { failures.increment() }
                    }
                }
            }
        }
        #expect(failures.value == 0)
        #expect(throws: Never.self) { try metaController.make(DetailScreen.self, name: "3") }
    }

    @Test func concurrentSharedRegistrationsAndRequests() async {
        // Threads register the shared factory again, make it here and make it through a
        // child, at once: every request gets a product one of the registrations made, and
        // after the last registration every request gets the same product.
        let metaController = MetaController()
        let child = MetaController(parent: metaController)
        metaController.registerShared(ImageCache.self) { _ in ImageCache() }
        let failures = Counter()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<200 {
                        if (task + i) % 25 == 0 { metaController.registerShared(ImageCache.self) { _ in ImageCache() } }
                        let requester = i.isMultiple(of: 2) ? metaController : child
                        if (try? requester.make(ImageCache.self)) == nil { failures.increment() }
                    }
                }
            }
        }
        #expect(failures.value == 0)
        let last = try? metaController.make(ImageCache.self)
        #expect(last != nil)
        #expect((try? child.make(ImageCache.self)) === last)
    }
}
