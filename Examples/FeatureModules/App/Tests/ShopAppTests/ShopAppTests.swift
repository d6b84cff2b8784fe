import CheckoutInterface
import CheckoutLive
import CheckoutTesting
import Foundation
import MetaController
import MetaControllerTesting
import ProfileInterface
import ProfileLive
import ProfileTesting
import ShopApp
import Testing

@Suite @MainActor struct ShopAppTests {
    // docs:begin verify
    @Test func theAppsGraphIsComplete() {
        let app = ShopApp.makeMetaController()
        let report = app.verify(consumers: [CheckoutScreen.self])
        #expect(report.isSatisfied, "\(report)")
        #expect(report.factoriesMade == 1)   // the checkout screen, made once and dropped
    }
    // docs:end verify

    // docs:begin snapshot
    @Test func theAppsGraphIsTheOneReviewed() throws {
        let graph = ShopApp.makeMetaController().graph(consumers: [CheckoutScreen.self])
        #expect(graph.verification.isSatisfied, "\(graph.verification)")
        // Kept beside the package, drawn by GitHub in Docs/SeeingTheGraph.md.
        let snapshot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Snapshots/graph.mmd")
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] != nil {
            try (graph.mermaid + "\n").write(to: snapshot, atomically: true, encoding: .utf8)
        }
        let reviewed = try String(contentsOf: snapshot, encoding: .utf8)
        #expect(graph.mermaid + "\n" == reviewed, "the graph moved: run with UPDATE_SNAPSHOTS=1 and review the diff")
    }
    // docs:end snapshot

    @Test func aForgottenAssemblyFailsTheVerification() {
        let app = MetaController()
        app.install(CheckoutAssembly())   // the profile's assembly forgotten
        let report = app.verify(consumers: [CheckoutScreen.self])
        #expect(report.problems.map(\.description) == ["CheckoutScreen requires profileController, which this MetaController lacks"])
    }

    @Test func theAppsGraphGivesTheCheckoutTheLiveProfile() throws {
        let app = ShopApp.makeMetaController()
        let screen = try app.make(CheckoutScreen.self)
        #expect(screen.checkoutController is LiveCheckoutController)
        #expect(screen.profileController is LiveProfileController)

        try app.profileController?.setShippingAddress(.sample)   // kept in the app's data controller
        #expect(screen.shippingLabel == ShippingAddress.sample.label)
    }

    // docs:begin tests
    @Test func theCheckoutFlowRunsAgainstTheProfilesFake() throws {
        let profile = FakeProfileController(address: .sample)
        let app = MetaController.withFakes()   // the built-in slots: fakes
        ShopApp.installFeatures(into: app)   // the features, as at launch
        app.install(ProfileFakes(profile))   // then the profile's fake over its live controller

        let screen = try app.make(CheckoutScreen.self)
        screen.confirm(["The Analytical Engine"])
        #expect(screen.status == "Ordered 1 item(s) for Ada Lovelace, 12 St James's Square, London")
        #expect(profile.calls == [.shippingAddress])
        #expect(app.fakeLogController?.messages == ["placed an order of 1 item(s)"])
    }

    @Test func theScreenRunsAgainstBothFakes() throws {
        let checkout = FakeCheckoutController(failure: .noShippingAddress)
        let app = MetaController.withFakes()
        ShopApp.installFeatures(into: app)
        app.install(ProfileFakes(FakeProfileController(address: nil)), CheckoutFakes(checkout))

        let screen = try app.make(CheckoutScreen.self)
        #expect(screen.shippingLabel == nil)
        screen.confirm(["Sketch of the Analytical Engine"])
        #expect(screen.status == "Add a shipping address first")
        #expect(checkout.orders == [["Sketch of the Analytical Engine"]])
    }
    // docs:end tests
}
