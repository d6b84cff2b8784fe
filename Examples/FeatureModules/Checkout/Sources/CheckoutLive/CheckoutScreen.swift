// docs:begin screen
public import MetaControllerCore
import CheckoutInterface
import ProfileInterface

/// The checkout screen: where the order goes, and a button that places it. A real app's is a view
/// controller or a SwiftUI model; this one keeps what it shows in properties.
@MainActor
public final class CheckoutScreen: @MainActor MetaControllerConsumer {
    /// The slots the screen reads: a graph without either fails `verify(consumers:samples:)`.
    public static let requiredControllers: [MetaControllerSlot] = [
        .custom(CheckoutControllerKey.self), .custom(ProfileControllerKey.self),
    ]
    /// The MetaController the screen reads its controllers from; its factory hands it over.
    public var metaController: MetaController?
    /// What the screen says under the button.
    public private(set) var status = ""

    /// Creates the screen.
    public init() {}

    /// The label of the profile's shipping address; `nil` when there is none.
    public var shippingLabel: String? {
        (try? profileController?.shippingAddress())?.label
    }

    /// Places the order for `items` and says how it went in ``status``.
    public func confirm(_ items: [String]) {
        guard let checkout = checkoutController else {
            status = "Checkout is unavailable"
            return
        }
        do {
            let order = try checkout.placeOrder(items)
            status = "Ordered \(order.items.count) item(s) for \(order.shippingLabel)"
        } catch CheckoutError.noShippingAddress {
            status = "Add a shipping address first"
        } catch {
            status = "The order failed: \(error)"
        }
    }
}

/// Installs the checkout feature: its live controller, and the factory of its screen.
public struct CheckoutAssembly: MetaControllerAssembly {
    /// Creates the assembly.
    public init() {}

    /// Puts a ``LiveCheckoutController`` in the checkout slot and registers ``CheckoutScreen``.
    public func assemble(into metaController: MetaController) {
        metaController[CheckoutControllerKey.self] = LiveCheckoutController()
        metaController.register(CheckoutScreen.self) { @MainActor _ in CheckoutScreen() }
    }
}
// docs:end screen
