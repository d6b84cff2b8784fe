import MetaController
@testable import MetaControllerCore
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// A view model as a SwiftUI view owns one: main-actor, with an isolated conformance.
@MainActor
final class HandOverModel: @MainActor MetaControllerConsumer, @MainActor MetaControllerContainer {
    var metaController: MetaController?
    let row = MessageRow(text: "row")
    var metaControllerChildren: [AnyObject] { [row] }
}

/// What a SwiftUI wrapper does in `update()`: the model gets the view's MetaController once.
@Suite struct MetaControllerHandOverTests {
    @Test @MainActor func aModelWithoutAMetaControllerReceivesTheViews() {
        let metaController = MetaController.withFakes()
        let model = HandOverModel()
        #expect(MetaControllerHandOver.handOver(metaController, to: model))
        #expect(model.metaController === metaController)
        #expect(model.row.metaController === metaController)   // a pass: it reaches the children
    }

    @Test @MainActor func laterUpdatesPassNothing() {
        let metaController = MetaController.withFakes()
        let model = HandOverModel()
        MetaControllerHandOver.handOver(metaController, to: model)
        model.row.metaController = nil
        #expect(!MetaControllerHandOver.handOver(metaController, to: model))
        #expect(model.row.metaController == nil)   // nothing was passed again
    }

    @Test @MainActor func aModelKeepsItsMetaControllerWhenTheViewsChangesAndNothingIsLogged() throws {
        let first = MetaController.withFakes()
        let second = MetaController.withFakes()
        let model = HandOverModel()
        MetaControllerHandOver.handOver(first, to: model)
        for _ in 0..<3 {
            #expect(!MetaControllerHandOver.handOver(second, to: model))
        }
        #expect(model.metaController === first)
        #expect(try #require(second.fakeLogController).entries.isEmpty)
        #expect(try #require(first.fakeLogController).entries.isEmpty)
    }

    @Test @MainActor func noMetaControllerInTheEnvironmentPassesNothing() {
        let model = HandOverModel()
        #expect(!MetaControllerHandOver.handOver(nil, to: model))
        #expect(model.metaController == nil)
        let metaController = MetaController.withFakes()
        #expect(MetaControllerHandOver.handOver(metaController, to: model))   // one arrives later
        #expect(model.metaController === metaController)
    }

    @Test @MainActor func aPlainConsumerWorksToo() {
        let metaController = MetaController.withFakes()
        let screen = Screen()
        #expect(MetaControllerHandOver.handOver(metaController, to: screen))
        #expect(screen.metaController === metaController)
    }

    /// Docs/SwiftUI.md: a model whose requirements the MetaController lacks is warned about
    /// once, at the hand-over, naming the file and line of the view's declaration (the
    /// wrappers pass their own init's `#fileID` and `#line`).
    @Test @MainActor func aMissingRequirementIsWarnedAboutOnceNamingTheViewsDeclaration() throws {
        @MainActor final class NeedsApi: @MainActor MetaControllerConsumer {
            static let requiredControllers: [MetaControllerSlot] = [.api]
            var metaController: MetaController?
        }
        let metaController = MetaController()
        let log = FakeLogController()
        metaController.logController = log
        let model = NeedsApi()
        for _ in 0..<3 {
            MetaControllerHandOver.handOver(metaController, to: model, file: "App/FeedView.swift", function: "update()", line: 12)
        }
        #if DEBUG
        let warning = try #require(log.diagnostics.first)
        #expect(log.diagnostics.count == 1)
        #expect(warning.file == "App/FeedView.swift")
        #expect(warning.line == 12)
        #expect(warning.message == "NeedsApi requires apiController, which this MetaController lacks")
        #else
        #expect(log.diagnostics.isEmpty)
        #endif
    }
}
