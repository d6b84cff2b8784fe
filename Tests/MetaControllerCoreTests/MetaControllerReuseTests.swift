import MetaController
@testable import MetaControllerCore
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// An object reused from one scope to the next, such as a pooled request handler.
extension MetaControllerPassingTests {
    @Test func aReusedObjectKeepsTheFirstScopeAndTheWarningSaysItLooksReused() throws {
        let app = MetaController()
        let log = FakeLogController()
        app.logController = log
        let handler = Screen("pooled")
        let first = MetaController(parent: app)
        first.passMetaController(to: handler)
        let second = MetaController(parent: app)
        second.passMetaController(to: handler)
        #expect(handler.metaController === first)
        #expect(
            log.diagnostics.map(\.message) == [
                "Screen already holds the MetaController of another scope and keeps it; "
                    + "an object reused across scopes (a pooled handler, say) needs replacingExisting: true to take this one"
            ])
    }

    @Test func replacingExistingReScopesAReusedObject() {
        let app = MetaController()
        let log = FakeLogController()
        app.logController = log
        let handler = Screen("pooled")
        for _ in 0..<3 {
            let request = MetaController(parent: app, signals: Signals())
            request.passMetaController(to: handler, replacingExisting: true)
            #expect(handler.metaController === request)
        }
        #expect(log.diagnostics.isEmpty)
    }

    @Test func aScopeOfThePasserIsNotAForeignScope() {
        let app = MetaController()
        let child = MetaController(parent: app)
        let grandchild = MetaController(parent: child)
        #expect(grandchild.isScope(of: app))
        #expect(grandchild.isScope(of: child))
        #expect(app.isScope(of: app))
        #expect(!app.isScope(of: child))
        #expect(!MetaController(parent: app).isScope(of: child))
        #expect(!MetaController().isScope(of: app))
    }
}
