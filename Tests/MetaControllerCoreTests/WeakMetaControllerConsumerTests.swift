import MetaController
import Testing
import MetaControllerTestSupport

/// A controller that holds its MetaController in one line, as the docs show.
private final class OneLineController: WeakMetaControllerConsumer, Sendable {
    static let requiredControllers: [MetaControllerSlot] = [.custom(OneLineKey.self)]
    let metaControllerReference = WeakMetaControllerReference()
    let arrivals = Inbox<Bool>()
    func metaControllerDidArrive() { arrivals.record(metaController != nil) }
}

private enum OneLineKey: MetaControllerKey { typealias Value = OneLineController }

struct WeakMetaControllerConsumerTests {
    @Test func theSlotsPushHandsItTheMetaControllerAndRunsTheHookOnce() {
        let metaController = MetaController()
        let controller = OneLineController()
        metaController[OneLineKey.self] = controller
        #expect(controller.metaController === metaController)
        #expect(controller.metaControllerReference.metaController === metaController)
        #expect(controller.arrivals.values == [true])
        metaController.passMetaController(to: controller)
        #expect(controller.arrivals.values == [true])
    }

    @Test func itHoldsTheMetaControllerWeakly() {
        var metaController: MetaController? = MetaController()
        weak let released = metaController
        let controller = OneLineController()
        metaController?[OneLineKey.self] = controller
        metaController = nil
        #expect(released == nil)   // the controller did not keep it alive
        #expect(controller.metaController == nil)
    }

    @Test func itReadsTheControllersAndIsCheckedLikeAnyConsumer() {
        let metaController = MetaController()
        let controller = OneLineController()
        #expect(!metaController.audit(controller).isSatisfied)
        metaController[OneLineKey.self] = controller
        #expect(controller[OneLineKey.self] === controller)
        #expect(metaController.audit(controller).isSatisfied)
    }

    @Test func settingItFromManyTasksAtOnceIsSafe() async {
        let controller = OneLineController()
        let metaController = MetaController()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<500 {
                        if (i + task) % 2 == 0 {
                            controller.metaController = metaController
                        } else {
                            _ = controller.metaController
                        }
                    }
                }
            }
        }
        #expect(controller.metaController === metaController)
    }
}
