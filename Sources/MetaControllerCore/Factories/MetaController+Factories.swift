import Dispatch

extension MetaController {
    /// Registers a factory that makes a new `Product` every time one is requested.
    ///
    /// Use factories for objects made at run time, such as the screen a tap
    /// opens. The factory receives the MetaController that
    /// ``make(_:name:isolation:)`` was called on (this one or a child), and a product
    /// that is a ``MetaControllerConsumer`` without a MetaController receives it
    /// too. Registering again under the same type and name replaces the factory.
    ///
    /// ```swift
    /// metaController.register(SettingsScreen.self) { _ in SettingsScreen() }
    /// metaController.register(SettingsScreen.self, name: "compact") { _ in CompactSettingsScreen() }
    /// let screen = try metaController.make(SettingsScreen.self, name: "compact")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to register, often a protocol or a base class.
    ///   - name: A name that tells variants of one type apart, such as the arms of an A/B test.
    ///   - factory: Makes the product. It runs outside every lock, so it may call ``make(_:name:isolation:)``.
    public func register<Product>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        factory: @escaping @Sendable (MetaController) throws -> Product
    ) {
        store(
            .registration(FactoryRegistration<Void, Product>.perRequest { metaController, _ in try factory(metaController) }),
            for: FactoryKey(type, Void.self, name: name))
    }

    /// Registers a factory that makes a new `Product` from an argument every time one is requested.
    ///
    /// ```swift
    /// metaController.register(DetailScreen.self, argument: Item.self) { _, item in
    ///     DetailScreen(item: item)
    /// }
    /// let detail = try metaController.make(DetailScreen.self, argument: item)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to register.
    ///   - name: A name that tells variants of one type apart.
    ///   - argument: The type of the argument ``make(_:name:argument:isolation:)`` passes.
    ///   - factory: Makes the product from the requesting MetaController and the argument.
    public func register<Product, Argument>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        argument: Argument.Type,
        factory: @escaping @Sendable (MetaController, Argument) throws -> Product
    ) {
        store(.registration(FactoryRegistration.perRequest(factory)), for: FactoryKey(type, argument, name: name))
    }

    /// Registers a factory that makes a new `Product` from an argument, with a
    /// sample argument that ``verify(consumers:samples:)`` makes a product from.
    ///
    /// The sample is used by verification only; requests pass their own
    /// argument. A sample passed to `verify` for the same type takes its place.
    ///
    /// ```swift
    /// metaController.register(DetailScreen.self, argument: Item.self, sample: Item(id: 1)) { _, item in
    ///     DetailScreen(item: item)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to register.
    ///   - name: A name that tells variants of one type apart.
    ///   - argument: The type of the argument ``make(_:name:argument:isolation:)`` passes.
    ///   - sample: An argument to make a product from when the graph is verified.
    ///   - factory: Makes the product from the requesting MetaController and the argument.
    public func register<Product, Argument: Sendable>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        argument: Argument.Type,
        sample: Argument,
        factory: @escaping @Sendable (MetaController, Argument) throws -> Product
    ) {
        store(
            .registration(FactoryRegistration.perRequest(factory, sample: sample)),
            for: FactoryKey(type, argument, name: name))
    }

    /// Registers a main-actor factory, for screens and other `@MainActor` types made at run time.
    ///
    /// Mark the closure `@MainActor` to choose this variant. The product is
    /// made on the main actor; requesting it from code that is not isolated to
    /// the main actor throws
    /// ``MetaControllerError/Code/notOnMainActor`` rather than touching a
    /// main-actor type from the wrong thread.
    ///
    /// ```swift
    /// metaController.register(SettingsViewController.self) { @MainActor _ in
    ///     SettingsViewController()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to register.
    ///   - name: A name that tells variants of one type apart.
    ///   - factory: Makes the product on the main actor.
    public func register<Product: Sendable>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        factory: @escaping @MainActor @Sendable (MetaController) throws -> Product
    ) {
        store(
            .registration(FactoryRegistration<Void, Product>.mainActor { metaController, _ in try factory(metaController) }),
            for: FactoryKey(type, Void.self, name: name))
    }

    /// Registers a main-actor factory that makes a product from an argument.
    ///
    /// Mark the closure `@MainActor` to choose this variant:
    ///
    /// ```swift
    /// metaController.register(DetailViewController.self, argument: Item.self) { @MainActor _, item in
    ///     DetailViewController(item: item)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to register.
    ///   - name: A name that tells variants of one type apart.
    ///   - argument: The type of the argument ``make(_:name:argument:isolation:)`` passes.
    ///   - factory: Makes the product on the main actor.
    public func register<Product: Sendable, Argument: Sendable>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        argument: Argument.Type,
        factory: @escaping @MainActor @Sendable (MetaController, Argument) throws -> Product
    ) {
        store(.registration(FactoryRegistration.mainActor(factory)), for: FactoryKey(type, argument, name: name))
    }

    /// Registers a main-actor factory that makes a product from an argument,
    /// with a sample argument that ``verify(consumers:samples:)`` makes a product from.
    ///
    /// ```swift
    /// metaController.register(DetailViewController.self, argument: Item.self, sample: Item(id: 1)) { @MainActor _, item in
    ///     DetailViewController(item: item)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to register.
    ///   - name: A name that tells variants of one type apart.
    ///   - argument: The type of the argument ``make(_:name:argument:isolation:)`` passes.
    ///   - sample: An argument to make a product from when the graph is verified.
    ///   - factory: Makes the product on the main actor.
    public func register<Product: Sendable, Argument: Sendable>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        argument: Argument.Type,
        sample: Argument,
        factory: @escaping @MainActor @Sendable (MetaController, Argument) throws -> Product
    ) {
        store(
            .registration(FactoryRegistration.mainActor(factory, sample: sample)),
            for: FactoryKey(type, argument, name: name))
    }

    /// Registers a factory whose product is made once, on first request, and
    /// shared by every later request.
    ///
    /// The shared product is made with this MetaController (not with a child
    /// that requests it), so one child's overrides never leak into what the
    /// others share. Concurrent first requests still make it once: the first
    /// runs the factory, outside every lock, and the others wait for its
    /// product. When the factory throws, the error reaches the request that ran
    /// it, and the next request (a waiting one included) runs the factory again.
    ///
    /// Shared factories that need each other in a circle throw
    /// ``MetaControllerError/Code/circularFactories`` rather than wait for each
    /// other, on one thread or several. When two threads first request `A` and
    /// `B` at the same moment, and `A`'s factory needs `B` while `B`'s needs
    /// `A`, the thread that would wait last throws instead, from its factory's
    /// request: `circular factories: B -> A -> B` when it is `B`'s. Its build
    /// then fails (unless its factory catches the error), which wakes the other
    /// thread; that one makes the product it waited for itself, meets the same
    /// circle on its own thread and throws too: `make(A)` throws
    /// `A -> B -> A` and `make(B)` throws `B -> A -> B`, whichever thread found
    /// the circle. A factory that catches the error and makes its product
    /// anyway lets the other thread finish with it. Circles of three threads
    /// or more, named products and products registered in different
    /// MetaControllers of one chain are found the same way.
    ///
    /// ```swift
    /// metaController.registerShared(ImageCache.self) { _ in ImageCache(limit: 100) }
    /// try metaController.make(ImageCache.self) === metaController.make(ImageCache.self)   // true
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to register.
    ///   - name: A name that tells variants of one type apart.
    ///   - factory: Makes the product, once.
    public func registerShared<Product: Sendable>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        factory: @escaping @Sendable (MetaController) throws -> Product
    ) {
        store(.shared(making: factory), for: FactoryKey(type, Void.self, name: name))
    }

    /// Makes a `Product` with the factory registered for it here or in a parent.
    ///
    /// ```swift
    /// let settings = try metaController.make(SettingsScreen.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The variant's name, or `nil` for the unnamed one.
    ///   - isolation: The caller's actor; leave the default. Main-actor factories need the main actor.
    /// - Returns: A new product, or the shared one for `registerShared(_:name:factory:)`.
    /// - Throws: ``MetaControllerError`` when no factory is registered
    ///   (``MetaControllerError/Code/missingFactory``), factories request each
    ///   other in a circle (``MetaControllerError/Code/circularFactories``) or a
    ///   main-actor factory is asked from outside the main actor
    ///   (``MetaControllerError/Code/notOnMainActor``); otherwise whatever the
    ///   factory throws.
    @inlinable
    public func make<Product>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) throws -> Product {
        // Inlinable so that, in the caller's specialization, handing back a
        // shared object is one lookup and no cast: the size test is decided
        // when compiling, and the object is stored only for a class type
        // (see CHANGELOG.md, "Performance history").
        if name == nil, MemoryLayout<Product>.size == MemoryLayout<AnyObject>.size,
            let object = try sharedObject(type)
        {
            return unsafeBitCast(object, to: Product.self)
        }
        return try make(type, name: name, argument: (), isolation: isolation)
    }

    /// The shared object of the factory of `type` alone registered here,
    /// made by this request when no request has made it yet; `nil` when the
    /// slot holds anything else (nothing, a factory that is not shared, a
    /// product that is not an object, a build under way), for the generic
    /// request to deal with.
    @usableFromInline
    func sharedObject(_ type: Any.Type) throws -> AnyObject? {
        let key = FactoryKey(type)
        let found = state.withLock { state -> FactoryLookup? in
            switch state.typeFactories[TypeKey(key.product)] {
            case .madeObject(let object)?: .found(.madeObject(object))
            case .shared?: state.claimFactory(key)
            default: nil
            }
        }
        switch found {
        case .found(.madeObject(let object))?:
            return object
        case .claimed(let factory, let build)?:
            guard case .madeObject(let object) = try makeShared(factory, build: build, for: key) else {
                return nil
            }
            return object
        default:
            return nil
        }
    }

    /// Makes a `Product` from `argument` with the factory registered for it here or in a parent.
    ///
    /// ```swift
    /// let detail = try metaController.make(DetailScreen.self, argument: item)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The variant's name, or `nil` for the unnamed one.
    ///   - argument: Passed to the factory.
    ///   - isolation: The caller's actor; leave the default. Main-actor factories need the main actor.
    /// - Returns: A new product.
    /// - Throws: ``MetaControllerError`` when no factory takes this argument
    ///   type, factories request each other in a circle, or a main-actor
    ///   factory is asked from outside the main actor; otherwise whatever the factory
    ///   throws.
    public func make<Product, Argument>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        argument: Argument,
        isolation: isolated (any Actor)? = #isolation
    ) throws -> Product {
        // A stand-in of an async verification, asked by an async factory: the
        // request is verified as a synchronous factory's (``AsyncVerificationRun/section(from:_:)``).
        if isScratch, let product = try madeInSection(type, name: name, argument: argument, isolation: isolation) {
            return product
        }
        let key = FactoryKey(type, Argument.self, name: name)
        // Here first, apart from the walk up the parents: a request answered
        // here retains no MetaController.
        if let found = state.withLock({ $0.claimFactory(key) }) {
            return try product(of: found, type, key: key, owner: self, argument: argument, isolation: isolation)
        }
        var owner = parent
        while let current = owner {
            if let found = current.state.withLock({ $0.claimFactory(key) }) {
                // A stand-in of a verification that draws a graph: the request is an edge.
                if let requestLog { requestLog.requested(key, found: true) }
                return try product(of: found, type, key: key, owner: current, argument: argument, isolation: isolation)
            }
            owner = current.parent
        }
        // An edge to the missing product alone, whatever a child of this MetaController holds.
        if let requestLog { requestLog.requested(key, found: false) }
        throw FactoryConstruction.failing(.missingFactory(key), key)
    }

    /// The product of what a request to this MetaController for `type` found
    /// under `key` in `owner` (this MetaController or an ancestor).
    @inline(__always)
    func product<Argument, Product>(
        of found: FactoryLookup, _ type: Product.Type, key: FactoryKey, owner: MetaController, argument: Argument,
        isolation: isolated (any Actor)?
    ) throws -> Product {
        // The two common answers here, the rest out of line (``rarelyFoundProduct(of:_:key:owner:argument:isolation:)``).
        if case .found(.registration(let registration)) = found {
            // Stored under a key made from the same two types, so it is of this
            // class: the cast is unchecked (a check would be a pointer
            // comparison, but needs the generic class's metadata looked up).
            return try unsafeDowncast(registration, to: FactoryRegistration<Argument, Product>.self).product(
                key: key, requester: self, argument: argument, isolation: isolation)
        }
        if case .found(let slot) = found, !slot.isAsync {
            return slot.madeProduct(as: Product.self)
        }
        return try rarelyFoundProduct(of: found, type, key: key, owner: owner, argument: argument, isolation: isolation)
    }

    // The rarely taken branches of a request, out of line: `make` is inlined into
    // every level of a chain of factories, and what it holds on the stack is paid
    // once per level (a 512 KiB thread holds 60 levels, under the thread sanitizer too).

    /// ``product(of:_:key:owner:argument:isolation:)`` for what is neither a
    /// factory nor a product made: a shared product to make or wait for, one
    /// a verification makes, or an async registration.
    @inline(never)
    private func rarelyFoundProduct<Argument, Product>(
        of found: FactoryLookup, _ type: Product.Type, key: FactoryKey, owner: MetaController, argument: Argument,
        isolation: isolated (any Actor)?
    ) throws -> Product {
        switch found {
        case .found(.registration(let registration)):
            return try unsafeDowncast(registration, to: FactoryRegistration<Argument, Product>.self).product(
                key: key, requester: self, argument: argument, isolation: isolation)
        case .found(.asyncRegistration), .found(.asyncShared), .found(.asyncBuilding):
            throw Self.asyncFactoryFailure(key)
        case .found(let slot):
            return slot.madeProduct(as: Product.self)
        case .claimed(let factory, let build):
            return try owner.makeShared(factory, build: build, for: key).madeProduct(as: Product.self)
        case .verifying(let factory, let verification):
            return try verification.sharedProduct(of: factory, key: key, owner: owner).madeProduct(as: Product.self)
        case .verifyingAsync(let factory, let frame):
            return try Self.verifiedShared(factory, in: frame, key: key, owner: owner).madeProduct(as: Product.self)
        case .wait(let waiters, let build):
            // The request building it is this one's own caller: waiting would never end.
            if FactoryConstruction.isRunning(key) {
                throw FactoryConstruction.failing(FactoryConstruction.circle(closedBy: key), key)
            }
            // Nor would it when the thread building it waits, directly or through
            // others, for a product this thread is making.
            try SharedFactoryWaits.wait(for: SharedFactoryWaits.Build(owner, build), key: key, on: waiters)
            return try make(type, name: key.name, argument: argument, isolation: isolation)
        }
    }

    /// A synchronous request made by an async factory to a stand-in of an
    /// async verification, made in a section of it; `nil` when no async
    /// verification runs in this task outside every synchronous factory.
    @inline(never)
    private func madeInSection<Product, Argument>(
        _ type: Product.Type, name: String?, argument: Argument, isolation: isolated (any Actor)?
    ) throws -> Product? {
        guard FactoryConstruction.verification == nil, let frame = AsyncVerificationFrame.active else { return nil }
        return try frame.run.section(from: frame) { _ in
            try make(type, name: name, argument: argument, isolation: isolation)
        }
    }

    /// The error of a synchronous request for a product only an async factory makes.
    @inline(never)
    private static func asyncFactoryFailure(_ key: FactoryKey) -> MetaControllerError {
        FactoryConstruction.failing(.asyncFactory(key), key)
    }

    /// A shared product an async verification makes for itself, asked synchronously.
    @inline(never)
    private static func verifiedShared(
        _ factory: @escaping FactorySlot.SharedFactory, in frame: AsyncVerificationFrame, key: FactoryKey,
        owner: MetaController
    ) throws -> FactorySlot {
        try frame.run.section(from: frame) { run in try run.sharedProduct(of: factory, key: key, owner: owner) }
    }

    /// Makes the product of the shared factory under `key`, which this request
    /// claimed, and stores it in the factory's place; after a failure, puts the
    /// factory back for the next request. Either way wakes the requests waiting.
    private func makeShared(
        _ factory: @escaping FactorySlot.SharedFactory, build: UInt64, for key: FactoryKey
    ) throws -> FactorySlot {
        let made: FactorySlot
        do {
            made = try FactoryConstruction.running(key, requester: nil, argument: (), lookingForCircle: false) {
                try SharedFactoryWaits.making(SharedFactoryWaits.Build(self, build), key: key) { try factory(self) }
            }
        } catch {
            let (replaced, waiters) = state.withLock {
                $0.finishBuild(build, for: key, storing: .shared(factory), factory: factory)
            }
            waiters?.leave()
            withExtendedLifetime(replaced) {}   // released here, after the lock
            throw error
        }
        let (replaced, waiters) = state.withLock { $0.finishBuild(build, for: key, storing: made, factory: factory) }
        waiters?.leave()
        withExtendedLifetime(replaced) {}
        return made
    }

    func store(_ slot: FactorySlot, for key: FactoryKey) {
        // The replaced slot (a factory, or a shared product made) is returned
        // and released after the lock is.
        let replaced = state.withLock { $0.setFactory(slot, for: key) }
        // A build under way goes on, but its product will not be stored: the
        // requests waiting for it look again, and find this factory. (An
        // async construction's waiters get its product: they asked before.)
        if case .awaited(let build) = replaced { build.waiters.leave() }
    }
}

