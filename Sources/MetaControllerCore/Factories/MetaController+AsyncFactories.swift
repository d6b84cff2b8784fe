import Dispatch

extension MetaController {
    /// Registers an async factory that makes a new `Product` every time one is requested.
    ///
    /// Use it for a product that takes time to make: a screen model that
    /// loads before it is shown, a client that reads its token first. Choose
    /// it by writing `await` in the closure (or `async` before `in`). Request
    /// its product with ``product(_:name:isolation:)``; a synchronous
    /// ``make(_:name:isolation:)`` of it throws ``MetaControllerError/Code/asyncFactory``.
    ///
    /// ```swift
    /// metaController.register(OrderHistory.self) { metaController in
    ///     try await OrderHistory.load(from: metaController.apiController)
    /// }
    /// let history = try await metaController.product(OrderHistory.self)
    /// ```
    ///
    /// The factory runs as part of the task that requested the product (in a
    /// child task of it, with its task-local values), so cancelling that task cancels it. Mark the closure `@MainActor` to make the product
    /// on the main actor: an async request from anywhere hops there.
    ///
    /// - Parameters:
    ///   - type: The type to register, often a protocol or a base class.
    ///   - name: A name that tells variants of one type apart.
    ///   - factory: Makes the product. It runs outside every lock, so it may request other products.
    public func register<Product: Sendable>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        factory: @escaping @Sendable (MetaController) async throws -> Product
    ) {
        store(
            .asyncRegistration(
                AsyncFactoryRegistration<Void, Product>.perRequest { metaController, _ in try await factory(metaController) }),
            for: FactoryKey(type, Void.self, name: name))
    }

    /// Registers an async factory that makes a new `Product` from an argument every time one is requested.
    ///
    /// ```swift
    /// metaController.register(OrderScreenModel.self, argument: Order.ID.self) { metaController, id in
    ///     try await OrderScreenModel(loading: id, from: metaController.apiController)
    /// }
    /// let model = try await metaController.product(OrderScreenModel.self, argument: id)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to register.
    ///   - name: A name that tells variants of one type apart.
    ///   - argument: The type of the argument ``product(_:name:argument:isolation:)`` passes.
    ///   - factory: Makes the product from the requesting MetaController and the argument.
    public func register<Product: Sendable, Argument: Sendable>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        argument: Argument.Type,
        factory: @escaping @Sendable (MetaController, Argument) async throws -> Product
    ) {
        store(
            .asyncRegistration(AsyncFactoryRegistration.perRequest(factory)),
            for: FactoryKey(type, argument, name: name))
    }

    /// Registers an async factory that makes a new `Product` from an argument,
    /// with a sample argument that a verification makes a product from.
    ///
    /// ```swift
    /// metaController.register(OrderScreenModel.self, argument: Order.ID.self, sample: Order.ID(1)) { metaController, id in
    ///     try await OrderScreenModel(loading: id, from: metaController.apiController)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to register.
    ///   - name: A name that tells variants of one type apart.
    ///   - argument: The type of the argument ``product(_:name:argument:isolation:)`` passes.
    ///   - sample: An argument to make a product from when the graph is verified.
    ///   - factory: Makes the product from the requesting MetaController and the argument.
    public func register<Product: Sendable, Argument: Sendable>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        argument: Argument.Type,
        sample: Argument,
        factory: @escaping @Sendable (MetaController, Argument) async throws -> Product
    ) {
        store(
            .asyncRegistration(AsyncFactoryRegistration.perRequest(factory, sample: sample)),
            for: FactoryKey(type, argument, name: name))
    }

    /// Registers an async factory whose product is made once, on first
    /// request, and shared by every later request.
    ///
    /// For a service that must finish setting up before anyone uses it: a
    /// database that opens its file and migrates, a session that refreshes its
    /// token. Nobody gets a half-ready object, and no thread is blocked while it is made.
    ///
    /// ```swift
    /// metaController.registerShared(Database.self) { _ in
    ///     try await Database.open(at: databaseURL)
    /// }
    /// let database = try await metaController.product(Database.self)
    /// ```
    ///
    /// The product is made with this MetaController, by one construction,
    /// however many tasks request it at the same moment: the others wait for
    /// it, without blocking a thread, and get the same instance. The
    /// construction runs in a task of its own, not in the task of the request
    /// that started it:
    /// - When the factory throws, every request waiting for that construction
    ///   gets its error, nothing is kept, and the next request runs the factory again.
    /// - A request whose task is cancelled stops waiting at once and throws
    ///   `CancellationError`; the others keep waiting and get the product, or
    ///   the construction's own error (never another task's cancellation).
    ///   The construction goes on when every request waiting is cancelled, and
    ///   its product is kept for the next request.
    /// - When the MetaController is ``reset()`` while the product is made, the
    ///   requests already waiting get it, but it is not kept: a request after
    ///   the reset starts a construction of its own. Registering the type again
    ///   meanwhile does the same.
    /// - Shared factories that request each other in a circle throw
    ///   ``MetaControllerError/Code/circularFactories`` at once, in one task or
    ///   several, in one MetaController or along a chain of parents; every request
    ///   waiting for the constructions on the circle gets that error.
    ///
    /// Once made, the product is an ordinary shared product: a synchronous
    /// ``make(_:name:isolation:)`` returns it too (before it is made, that
    /// `make` throws ``MetaControllerError/Code/asyncFactory`` rather than wait).
    ///
    /// - Parameters:
    ///   - type: The type to register.
    ///   - name: A name that tells variants of one type apart.
    ///   - factory: Makes the product, once.
    public func registerShared<Product: Sendable>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        factory: @escaping @Sendable (MetaController) async throws -> Product
    ) {
        store(.asyncShared(making: factory), for: FactoryKey(type, Void.self, name: name))
    }

    /// Requests a `Product` from the factory registered for it here or in a
    /// parent, sync or async, waiting for it when it takes time to make.
    ///
    /// ```swift
    /// let database = try await metaController.product(Database.self)
    /// ```
    ///
    /// It answers every registration ``make(_:name:isolation:)`` answers, the
    /// same way, and async ones too: a shared product already made is handed
    /// back without suspending; a shared async product being made is waited
    /// for (see the async `registerShared(_:name:factory:)`); a main-actor factory
    /// asked from off the main actor is made on the main actor, and the call
    /// comes back to the caller's actor with it.
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The variant's name, or `nil` for the unnamed one.
    ///   - isolation: The caller's actor; leave the default.
    /// - Returns: A new product, or the shared one.
    /// - Throws: ``MetaControllerError`` when no factory is registered
    ///   (``MetaControllerError/Code/missingFactory``) or factories request each
    ///   other in a circle (``MetaControllerError/Code/circularFactories``);
    ///   `CancellationError` when the task is cancelled while it waits for a
    ///   shared construction; otherwise whatever the factory throws.
    @inlinable
    public func product<Product>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Product {
        // A shared object made is handed back as `make` hands it back: one lookup, no cast.
        if name == nil, MemoryLayout<Product>.size == MemoryLayout<AnyObject>.size, let object = madeObject(type) {
            return unsafeBitCast(object, to: Product.self)
        }
        return try await product(type, name: name, argument: (), isolation: isolation)
    }

    /// The shared object made for `type` alone here; `nil` for anything else.
    @usableFromInline
    func madeObject(_ type: Any.Type) -> AnyObject? {
        state.withLock { state in
            if case .madeObject(let object)? = state.typeFactories[TypeKey(ObjectIdentifier(type))] { return object }
            return nil
        }
    }

    /// Requests a `Product` made from `argument` by the factory registered for
    /// it here or in a parent, sync or async, waiting for it when it takes time to make.
    ///
    /// ```swift
    /// let model = try await metaController.product(OrderScreenModel.self, argument: id)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The variant's name, or `nil` for the unnamed one.
    ///   - argument: Passed to the factory.
    ///   - isolation: The caller's actor; leave the default.
    /// - Returns: A new product.
    /// - Throws: As ``product(_:name:isolation:)`` does.
    public func product<Product, Argument>(
        _ type: Product.Type = Product.self,
        name: String? = nil,
        argument: Argument,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Product {
        let key = FactoryKey(type, Argument.self, name: name)
        // An async verification running in this task (``verification(consumers:samples:)``): it claims no
        // shared factory, makes each product once for itself, and records what fails.
        let frame = AsyncVerificationFrame.active
        var owner: MetaController? = self
        while let current = owner {
            if let found = current.state.withLock({ frame == nil ? $0.claimAsync(key) : $0.lookUpVerifying(key, frame: frame.unsafelyUnwrapped) }) {
                // A stand-in of a verification that draws a graph: the request is an edge.
                if current !== self, let requestLog { requestLog.requested(key, found: true) }
                return try await asyncProduct(
                    of: found, type, key: key, owner: current, argument: argument, isolation: isolation, frame: frame)
            }
            owner = current.parent
        }
        if let requestLog { requestLog.requested(key, found: false) }
        let error = MetaControllerError.missingFactory(key)
        frame?.fail(FactoryVerification.Failure(kind: .missingFactory, chain: frame.map { $0.path + [key] } ?? [], message: error.description))
        throw FactoryConstruction.failing(error, key)
    }

    /// The product of what an async request to this MetaController found under `key` in `owner`.
    private func asyncProduct<Argument, Product>(
        of found: AsyncLookup, _ type: Product.Type, key: FactoryKey, owner: MetaController, argument: Argument,
        isolation: isolated (any Actor)?, frame: AsyncVerificationFrame?
    ) async throws -> Product {
        switch found {
        case .registration(let registration):
            return try await unsafeDowncast(registration, to: AsyncFactoryRegistration<Argument, Product>.self).product(
                key: key, requester: self, argument: argument, isolation: isolation, frame: frame)
        case .verifyingAsyncShared(let factory, let frame):
            return try await frame.run.sharedAsyncProduct(of: factory, key: key, owner: owner, from: frame)
                .madeProduct(as: Product.self)
        case .verifyingShared(let factory, let frame):
            return try frame.run.section(from: frame) { run in
                try run.sharedProduct(of: factory, key: key, owner: owner)
            }.madeProduct(as: Product.self)
        case .sync(.found(.registration(let registration))) where frame != nil:
            let registration = unsafeDowncast(registration, to: FactoryRegistration<Argument, Product>.self)
            if let hop = registration.hop, isolation !== MainActor.shared {
                return try await hop(key, self, argument, isolation, frame)
            }
            // A synchronous factory asked by an async one: verified as `verify` verifies it, on this thread.
            let frame = frame.unsafelyUnwrapped
            return try frame.run.section(from: frame) { _ in
                try registration.product(key: key, requester: self, argument: argument, isolation: isolation)
            }
        case .claimed(let build):
            owner.construct(build, outer: AsyncFactoryChain.innermost)
            return try await sharedProduct(of: build, key: key)
        case .wait(let build):
            return try await sharedProduct(of: build, key: key)
        case .sync(.found(.registration(let registration))):
            let registration = unsafeDowncast(registration, to: FactoryRegistration<Argument, Product>.self)
            if let hop = registration.hop, isolation !== MainActor.shared {
                return try await hop(key, self, argument, isolation, nil)
            }
            return try registration.product(key: key, requester: self, argument: argument, isolation: isolation)
        case .sync(.wait(let waiters, _)):
            // A synchronous request makes it on another thread: wait without blocking this one, then look again.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                waiters.notify(queue: .global()) { done.resume() }
            }
            return try await product(type, name: key.name, argument: argument, isolation: isolation)
        case .sync(let lookup):
            return try product(of: lookup, type, key: key, owner: owner, argument: argument, isolation: isolation)
        }
    }

    /// The product of the shared construction `build`, waited for.
    private func sharedProduct<Product>(of build: AsyncSharedBuild, key: FactoryKey) async throws -> Product {
        let chain = AsyncFactoryChain.innermost
        // The construction is this request's own caller: waiting would never end.
        if let chain, chain.isInside(build) {
            throw MetaControllerError.circularFactories(chain.path(from: build) + [key])
        }
        return try await AsyncSharedWaits.wait(for: build, by: chain).madeProduct(as: Product.self)
    }

    /// Starts the construction `build` of a shared product registered here,
    /// in a task of its own that inherits the caller's task-local values.
    private func construct(_ build: AsyncSharedBuild, outer: AsyncFactoryChain?) {
        Task {
            let result: Result<FactorySlot, any Error>
            do {
                result = .success(try await AsyncFactoryChain.constructing(build, outer: outer) { try await build.factory(self) })
            } catch {
                result = .failure(error)
            }
            finishAsyncBuild(build, with: result)
        }
    }

    /// Ends the construction `build`: stores its product when its slot still
    /// holds it (no reset, no new registration meanwhile) or puts its factory
    /// back after a failure, then hands the outcome to the requests waiting.
    func finishAsyncBuild(_ build: AsyncSharedBuild, with result: Result<FactorySlot, any Error>) {
        state.withLock { state in
            let stored = state.modifyFactory(build.key) { slot -> Bool in
                guard case .asyncBuilding(let building)? = slot, building === build else { return false }
                switch result {
                case .success(let made):
                    slot = made
                    return true
                case .failure:
                    slot = .asyncShared(build.factory)
                    return false
                }
            }
            if stored { state.madeShared.append(MadeSharedFactory(key: build.key, unmade: .asyncShared(build.factory))) }
        }
        build.finish(with: result)
    }
}

