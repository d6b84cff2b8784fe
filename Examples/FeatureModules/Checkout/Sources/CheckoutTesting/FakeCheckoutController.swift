import Foundation
public import CheckoutInterface
public import MetaControllerCore
import MetaControllerTesting

/// A checkout controller for tests: it records every cart and answers with a canned order or error.
public final class FakeCheckoutController: CheckoutController, @unchecked Sendable {
    // @unchecked: `recorded` is read and written under the lock only; `failure` never changes.
    private let lock = NSLock()
    private var recorded: [[String]] = []
    private let failure: CheckoutError?

    /// Creates a fake that places every order, or refuses every one with `failure`.
    public init(failure: CheckoutError? = nil) {
        self.failure = failure
    }

    /// The items of every order asked for, oldest first, refused ones included.
    public var orders: [[String]] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Records `items`, then throws the fake's failure or answers an order shipped to "Test Address".
    public func placeOrder(_ items: [String]) throws -> Order {
        lock.lock()
        recorded.append(items)
        lock.unlock()
        if let failure { throw failure }
        return Order(items: items, shippingLabel: "Test Address")
    }
}

/// Installs the checkout feature's fake controller, after `CheckoutAssembly` (whose screen factory it keeps).
public struct CheckoutFakes: MetaControllerAssembly {
    /// The fake the assembly installs.
    public let checkout: FakeCheckoutController

    /// Creates the assembly.
    /// - Parameter checkout: The fake to install; one that places every order by default.
    public init(_ checkout: FakeCheckoutController = FakeCheckoutController()) {
        self.checkout = checkout
    }

    /// Puts the fake in `metaController`'s checkout slot.
    public func assemble(into metaController: MetaController) {
        metaController[CheckoutControllerKey.self] = checkout
    }
}

extension MetaController {
    /// A MetaController for a test of code that uses the checkout: the built-in slots filled
    /// with fakes (`withFakes()`), and `checkout` in the checkout slot.
    /// - Parameter checkout: The checkout's fake; one that places every order by default.
    public static func withCheckoutFakes(_ checkout: FakeCheckoutController = FakeCheckoutController()) -> MetaController {
        let metaController = MetaController.withFakes()
        metaController.install(CheckoutFakes(checkout))
        return metaController
    }

    /// The checkout controller, when it is a ``FakeCheckoutController``.
    public var fakeCheckoutController: FakeCheckoutController? { self[CheckoutControllerKey.self] as? FakeCheckoutController }
}
