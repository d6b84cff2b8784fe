/// A factory registered with ``MetaController/registerShared(_:name:factory:)``,
/// before its product is made.
///
/// It holds no lock: the request that finds it marks its slot as building
/// (``FactorySlot/building(_:)``) under the MetaController's lock and makes the
/// product outside every lock; a request that comes meanwhile waits for it.
final class SharedFactory<Product: Sendable>: SharedFactoryProtocol {
    private let build: @Sendable (MetaController) throws -> Product

    init(_ build: @escaping @Sendable (MetaController) throws -> Product) {
        self.build = build
    }

    func makeProduct(owner: MetaController) throws -> FactorySlot {
        let product = try build(owner)
        owner.handOn(to: product)
        return .holding(product)
    }
}

/// A ``SharedFactory`` of any product type, as a ``FactorySlot`` holds it.
protocol SharedFactoryProtocol: AnyObject, Sendable {
    /// Makes the product with `owner`, the MetaController the factory is
    /// registered in, and hands `owner` to it when it is a consumer.
    ///
    /// - Returns: The slot that holds the product from now on.
    func makeProduct(owner: MetaController) throws -> FactorySlot
}
