import Dispatch

/// What a MetaController keeps under a factory's key.
///
/// A shared factory's slot goes from ``shared(_:)`` to ``building(_:)`` while
/// one request makes its product outside every lock (``awaited(_:)`` once
/// another request waits for it), then to ``made(_:)`` or ``madeObject(_:)``,
/// which later requests hand back as they are.
enum FactorySlot: Sendable {
    /// Makes a shared product with the MetaController the factory is
    /// registered in, hands that MetaController to it when it is a consumer,
    /// and returns the slot that holds it from now on.
    ///
    /// A closure, not a generic class: registering one then allocates its
    /// context and looks up no generic metadata, which was a quarter of a
    /// registration (see CHANGELOG.md, "Performance history").
    typealias SharedFactory = @Sendable (_ owner: MetaController) throws -> FactorySlot

    /// Makes a shared product with an async factory, as ``SharedFactory`` does.
    typealias AsyncSharedFactory = @Sendable (_ owner: MetaController) async throws -> FactorySlot

    /// A `FactoryRegistration<Argument, Product>` of the key's two types.
    case registration(any AnyObject & Sendable)
    /// A shared factory whose product has not been made.
    case shared(SharedFactory)
    /// A shared factory whose product one request is making now: the
    /// number that build got from ``MetaController/State/claimFactory(_:)``.
    case building(UInt64)
    /// A shared factory whose product one request is making now, with
    /// requests waiting for it.
    case awaited(SharedFactoryBuild)
    /// An `AsyncFactoryRegistration<Argument, Product>` of the key's two types.
    case asyncRegistration(any AnyObject & Sendable)
    /// A shared async factory whose product has not been made.
    case asyncShared(AsyncSharedFactory)
    /// A shared async factory whose product one construction is making now;
    /// every async request waits for that construction.
    case asyncBuilding(AsyncSharedBuild)
    /// The product of a shared factory, made: a value of the key's product type.
    case made(MadeProduct)
    /// The product of a shared factory, made, when the key's product type is
    /// a class: the reference itself, handed back without a cast.
    case madeObject(any AnyObject & Sendable)

    /// The slot of a shared factory registered with `build`.
    static func shared<Product: Sendable>(
        making build: @escaping @Sendable (MetaController) throws -> Product
    ) -> FactorySlot {
        .shared { owner in
            let product = try build(owner)
            owner.handOn(to: product)
            return .holding(product)
        }
    }

    /// The slot of a shared factory registered with the async `build`.
    static func asyncShared<Product: Sendable>(
        making build: @escaping @Sendable (MetaController) async throws -> Product
    ) -> FactorySlot {
        .asyncShared { owner in
            let product = try await build(owner)
            await owner.handOn(toMade: product)
            return .holding(product)
        }
    }

    /// Whether this is a registration or shared factory that only an async request can make.
    var isAsync: Bool {
        switch self {
        case .asyncRegistration, .asyncShared, .asyncBuilding: true
        case .registration, .shared, .building, .awaited, .made, .madeObject: false
        }
    }

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
        case .registration, .shared, .building, .awaited, .asyncRegistration, .asyncShared, .asyncBuilding:
            preconditionFailure("FactorySlot: \(self) holds no product")
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
    /// The build's number, as in ``FactorySlot/building(_:)``.
    let number: UInt64
    /// Entered once by the first request that waits; left by the request
    /// making the product when it is done (made or failed), which wakes them all.
    let waiters: DispatchGroup

    init(_ number: UInt64, waiters: DispatchGroup) {
        self.number = number
        self.waiters = waiters
    }
}
