import CheckoutInterface
import CheckoutLive
import CheckoutTesting
import MetaControllerCore
import MetaControllerTesting
import ProfileInterface
import ProfileTesting
import Testing

// The live checkout against the profile's fake: ProfileLive is not even built here.
@Suite struct CheckoutTests {
    @Test func anOrderShipsToTheProfilesAddress() throws {
        let metaController = MetaController.withProfileFakes()
        metaController.install(CheckoutAssembly())
        let order = try #require(metaController.checkoutController).placeOrder(["The Analytical Engine"])
        #expect(order == Order(items: ["The Analytical Engine"], shippingLabel: ShippingAddress.sample.label))
        #expect(metaController.fakeProfileController?.calls == [.shippingAddress])
        #expect(metaController.fakeLogController?.messages == ["placed an order of 1 item(s)"])
    }

    @Test func withoutAnAddressThereIsNoOrder() throws {
        let metaController = MetaController.withProfileFakes(FakeProfileController(address: nil))
        metaController.install(CheckoutAssembly())
        #expect(throws: CheckoutError.noShippingAddress) {
            try metaController.checkoutController?.placeOrder(["The Analytical Engine"])
        }
        #expect(metaController.fakeLogController?.messages == [])
    }

    @Test func anEmptyCartNeverAsksTheProfile() throws {
        let metaController = MetaController.withProfileFakes()
        metaController.install(CheckoutAssembly())
        #expect(throws: CheckoutError.emptyCart) { try metaController.checkoutController?.placeOrder([]) }
        #expect(metaController.fakeProfileController?.calls == [])
    }

    @Test @MainActor func theScreenShowsTheAddressAndTheOutcome() throws {
        let metaController = MetaController.withProfileFakes()
        metaController.install(CheckoutAssembly())
        let screen = try metaController.make(CheckoutScreen.self)
        #expect(screen.metaController === metaController)   // the factory's product receives it
        #expect(screen.shippingLabel == ShippingAddress.sample.label)
        screen.confirm(["The Analytical Engine"])
        #expect(screen.status == "Ordered 1 item(s) for \(ShippingAddress.sample.label)")
    }

    @Test func theFakeRecordsEveryCartAndAnswersItsFailure() throws {
        let metaController = MetaController.withCheckoutFakes(FakeCheckoutController(failure: .emptyCart))
        #expect(throws: CheckoutError.emptyCart) { try metaController.checkoutController?.placeOrder(["A"]) }
        #expect(throws: CheckoutError.emptyCart) { try metaController.checkoutController?.placeOrder(["B", "C"]) }
        #expect(metaController.fakeCheckoutController?.orders == [["A"], ["B", "C"]])
    }
}
