// The checkout feature's interface: all that other features, and the app's screens, know of it.
public import MetaControllerCore

/// An order the checkout placed.
public struct Order: Equatable, Sendable {
    /// What was ordered.
    public var items: [String]
    /// Where the parcel goes, as its label shows it.
    public var shippingLabel: String

    /// Creates an order.
    public init(items: [String], shippingLabel: String) {
        self.items = items
        self.shippingLabel = shippingLabel
    }
}

/// Why the checkout refused an order.
public enum CheckoutError: Error, Equatable {
    /// The cart was empty.
    case emptyCart
    /// The user has no shipping address.
    case noShippingAddress
}

/// The checkout feature's controller: it places orders.
public protocol CheckoutController: AnyObject, Sendable {
    /// Places an order for `items`, shipped to the user's address.
    /// - Throws: ``CheckoutError`` when the order cannot be placed.
    func placeOrder(_ items: [String]) throws -> Order
}

/// The slot that holds the checkout controller.
public enum CheckoutControllerKey: MetaControllerKey {
    /// What the slot holds.
    public typealias Value = any CheckoutController
}

extension MetaControllerReader {
    /// The checkout controller; `nil` when there is no MetaController or the slot is empty.
    public var checkoutController: (any CheckoutController)? { self[CheckoutControllerKey.self] }
}