/// What a request found under its key in one MetaController.
enum FactoryLookup {
    /// A registration, or a shared product made.
    case found(FactorySlot)
    /// A shared factory whose product this request is to make.
    case claimed(FactorySlot.SharedFactory, build: UInt64)
    /// A shared factory whose product another request is making, in build
    /// number `build`: wait, then look again.
    case wait(DispatchGroup, build: UInt64)
    /// A shared factory whose product is not made, requested while a
    /// verification runs on this thread: the verification makes a product of
    /// its own, and the MetaController keeps none.
    case verifying(FactorySlot.SharedFactory, VerificationRun)
    /// The same, requested synchronously in an async verification's task
    /// (``AsyncVerificationFrame``), outside every synchronous factory.
    case verifyingAsync(FactorySlot.SharedFactory, AsyncVerificationFrame)
}

extension MetaController {
    /// Hands this MetaController to a product a factory made, unless the
    /// factory already gave it one.
    func handOn(to product: Any) {
        guard let consumer = ConsumerTypes.consumer(product), consumer.metaController == nil else { return }
        deliver(
            to: consumer, replacingExisting: false, checkRequirements: true,
            file: #fileID, function: #function, line: #line)
    }

    /// ``handOn(to:)`` for a product an async factory made, wherever the
    /// request runs: a consumer whose conformance is isolated to the main
    /// actor (a `@MainActor` screen model) is one only there, so it is handed
    /// this MetaController on the main actor, after a hop when the caller is
    /// elsewhere. A product that is no consumer costs one type check.
    func handOn<Product: Sendable>(toMade product: Product) async {
        // A type check answers for the type, whatever the isolation of its conformance.
        guard Swift.type(of: product as Any) is any MetaControllerConsumer.Type else { return }
        if ConsumerTypes.consumer(product) != nil {
            handOn(to: product)
        } else {
            await MainActor.run { self.handOn(to: product) }
        }
    }
}
