/// Identifies one factory: the type it makes, the argument it takes and its name.
struct FactoryKey: Hashable, Sendable, CustomStringConvertible {
    let product: ObjectIdentifier
    let argument: ObjectIdentifier
    let name: String?
    let productName: String
    let argumentName: String?

    init<Product, Argument>(_ product: Product.Type, _ argument: Argument.Type, name: String?) {
        self.product = ObjectIdentifier(product)
        self.argument = ObjectIdentifier(argument)
        self.name = name
        productName = String(describing: product)
        argumentName = Argument.self == Void.self ? nil : String(describing: argument)
    }

    static func == (lhs: FactoryKey, rhs: FactoryKey) -> Bool {
        lhs.product == rhs.product && lhs.argument == rhs.argument && lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(product)
        hasher.combine(argument)
        hasher.combine(name)
    }

    /// `DetailScreen named "B" from Item`.
    var description: String {
        var text = productName
        if let name { text += " named \"\(name)\"" }
        if let argumentName { text += " from \(argumentName)" }
        return text
    }
}

/// A registered factory, stored type-erased in a MetaController and found
/// again by casting to `any FactoryRegistration<Argument, Product>`.
protocol FactoryRegistration<Argument, Product>: Sendable {
    associatedtype Argument
    associatedtype Product

    /// Makes (or returns the shared) product.
    ///
    /// - Parameters:
    ///   - owner: The MetaController the factory is registered in.
    ///   - requester: The MetaController `make` was called on: `owner` or one of its descendants.
    ///   - onMainActor: Whether the caller of `make` is isolated to the main actor.
    func product(owner: MetaController, requester: MetaController, argument: Argument, onMainActor: Bool) throws -> Product
}

/// Makes a new product on every request, with the requesting MetaController,
/// so a child's overrides apply to what it makes.
struct PerRequestFactory<Argument, Product>: FactoryRegistration {
    let build: @Sendable (MetaController, Argument) throws -> Product

    func product(owner: MetaController, requester: MetaController, argument: Argument, onMainActor: Bool) throws -> Product {
        let product = try build(requester, argument)
        requester.handOn(to: product)
        return product
    }
}

/// Makes a new product on every request on the main actor, for screens and
/// other main-actor types; a request from another thread throws.
struct MainActorFactory<Argument: Sendable, Product: Sendable>: FactoryRegistration {
    let key: FactoryKey
    let build: @MainActor @Sendable (MetaController, Argument) throws -> Product

    func product(owner: MetaController, requester: MetaController, argument: Argument, onMainActor: Bool) throws -> Product {
        guard onMainActor else { throw MetaControllerError.notOnMainActor(key) }
        let product = try MainActor.assumeIsolated { try build(requester, argument) }
        requester.handOn(to: product)
        return product
    }
}

/// Makes one product on first request, with the MetaController it is
/// registered in, and returns that product from then on. The product is made
/// under a lock, so concurrent first requests still make it once.
final class SharedFactory<Product: Sendable>: FactoryRegistration {
    typealias Argument = Void

    private let build: @Sendable (MetaController) throws -> Product
    private let instance = Lock<Product?>(nil)

    init(build: @escaping @Sendable (MetaController) throws -> Product) {
        self.build = build
    }

    func product(owner: MetaController, requester: MetaController, argument: Void, onMainActor: Bool) throws -> Product {
        try instance.withLock { instance in
            if let instance { return instance }
            let product = try build(owner)
            owner.handOn(to: product)
            instance = product
            return product
        }
    }
}

/// The factories being run on the current task or thread, to report a cycle
/// instead of recursing until the stack overflows.
enum FactoryConstruction {
    @TaskLocal static var path: [FactoryKey] = []
}

extension MetaController {
    /// Hands this MetaController to a product a factory made, unless the
    /// factory already gave it one.
    func handOn(to product: Any) {
        guard let consumer = product as? any MetaControllerConsumer, consumer.metaController == nil else { return }
        deliver(
            to: consumer, replacingExisting: false, checkRequirements: true,
            file: #fileID, function: #function, line: #line)
    }
}