extension MetaController {
    /// Whether a request waits for the synchronous build of the shared product of `key` here (a seam for tests).
    func isAwaited(_ key: FactoryKey) -> Bool {
        state.withLock { state in
            if case .awaited? = state.factory(key) { return true }
            return false
        }
    }

    /// The construction under way of the shared async product of `key` here, if any (a seam for tests).
    func asyncConstruction(_ key: FactoryKey) -> AsyncSharedBuild? {
        state.withLock { state in
            if case .asyncBuilding(let build)? = state.factory(key) { return build }
            return nil
        }
    }
}

/// What an async request found under its key in one MetaController.
enum AsyncLookup {
    /// What a synchronous request finds: it is answered the same way.
    case sync(FactoryLookup)
    /// An async registration.
    case registration(any AnyObject & Sendable)
    /// A shared async factory whose construction this request starts.
    case claimed(AsyncSharedBuild)
    /// A shared async product under construction: wait for it.
    case wait(AsyncSharedBuild)
    /// A shared async factory whose product is not made, requested while an
    /// async verification runs in this task: the verification makes a product
    /// of its own, and the MetaController keeps none.
    case verifyingAsyncShared(FactorySlot.AsyncSharedFactory, AsyncVerificationFrame)
    /// The same for a shared synchronous factory.
    case verifyingShared(FactorySlot.SharedFactory, AsyncVerificationFrame)
}

