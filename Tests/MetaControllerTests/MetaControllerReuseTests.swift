@testable import MetaController
import MetaControllerTesting
import Testing

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

extension MetaControllerStrictTests {
    @Test func aStrictMetaControllerReportsAPassThatAReusedObjectRefused() throws {
        let reports = Inbox<any StrictReport>()
        let app = MetaController.strict(reporting: reports.record)
        let handler = Screen("pooled")
        MetaController(parent: app).passMetaController(to: handler)
        let line: UInt = #line; MetaController(parent: app).passMetaController(to: handler)
        let refused = try #require(reports.values.first as? RefusedPass)
        #expect(reports.values.count == 1)
        #expect(refused == RefusedPass(consumer: "Screen", file: #fileID, line: line))
        #expect(
            refused.description
                == "Screen kept the MetaController of another scope when passed one at MetaControllerReuseTests.swift (line \(line)); "
                + "pass replacingExisting: true to re-scope a reused object")
    }

    @Test func aStrictMetaControllerDoesNotReportAKeptScopedOverrideOrAReplacement() {
        let reports = Inbox<any StrictReport>()
        let app = MetaController.strict(reporting: reports.record)
        app.logController = FakeLogController()
        // A subtree given a scoped override keeps it when the app passes again: by design.
        let subtree = Screen("subtree")
        MetaController(parent: app).passMetaController(to: subtree)
        app.passMetaController(to: subtree)
        // Re-scoping on purpose.
        MetaController(parent: app).passMetaController(to: subtree, replacingExisting: true)
        // A push on set of a controller that belongs to another MetaController only warns.
        let store = FakeDataController()
        app.dataController = store
        MetaController(parent: app).dataController = store
        #expect(reports.values.isEmpty)
    }
}
