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
            FactoryRegistration<Void, Product>.perRequest { metaController, _ in try factory(metaController) },
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
        store(FactoryRegistration.perRequest(factory), for: FactoryKey(type, argument, name: name))
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
            FactoryRegistration<Void, Product>.mainActor { metaController, _ in try factory(metaController) },
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
        store(FactoryRegistration.mainActor(factory), for: FactoryKey(type, argument, name: name))
    }

    /// Registers a factory whose product is made once, on first request, and
    /// shared by every later request.
    ///
    /// The shared product is made with this MetaController (not with a child
    /// that requests it), so one child's overrides never leak into what the
    /// others share. Concurrent first requests still make it once: the first
    /// runs the factory and the others wait for its product.
    ///
    /// Because of that wait, two shared factories that need each other, first
    /// requested at the same moment from two threads, wait for each other
    /// forever. Requested on one thread, the same circle throws
    /// ``MetaControllerError/Code/circularFactories``. Shared products should
    /// not depend on each other in a circle.
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
        store(FactoryRegistration.shared(factory), for: FactoryKey(type, Void.self, name: name))
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
    /// - Returns: A new product, or the shared one for ``registerShared(_:name:factory:)``.
    /// - Throws: ``MetaControllerError`` when no factory is registered
    ///   (``MetaControllerError/Code/missingFactory``), factories request each
    ///   other in a circle (``MetaControllerError/Code/circularFactories``) or a
    ///   main-actor factory is asked from outside the main actor
    ///   (``MetaControllerError/Code/notOnMainActor``); otherwise whatever the
    ///   factory throws.
    public func make<Product>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) throws -> Product {
        try make(type, name: name, argument: (), isolation: isolation)
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
        let key = FactoryKey(type, Argument.self, name: name)
        // Here first, apart from the walk up the parents: a request answered
        // here retains no MetaController.
        if let found = state.withLock({ $0.factory(key) }) {
            return try Self.product(of: found, key: key, owner: self, requester: self, argument: argument, isolation: isolation)
        }
        var owner = parent
        while let current = owner {
            if let found = current.state.withLock({ $0.factory(key) }) {
                return try Self.product(
                    of: found, key: key, owner: current, requester: self, argument: argument, isolation: isolation)
            }
            owner = current.parent
        }
        throw MetaControllerError.missingFactory(key)
    }

    /// The product of what was found under `key`: the shared product made
    /// earlier, or what the registration makes.
    @inline(__always)
    private static func product<Argument, Product>(
        of found: FactorySlot, key: FactoryKey, owner: MetaController, requester: MetaController, argument: Argument,
        isolation: (any Actor)?
    ) throws -> Product {
        // No `Product?` anywhere on this path: in generic code an optional of
        // a type parameter looks up `Optional<Product>`'s metadata.
        switch found {
        case .madeObject(let object):
            // Stored only when `Product` is a class type (``FactorySlot/holding(_:)``).
            return unsafeBitCast(object, to: Product.self)
        case .made(let made):
            // Stored under a key made from `Product`: the cast cannot fail.
            return made.product as! Product
        case .registration(let registration):
            // Stored under a key made from the same two types, so it is of this
            // class: the cast is unchecked (a check would be a pointer
            // comparison, but needs the generic class's metadata looked up).
            return try unsafeDowncast(registration, to: FactoryRegistration<Argument, Product>.self).product(
                key: key, owner: owner, requester: requester, argument: argument, isolation: isolation)
        }
    }

    private func store(_ registration: some AnyObject & Sendable, for key: FactoryKey) {
        // The replaced registration (or a shared product made) is returned and
        // released after the lock is.
        _ = state.withLock { $0.setFactory(.registration(registration), for: key) }
    }

    /// Stores the product a shared factory made under `key`, in place of its
    /// registration `old`, unless `old` was replaced already (registered again since).
    func replaceFactory<Product: Sendable>(_ old: some AnyObject & Sendable, for key: FactoryKey, withMade product: Product) {
        let made = FactorySlot.holding(product)
        // The replaced registration is returned and released after the lock is.
        _ = state.withLock { state -> FactorySlot? in
            guard case .registration(let current) = state.factory(key), current === old else { return nil }
            return state.setFactory(made, for: key)
        }
    }
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
}