extension MetaController.State {
    /// What an async request of `key` finds here: a shared async factory not
    /// made yet is claimed for a construction this request starts; the rest as
    /// ``claimFactory(_:)`` finds it.
    mutating func claimAsync(_ key: FactoryKey) -> AsyncLookup? {
        let async = modifyFactory(key) { slot -> AsyncLookup? in
            switch slot {
            case .asyncRegistration(let registration)?:
                return .registration(registration)
            case .asyncShared(let factory)?:
                let build = AsyncSharedBuild(key: key, factory: factory)
                slot = .asyncBuilding(build)
                return .claimed(build)
            case .asyncBuilding(let build)?:
                return .wait(build)
            case .made?, .madeObject?, .registration?:
                return .sync(.found(slot.unsafelyUnwrapped))
            case .shared?, .building?, .awaited?, nil:
                return nil
            }
        }
        if let async { return async }
        return claimFactory(key).map { .sync($0) }
    }

    /// What a request of `key` made in an async verification (`frame`) finds
    /// here: as ``claimAsync(_:)``, but a shared factory whose product is not
    /// made is left as it is, for the verification to make a product of its own.
    mutating func lookUpVerifying(_ key: FactoryKey, frame: AsyncVerificationFrame) -> AsyncLookup? {
        switch factory(key) {
        case .asyncShared(let factory)?: .verifyingAsyncShared(factory, frame)
        case .shared(let factory)?: .verifyingShared(factory, frame)
        default: claimAsync(key)
        }
    }
}
