// docs:begin live
public import CheckoutInterface
public import MetaControllerCore
import ProfileInterface   // the profile's interface: the one profile module this module can see

/// The checkout the app ships. It asks the profile feature for the address, through the
/// MetaController, without knowing which profile controller the app installed.
public final class LiveCheckoutController: CheckoutController, MetaControllerConsumer {
    private let reference = WeakMetaControllerReference()

    /// The MetaController whose slot holds the controller, held weakly; handed over when it is put there.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// Creates the controller.
    public init() {}

    /// Places an order for `items`, shipped to the profile's address.
    /// - Throws: ``CheckoutError/emptyCart``, ``CheckoutError/noShippingAddress``, or what the profile throws.
    public func placeOrder(_ items: [String]) throws -> Order {
        guard !items.isEmpty else { throw CheckoutError.emptyCart }
        guard let address = try profileController?.shippingAddress() else { throw CheckoutError.noShippingAddress }
        infoLog("placed an order of \(items.count) item(s)")
        return Order(items: items, shippingLabel: address.label)
    }
}
// docs:end live
