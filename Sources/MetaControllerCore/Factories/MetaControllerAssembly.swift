/// A feature's controllers and factories, installed into a MetaController with one call.
///
/// An assembly keeps what a feature needs in one place, so the rest of the
/// app does not learn how the feature is built:
///
/// ```swift
/// struct CheckoutAssembly: MetaControllerAssembly {
///     func assemble(into metaController: MetaController) {
///         metaController[PaymentControllerKey.self] = PaymentController()
///         metaController.register(CheckoutScreen.self, argument: Cart.self) { metaController, cart in
///             CheckoutScreen(cart: cart)
///         }
///     }
/// }
///
/// metaController.install(CheckoutAssembly(), ProfileAssembly())
/// ```
///
/// To keep a registration private to the assembly, register it in a
/// MetaController of the assembly's own that the app never sees, and call it
/// from the public factories (the Coming from Swinject article shows how).
public protocol MetaControllerAssembly {
    /// Sets the feature's controllers and registers its factories in `metaController`.
    func assemble(into metaController: MetaController)
}

extension MetaController {
    /// Installs each assembly in turn, in the order given.
    ///
    /// ```swift
    /// metaController.install(CoreAssembly(), CheckoutAssembly())
    /// ```
    public func install(_ assemblies: any MetaControllerAssembly...) {
        for assembly in assemblies { assembly.assemble(into: self) }
    }
}
