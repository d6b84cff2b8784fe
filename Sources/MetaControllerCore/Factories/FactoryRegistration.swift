/// Identifies one factory: the type it makes, the argument it takes and its name.
///
/// Making a key costs two `ObjectIdentifier`s: the types are kept as they are
/// and described only when an error names them (``description``), since a
/// request that finds its factory never needs their names.
package struct FactoryKey: Hashable, Sendable, CustomStringConvertible {
    package let product: ObjectIdentifier
    package let argument: ObjectIdentifier
    package let name: String?
    package let productType: any Any.Type
    package let argumentType: any Any.Type

    /// The key of the factory of `product` from `argument` named `name`; by
    /// default, of `product` alone.
    @inline(__always)
    package init(_ product: any Any.Type, _ argument: any Any.Type = Void.self, name: String? = nil) {
        self.product = ObjectIdentifier(product)
        self.argument = ObjectIdentifier(argument)
        self.name = name
        productType = product
        argumentType = argument
    }

    /// Whether the factory takes an argument (other than `Void`).
    package var takesArgument: Bool { argument != ObjectIdentifier(Void.self) }

    /// Whether the key names a type alone: no name, no argument.
    package var isTypeAlone: Bool { name == nil && !takesArgument }

    package static func == (lhs: FactoryKey, rhs: FactoryKey) -> Bool {
        lhs.product == rhs.product && lhs.argument == rhs.argument && lhs.name == rhs.name
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(product)
        hasher.combine(argument)
        hasher.combine(name)
    }

    /// `DetailScreen named "B" from Item`.
    package var description: String {
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
/// was three quarters of a `make`; see CHANGELOG.md, "Performance history".)
final class FactoryRegistration<Argument, Product>: Sendable {
    /// Makes a product: the key the registration is stored under, the
    /// MetaController `make` was called on (where the factory is registered,
    /// or one of its descendants), the argument, and the caller's actor.
    typealias Make =
        @Sendable (FactoryKey, _ requester: MetaController, Argument, _ isolation: (any Actor)?) throws -> Product

    /// Makes a product of a main-actor factory for an async request made off
    /// the main actor: hops to the main actor, makes it there, and returns.
    /// `frame`, when an async verification makes the request, is where the
    /// main-actor factory's outcome goes (``AsyncVerificationRun/section(from:_:)``).
    typealias Hop =
        @Sendable (
            FactoryKey, _ requester: MetaController, Argument, _ isolation: isolated (any Actor)?,
            _ frame: AsyncVerificationFrame?
        ) async throws -> Product

    private let make: Make
    /// The argument the registration declared for ``MetaController/verify(consumers:samples:)``
    /// to make a product with: an `Argument`, or `nil` when it declared none.
    private let sample: (any Sendable)?
    /// For a main-actor factory, how an async request off the main actor gets its product; `nil` otherwise.
    let hop: Hop?

    private init(_ make: @escaping Make, sample: (any Sendable)? = nil, hop: Hop? = nil) {
        self.make = make
        self.sample = sample
        self.hop = hop
    }

    /// Makes a product for a request to `requester`.
    @inline(__always)
    func product(key: FactoryKey, requester: MetaController, argument: Argument, isolation: (any Actor)?) throws -> Product {
        try make(key, requester, argument, isolation)
    }

    /// Makes a new product on every request, with the requesting MetaController,
    /// so a child's overrides apply to what it makes.
    static func perRequest(
        _ build: @escaping @Sendable (MetaController, Argument) throws -> Product, sample: (any Sendable)? = nil
    ) -> FactoryRegistration {
        FactoryRegistration(
            { key, requester, argument, _ in
                let product = try FactoryConstruction.running(key, requester: requester, argument: argument) {
                    try build(requester, argument)
                }
                requester.handOn(to: product)
                return product
            }, sample: sample)
    }
}

/// A registration, whatever its types, as ``MetaController/verify(consumers:samples:)`` makes it.
protocol VerifiableRegistration: AnyObject, Sendable {
    /// Makes a product for `requester` from the sample argument of the
    /// registration's argument type: the one in `samples`, else the one the
    /// registration declared; no argument for a factory that takes none.
    ///
    /// - Returns: The product, or `nil` when there is no sample to make it from.
    func verificationProduct(
        key: FactoryKey, requester: MetaController, samples: [ObjectIdentifier: Any], isolation: (any Actor)?
    ) throws -> Any?
}

extension FactoryRegistration: VerifiableRegistration {
    func verificationProduct(
        key: FactoryKey, requester: MetaController, samples: [ObjectIdentifier: Any], isolation: (any Actor)?
    ) throws -> Any? {
        let argument: Argument
        if let given = samples[ObjectIdentifier(Argument.self)] {
            // Stored under its own type's identity (``FactorySample``), so the cast cannot fail.
            argument = given as! Argument
        } else if ObjectIdentifier(Argument.self) == ObjectIdentifier(Void.self) {
            argument = () as! Argument
        } else if let declared = sample as? Argument {
            argument = declared
        } else {
            return nil
        }
        return try product(key: key, requester: requester, argument: argument, isolation: isolation)
    }
}

extension FactoryRegistration where Argument: Sendable, Product: Sendable {
    /// Makes a new product on every request on the main actor, for screens and
    /// other main-actor types; a request from another thread throws.
    static func mainActor(
        _ build: @escaping @MainActor @Sendable (MetaController, Argument) throws -> Product, sample: Argument? = nil
    ) -> FactoryRegistration {
        let make: Make = { key, requester, argument, isolation in
            guard let isolation, isolation === MainActor.shared else {
                throw FactoryConstruction.failing(.notOnMainActor(key), key)
            }
            let product = try FactoryConstruction.running(key, requester: requester, argument: argument) {
                try MainActor.assumeIsolated { try build(requester, argument) }
            }
            requester.handOn(to: product)
            return product
        }
        return FactoryRegistration(
            make, sample: sample,
            hop: { key, requester, argument, _, frame in
                try await MainActor.run {
                    guard let frame else { return try make(key, requester, argument, MainActor.shared) }
                    return try frame.run.section(from: frame) { _ in try make(key, requester, argument, MainActor.shared) }
                }
            })
    }
}

/// The factories being run on the current thread, to report a cycle instead
/// of recursing until the stack overflows.
///
/// Factories are synchronous, so the factories a factory requests run on its
/// thread, inside its call. The chain is a linked list of nodes on the stack,
/// one per factory running, innermost first, found through a thread-local
/// pointer: running a factory allocates nothing, and the check compares keys
/// without copying them.
enum FactoryConstruction {
    private struct Node {
        let key: FactoryKey
        let outer: UnsafeRawPointer?
        /// The outermost node of the chain; `nil` in the outermost node itself.
        let root: UnsafeRawPointer?
        /// Two bits per key on the chain from here outwards (``bits(of:)``): a
        /// key whose two bits are not both set is not on the chain, and the
        /// check need not walk it.
        let filter: (low: UInt64, high: UInt64)
        /// How many factories' keys are on the chain from here outwards, this
        /// node's own included: its key's index in ``chain`` is one less.
        let depth: Int
        /// The verification this thread runs (``verifying(_:_:)``), inherited
        /// from the outer node; `nil` outside one. Unretained: the verification
        /// outlives every node of its run.
        let verification: Unmanaged<VerificationRun>?
    }

    /// The key of the node that ``verifying(_:_:)`` puts at the root of the
    /// chain: no factory makes this type, and ``path(from:)`` leaves it out.
    private enum VerificationRoot {}

    /// The filter bits of `key`, one in each word, from its types' addresses.
    private static func bits(of key: FactoryKey) -> (low: UInt64, high: UInt64) {
        let addresses = UInt64(UInt(bitPattern: key.product)) ^ UInt64(UInt(bitPattern: key.argument)) << 1
        // Fibonacci hashing: the top bits depend on all bits. (Not `&*`: the
        // availability check resolves it to an overload newer than our minimums.)
        let mixed = addresses.multipliedReportingOverflow(by: 0x9E37_79B9_7F4A_7C15).partialValue
        return (1 << (mixed >> 58), 1 << ((mixed >> 52) & 63))
    }

    private static let innermost = ThreadLocalPointer()

    /// Runs `body`, which runs the factory of `key` for a request to
    /// `requester` with `argument`, with `key` on the chain.
    ///
    /// While a verification runs on this thread, the request's outcome is
    /// kept for the rest of it (``VerificationRun``): the same request again
    /// gets the same product, or the same failure, and `body` is not run
    /// again. The verification's work is done here, around the one call of
    /// `body`, so that a factory verified takes no more of the thread's stack
    /// than one made for real.
    ///
    /// - Parameters:
    ///   - requester: The MetaController the request was made to; `nil` for an outcome not kept.
    ///   - shared: Whether `key` is a shared factory's, made by a verification.
    ///   - lookingForCircle: Whether to look for `key` on the chain first. A
    ///     shared factory need not: while it runs its slot is marked as
    ///     building, so a request for it from inside waits, and the wait looks
    ///     (``isRunning(_:)``). On a deep graph the walk was a tenth of a build.
    /// - Throws: ``MetaControllerError/Code/circularFactories`` when `key` is
    ///   already on the chain: the factory requested, directly or through
    ///   others, the product it is making.
    static func running<Result, Argument>(
        _ key: FactoryKey, requester: MetaController?, argument: Argument, shared: Bool = false,
        lookingForCircle: Bool = true, _ body: () throws -> Result
    ) throws -> Result {
        let outer = innermost.value
        let bits = bits(of: key)
        var filter = bits
        var root: UnsafeRawPointer?
        var verification: Unmanaged<VerificationRun>?
        var depth = 1
        if let outerNode = outer?.assumingMemoryBound(to: Node.self) {
            root = outerNode.pointee.root ?? outer
            verification = outerNode.pointee.verification
            depth = outerNode.pointee.depth + 1
            let outerFilter = outerNode.pointee.filter
            if lookingForCircle, outerFilter.low & bits.low != 0, outerFilter.high & bits.high != 0,
                contains(key, from: outer)
            {
                throw failing(circle(closedBy: key), key)
            }
            filter = (outerFilter.low | bits.low, outerFilter.high | bits.high)
        }
        var node = Node(key: key, outer: outer, root: root, filter: filter, depth: depth, verification: verification)
        return try withUnsafePointer(to: &node) { node in
            innermost.value = UnsafeRawPointer(node)
            defer { innermost.value = outer }
            guard let verification else { return try body() }
            // The verification's work in calls out of line: this closure is on
            // the stack of every request, verified or not, once per level.
            let verified = VerificationRun.Running(
                verification.takeUnretainedValue(), key, requester: requester, argument: argument, shared: shared,
                depth: depth)
            if let replayed = try verified.replayed(as: Result.self) { return replayed }
            do {
                let result = try body()
                verified.made(result)
                return result
            } catch {
                verified.failed(error)
                throw error
            }
        }
    }

    /// Runs `body` with `verification` recording what fails on this thread
    /// until it returns: the factories `body` runs, and the requests they make.
    static func verifying<Result>(_ verification: VerificationRun, _ body: () throws -> Result) rethrows -> Result {
        let outer = innermost.value
        let outerNode = outer?.assumingMemoryBound(to: Node.self)
        let root = outer.map { $0.assumingMemoryBound(to: Node.self).pointee.root ?? $0 }
        // In a section of an async verification, the chain goes on from the async factories' (``VerificationRun/prefix``).
        var node = Node(
            key: FactoryKey(VerificationRoot.self), outer: outer, root: root, filter: (0, 0),
            depth: outerNode?.pointee.depth ?? verification.prefix.count, verification: .passUnretained(verification))
        return try withUnsafePointer(to: &node) { node in
            innermost.value = UnsafeRawPointer(node)
            defer { innermost.value = outer }
            return try body()
        }
    }

    /// The key of the innermost factory running on this thread; `nil` when
    /// none runs (a verification's root node is not a factory's).
    static var innermostKey: FactoryKey? {
        guard let key = innermost.value?.assumingMemoryBound(to: Node.self).pointee.key,
            key.product != ObjectIdentifier(VerificationRoot.self)
        else { return nil }
        return key
    }

    /// The verification running on this thread, if any.
    static var verification: VerificationRun? {
        innermost.value?.assumingMemoryBound(to: Node.self).pointee.verification?.takeUnretainedValue()
    }

    /// Whether a verification runs here: on this thread, or in this task (an async one).
    static var isVerifying: Bool {
        verification != nil || AsyncVerificationFrame.active != nil
    }

    /// `error`, a request of `key` failing, after telling the verification
    /// running on this thread, if any, with the chain of factories that made
    /// the request.
    static func failing(_ error: MetaControllerError, _ key: FactoryKey) -> MetaControllerError {
        verification?.recorder.failed(error, chain: path(from: innermost.value) + [key])
        return error
    }

    /// The keys of the factories running on this thread, from the outermost.
    static var chain: [FactoryKey] { path(from: innermost.value) }

    /// Whether the factory of `key` is running on this thread, outside the caller.
    static func isRunning(_ key: FactoryKey) -> Bool {
        contains(key, from: innermost.value)
    }

    /// This thread while a factory runs on it, as a number no other thread has
    /// meanwhile (the address of its outermost factory's node, on its stack);
    /// `nil` when no factory runs on it.
    static var thread: UInt? {
        guard let node = innermost.value else { return nil }
        return UInt(bitPattern: node.assumingMemoryBound(to: Node.self).pointee.root ?? node)
    }

    /// The keys of the factories running on this thread, from the one of `key` inwards
    /// (all of them when `key`'s is not running).
    static func path(from key: FactoryKey) -> [FactoryKey] {
        let keys = path(from: innermost.value)
        guard let start = keys.firstIndex(of: key) else { return keys }
        return Array(keys[start...])
    }

    /// The error for a request of `key` made while its factory runs on this thread.
    static func circle(closedBy key: FactoryKey) -> MetaControllerError {
        MetaControllerError.circularFactories(path(from: innermost.value) + [key])
    }

    /// Whether `key` is on the chain from `node` outwards.
    private static func contains(_ key: FactoryKey, from node: UnsafeRawPointer?) -> Bool {
        var node = node
        while let current = node?.assumingMemoryBound(to: Node.self) {
            if current.pointee.key == key { return true }
            node = current.pointee.outer
        }
        return false
    }

    /// The keys from the outermost factory to `node`.
    private static func path(from node: UnsafeRawPointer?) -> [FactoryKey] {
        var keys: [FactoryKey] = []
        var node = node
        let root = ObjectIdentifier(VerificationRoot.self)
        while let current = node?.assumingMemoryBound(to: Node.self) {
            if current.pointee.key.product != root {
                keys.append(current.pointee.key)
            } else if let run = current.pointee.verification?.takeUnretainedValue() {
                keys.append(contentsOf: run.prefix.reversed())
            }
            node = current.pointee.outer
        }
        return keys.reversed()
    }
}
