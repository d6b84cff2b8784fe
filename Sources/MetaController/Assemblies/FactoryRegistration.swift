/// Identifies one factory: the type it makes, the argument it takes and its name.
///
/// Making a key costs two `ObjectIdentifier`s: the types are kept as they are
/// and described only when an error names them (``description``), since a
/// request that finds its factory never needs their names.
struct FactoryKey: Hashable, Sendable, CustomStringConvertible {
    let product: ObjectIdentifier
    let argument: ObjectIdentifier
    let name: String?
    private let productType: any Any.Type
    private let argumentType: any Any.Type

    init<Product, Argument>(_ product: Product.Type, _ argument: Argument.Type, name: String?) {
        self.product = ObjectIdentifier(product)
        self.argument = ObjectIdentifier(argument)
        self.name = name
        productType = product
        argumentType = argument
    }

    /// Whether the factory takes an argument (other than `Void`).
    var takesArgument: Bool { argument != ObjectIdentifier(Void.self) }

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
        var text = String(describing: productType)
        if let name { text += " named \"\(name)\"" }
        if takesArgument { text += " from \(String(describing: argumentType))" }
        return text
    }
}

/// A registered factory, stored type-erased in a MetaController.
///
/// It is found again under a ``FactoryKey`` made from the same `Argument` and
/// `Product` types it was registered with, so the stored object is known to be
/// of this class and is cast back without a check. (It used to be found by a
/// cast to `any FactoryRegistration<Argument, Product>`, a protocol with primary
/// associated types: a conformance check at run time on every request, which
/// was three quarters of a `make`; see Docs/Performance.md.)
final class FactoryRegistration<Argument, Product>: Sendable {
    /// Makes (or returns the shared) product: this registration, the key it is
    /// stored under, the MetaController it is registered in, the one `make` was
    /// called on (the owner or one of its descendants), the argument, and
    /// whether the caller is isolated to the main actor.
    typealias Make =
        @Sendable (
            FactoryRegistration, FactoryKey, _ owner: MetaController, _ requester: MetaController, Argument, _ onMainActor: Bool
        ) throws -> Product

    private let make: Make

    private init(_ make: @escaping Make) {
        self.make = make
    }

    /// Makes (or returns the shared) product for a request to `requester`.
    func product(key: FactoryKey, owner: MetaController, requester: MetaController, argument: Argument, onMainActor: Bool) throws -> Product {
        try make(self, key, owner, requester, argument, onMainActor)
    }

    /// Makes a new product on every request, with the requesting MetaController,
    /// so a child's overrides apply to what it makes.
    static func perRequest(_ build: @escaping @Sendable (MetaController, Argument) throws -> Product) -> FactoryRegistration {
        FactoryRegistration { _, key, _, requester, argument, _ in
            let product = try FactoryConstruction.running(key) { try build(requester, argument) }
            requester.handOn(to: product)
            return product
        }
    }
}

extension FactoryRegistration where Argument: Sendable, Product: Sendable {
    /// Makes a new product on every request on the main actor, for screens and
    /// other main-actor types; a request from another thread throws.
    static func mainActor(_ build: @escaping @MainActor @Sendable (MetaController, Argument) throws -> Product) -> FactoryRegistration {
        FactoryRegistration { _, key, _, requester, argument, onMainActor in
            guard onMainActor else { throw MetaControllerError.notOnMainActor(key) }
            let product = try FactoryConstruction.running(key) {
                try MainActor.assumeIsolated { try build(requester, argument) }
            }
            requester.handOn(to: product)
            return product
        }
    }
}

extension FactoryRegistration where Argument == Void, Product: Sendable {
    /// Makes one product on first request, with the MetaController it is
    /// registered in, and returns that product from then on.
    ///
    /// The product is made under a lock, so concurrent first requests still
    /// make it once. Once made, the registration replaces itself in its
    /// MetaController with one that hands back the product (``made(_:)``), so
    /// later requests take no lock of their own.
    static func shared(_ build: @escaping @Sendable (MetaController) throws -> Product) -> FactoryRegistration {
        let instance = Lock<Product?>(nil)
        return FactoryRegistration { registration, key, owner, _, _, _ in
            // The cycle check comes before every use of the lock, which is not
            // recursive: a shared factory that requests itself throws instead
            // of deadlocking.
            let product = try FactoryConstruction.running(key) {
                try instance.withLock { instance in
                    if let instance { return instance }
                    let product = try build(owner)
                    owner.handOn(to: product)
                    instance = product
                    return product
                }
            }
            owner.replaceFactory(registration, for: key, with: FactoryRegistration.made(product))
            return product
        }
    }

    /// Hands back a shared product made earlier.
    static func made(_ product: Product) -> FactoryRegistration {
        FactoryRegistration { _, _, _, _, _, _ in product }
    }
}

/// The factories being run on the current task or thread, to report a cycle
/// instead of recursing until the stack overflows.
enum FactoryConstruction {
    @TaskLocal static var path: [FactoryKey] = []

    /// Runs `body`, which runs the factory of `key`, with `key` on the path.
    ///
    /// - Throws: ``MetaControllerError/Code/circularFactories`` when `key` is
    ///   already on the path: the factory requested, directly or through
    ///   others, the product it is making.
    static func running<Result>(_ key: FactoryKey, _ body: () throws -> Result) throws -> Result {
        let path = path
        if path.contains(key) { throw MetaControllerError.circularFactories(path + [key]) }
        return try $path.withValue(path + [key]) { try body() }
    }
}
