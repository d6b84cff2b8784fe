import Dispatch

/// What a MetaController keeps under a factory's key.
///
/// A shared factory's slot goes from ``shared(_:)`` to ``building(_:)`` while
/// one request makes its product outside every lock (``awaited(_:)`` once
/// another request waits for it), then to ``made(_:)`` or ``madeObject(_:)``,
/// which later requests hand back as they are.
enum FactorySlot: Sendable {
    /// A `FactoryRegistration<Argument, Product>` of the key's two types.
    case registration(any AnyObject & Sendable)
    /// A shared factory whose product has not been made.
    case shared(any SharedFactoryProtocol)
    /// A shared factory whose product one request is making now.
    case building(any SharedFactoryProtocol)
    /// A shared factory whose product one request is making now, with
    /// requests waiting for it.
    case awaited(SharedFactoryBuild)
    /// The product of a shared factory, made: a value of the key's product type.
    case made(MadeProduct)
    /// The product of a shared factory, made, when the key's product type is
    /// a class: the reference itself, handed back without a cast.
    case madeObject(any AnyObject & Sendable)

    /// The slot for a shared product just made.
    static func holding<Product: Sendable>(_ product: Product) -> FactorySlot {
        // A class type's values are one reference, the same bits as
        // `any AnyObject & Sendable` (`Sendable` adds no witness table); an
        // existential, even a class-bound one, is not a class type.
        guard Product.self is AnyObject.Type, MemoryLayout<Product>.size == MemoryLayout<AnyObject>.size else {
            return .made(MadeProduct(product))
        }
        return .madeObject(unsafeBitCast(product, to: (any AnyObject & Sendable).self))
    }

    /// The product in a ``made(_:)`` or ``madeObject(_:)`` slot.
    ///
    /// - Precondition: The slot holds a product of type `Product`.
    @inline(__always)
    func madeProduct<Product>(as _: Product.Type) -> Product {
        // No `Product?` on this path: in generic code an optional of a type
        // parameter looks up `Optional<Product>`'s metadata.
        switch self {
        // Stored only when `Product` is a class type (``holding(_:)``).
        case .madeObject(let object): unsafeBitCast(object, to: Product.self)
        // Stored under a key made from `Product`: the cast cannot fail.
        case .made(let made): made.product as! Product
        case .registration, .shared, .building, .awaited: preconditionFailure("FactorySlot: \(self) holds no product")
        }
    }
}

/// A shared product that is not an object, boxed: each case of
/// ``FactorySlot`` then holds references only, and copying a slot retains.
final class MadeProduct: Sendable {
    let product: any Sendable

    init(_ product: any Sendable) {
        self.product = product
    }
}

/// A shared factory's product being made, and the requests waiting for it.
final class SharedFactoryBuild: Sendable {
    let factory: any SharedFactoryProtocol
    /// Entered once by the first request that waits; left by the request
    /// making the product when it is done (made or failed), which wakes them all.
    let waiters: DispatchGroup

    init(_ factory: any SharedFactoryProtocol, waiters: DispatchGroup) {
        self.factory = factory
        self.waiters = waiters
    }
}
