import MetaController
import Testing
import MetaControllerTestSupport

struct WeakMetaControllerReferenceTests {
    @Test func holdsTheMetaControllerWeakly() {
        let reference = WeakMetaControllerReference()
        #expect(reference.metaController == nil)
        var metaController: MetaController? = MetaController()
        reference.metaController = metaController
        #expect(reference.metaController === metaController)
        metaController = nil
        #expect(reference.metaController == nil)
    }

    @Test func isSafeToUseFromManyTasks() async {
        let reference = WeakMetaControllerReference()
        let metaController = MetaController()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<500 {
                        if (i + task) % 2 == 0 {
                            reference.metaController = metaController
                        } else {
                            _ = reference.metaController
                        }
                    }
                }
            }
        }
        #expect(reference.metaController === metaController)
    }
}
