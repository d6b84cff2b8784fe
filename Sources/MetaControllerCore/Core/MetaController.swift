import Dispatch

/// One object that holds an app's controllers and is handed down its object tree.
///
/// Build it once at launch, fill its slots, and pass it to the root of the
/// object tree. Every object that adopts ``MetaControllerConsumer`` reaches the
/// controllers through short accessors (`apiController`, `logController`, ...)
/// and passes the MetaController on to the objects it creates.
///
/// ```swift
/// let metaController = MetaController()
/// metaController.logController = AppLogController()
/// metaController.apiController = AppApiController()
/// metaController.passMetaController(to: rootScreen)
/// ```
///
/// ## The push on set
///
/// Setting a slot hands the MetaController to the new controller when that
/// controller is a ``MetaControllerConsumer``, so controllers reach each other:
/// an API controller logs through the log controller. Controllers should hold
/// their MetaController weakly (``WeakMetaControllerReference``) so that the
/// MetaController and its controllers do not keep each other alive.
///
/// ## Custom controllers
///
/// Apps add their own slots with a ``MetaControllerKey`` and
/// ``subscript(_:)``; see the Custom controllers article.
///
/// ## Scoped overrides
///
/// A MetaController made with ``init(parent:)`` answers from its own slots
/// and falls back to its parent for the rest, which it never changes.
///
/// ## Concurrency
///
/// A MetaController is `Sendable`: its slots can be read and set from any
/// thread. Controllers are called outside its lock, so a controller may read or
/// set slots from inside its own code.
public final class MetaController: Sendable {
    /// The MetaController this one falls back to for slots, custom controllers
    /// and factories it does not have itself; `nil` for a root MetaController.
    public let parent: MetaController?

    /// The event bus of this MetaController and everything it reaches.
    ///
    /// Unlike the controller slots it is always there: a MetaController makes
    /// its own bus, and a child made with ``init(parent:)`` shares its parent's,
    /// so events cross scoped overrides, unless it was given another with
    /// ``init(parent:signals:)``. Consumers reach it as `signals`.
    ///
    /// It is built in rather than a slot because controllers dispatch on it as
    /// part of their contract (a push arrived, the location changed): a bus
    /// that might be missing would drop those events silently. It needs no fake
    /// either: it is in-memory and synchronous, so a test listens to it directly.
    ///
    /// ```swift
    /// metaController.signals.dispatch(AppSignals.feedLoaded, items)
    /// ```
    public let signals: Signals

    @usableFromInline let state: Lock<State>

    /// Called when a consumer reads a slot this MetaController does not fill;
    /// `nil` except in the strict MetaControllers of MetaControllerTesting.
    let unfilledReadHandler: (@Sendable (_ consumer: String, _ slot: MetaControllerSlot) -> Void)?

    /// Called when a pass leaves a consumer with the MetaController of another
    /// scope (see ``passMetaController(to:replacingExisting:file:function:line:)``);
    /// `nil` except in the strict MetaControllers of MetaControllerTesting.
    let refusedPassHandler: (@Sendable (_ consumer: String, _ file: String, _ line: UInt) -> Void)?

    /// Called with each problem ``verify(consumers:samples:)`` finds; `nil`
    /// except in the strict MetaControllers of MetaControllerTesting.
    let verificationProblemHandler: (@Sendable (MetaControllerVerification.Problem) -> Void)?

    /// Which of their own values the keys put in an empty slot when it is read here
    /// (``MetaControllerKey/testValue`` or ``MetaControllerKey/previewValue``); `nil`, for
    /// none, except in the test and preview MetaControllers of MetaControllerTesting.
    /// Children inherit it.
    @usableFromInline let declaredValues: DeclaredValues?

    /// Where the requests made to this MetaController are recorded, for a
    /// graph (``MetaController/graph(consumers:samples:)``): set only in the
    /// stand-ins a verification that draws a graph makes; `nil` everywhere else.
    let requestLog: FactoryVerification?

    /// Whether this is a stand-in a verification made (or a child of one):
    /// a synchronous request to it from an async factory is verified too.
    let isScratch: Bool

    /// Creates an empty MetaController: every slot is `nil` until set, and it has a new event bus.
    public init() {
        parent = nil
        signals = Signals()
        state = Lock(State())
        unfilledReadHandler = nil
        refusedPassHandler = nil
        verificationProblemHandler = nil
        declaredValues = nil
        requestLog = nil
        isScratch = false
    }

    /// Creates an empty MetaController for MetaControllerTesting: it fills an empty slot,
    /// when it is read, with the value its key declares for `declaredValues`. With
    /// `declaredValues`, its bus records its dispatches (the last
    /// ``Signals/recordedDispatchLimit``), so that what a declared value listens to when it
    /// arrives it hears from this MetaController's first line (``declaredValue(_:)``), and
    /// `missedDispatches` is told when a payload fell out of the record before such a listener
    /// caught up; `signals` replaces that bus (for tests of the core). It calls
    /// `unfilledRead` with the consumer's type name and the slot whenever a consumer's
    /// accessor reads a slot that is `nil` (and its key declares no such value), and
    /// `refusedPass` whenever a pass leaves a consumer with the MetaController of another
    /// scope. Children inherit all of it; a handler left `nil` is not called.
    package init(
        declaredValues: DeclaredValues?,
        unfilledReadHandler unfilledRead: (@Sendable (_ consumer: String, _ slot: MetaControllerSlot) -> Void)? = nil,
        refusedPassHandler refusedPass: (@Sendable (_ consumer: String, _ file: String, _ line: UInt) -> Void)? = nil,
        verificationProblemHandler verificationProblem: (@Sendable (MetaControllerVerification.Problem) -> Void)? = nil,
        missedDispatchesHandler missedDispatches: (@Sendable (_ signal: String, _ listener: String?, _ missed: Int) -> Void)? = nil,
        signals: Signals? = nil
    ) {
        parent = nil
        if let signals {
            self.signals = signals
        } else if declaredValues != nil {
            self.signals = Signals(reportingMissed: missedDispatches)
        } else {
            self.signals = Signals()
        }
        state = Lock(State())
        unfilledReadHandler = unfilledRead
        refusedPassHandler = refusedPass
        verificationProblemHandler = verificationProblem
        self.declaredValues = declaredValues
        requestLog = nil
        isScratch = false
    }

    /// Creates a child of `parent` for a verification to make products with: a
    /// bus of its own, `unfilledRead` in place of the parent's strict handler, and
    /// `requestLog`, when given, told of every request that this child does not answer itself.
    init(
        scratchOf parent: MetaController,
        requestLog: FactoryVerification? = nil,
        unfilledReadHandler unfilledRead: @escaping @Sendable (_ consumer: String, _ slot: MetaControllerSlot) -> Void
    ) {
        self.parent = parent
        signals = Signals()
        state = Lock(State())
        unfilledReadHandler = unfilledRead
        refusedPassHandler = parent.refusedPassHandler
        verificationProblemHandler = nil
        declaredValues = parent.declaredValues
        self.requestLog = requestLog
        isScratch = true
    }

    /// Creates a MetaController that replaces some of `parent`'s controllers
    /// and falls back to `parent` for the rest.
    ///
    /// Reading a slot that is `nil` here reads the parent's. Setting a slot
    /// here never changes the parent, so a subtree, an A/B variant or a test
    /// can start from the production setup and swap one controller:
    ///
    /// ```swift
    /// let testing = MetaController(parent: production)
    /// testing.apiController = FakeApiController()
    /// testing.logController === production.logController   // true
    /// ```
    ///
    /// Controllers set here receive this MetaController; the parent's
    /// controllers keep talking to the parent's controllers. The child shares
    /// the parent's ``signals`` (``init(parent:signals:)`` gives it a bus of its
    /// own), and is strict when the parent is (a test MetaController of
    /// MetaControllerTesting that reports reads of empty slots).
    ///
    /// - Parameter parent: The MetaController to fall back to. The child keeps it alive.
    public convenience init(parent: MetaController) {
        self.init(parent: parent, signals: parent.signals)
    }

    /// Creates a MetaController that falls back to `parent` for the controllers
    /// it does not have, and dispatches on `signals` instead of the parent's bus.
    ///
    /// A server gives each request a scope with a new bus, so that what one
    /// request dispatches no other request hears:
    ///
    /// ```swift
    /// let request = MetaController(parent: app, signals: Signals())
    /// request.logController = RequestLogController(requestID: id)
    /// ```
    ///
    /// The child's ``signals`` is `signals`: its consumers and the controllers
    /// set on it dispatch and listen there, and so do its own children made
    /// with ``init(parent:)``. The controllers it falls back to keep the
    /// parent's bus, since they hold the parent: an app-wide
    /// ``FileDataController`` announces every save on the parent's bus,
    /// whichever request made it, and never on the request's. Listen on
    /// `parent.signals` for what the app-wide controllers dispatch.
    ///
    /// - Parameters:
    ///   - parent: The MetaController to fall back to. The child keeps it alive.
    ///   - signals: The child's event bus: a new `Signals()` for a bus of its
    ///     own, or one that a group of scopes shares.
    public init(parent: MetaController, signals: Signals) {
        self.parent = parent
        self.signals = signals
        state = Lock(State())
        unfilledReadHandler = parent.unfilledReadHandler
        refusedPassHandler = parent.refusedPassHandler
        verificationProblemHandler = parent.verificationProblemHandler
        declaredValues = parent.declaredValues
        requestLog = nil
        isScratch = parent.isScratch
    }

    /// What a consumer's accessor answers for a slot that is `nil`: `nil`,
    /// after telling the strict handler, when there is one, who read which slot.
    ///
    /// Reads made on a MetaController itself (its own accessors, or a reader's accessor such
    /// as `metaController.favoritesController`) are not reported, whichever the slot: test
    /// code reads its MetaController to look, not to use.
    @usableFromInline
    func unfilled<Value>(_ slot: @autoclosure () -> MetaControllerSlot, readBy consumer: Any.Type) -> Value? {
        if let unfilledReadHandler, consumer != MetaController.self {
            unfilledReadHandler(String(describing: consumer), slot())
        }
        return nil
    }

    // MARK: - Custom slots

    /// The controller stored under `key` (an app-defined key, or a built-in slot's
    /// such as ``ApiControllerKey``), or `nil` when there is none here or in a parent.
    ///
    /// Setting a value hands this MetaController to it when it is a consumer,
    /// as the built-in slots do; setting `nil` removes it from this MetaController
    /// (a parent's value shows through again). Consumers read the slot with
    /// their own subscript, ``MetaControllerReader/subscript(_:)``:
    ///
    /// ```swift
    /// enum UserControllerKey: MetaControllerKey {
    ///     typealias Value = any UserController
    /// }
    /// metaController[UserControllerKey.self] = AppUserController()
    /// ```
    @inlinable
    public subscript<Key: MetaControllerKey>(key: Key.Type) -> Key.Value? {
        // Inlinable, and the lock with it, so that the read is specialized in
        // the caller's code for the key's value: the box stored under a key is
        // always a `CustomSlot` of the key's value, so it is cast back without a
        // check (casting an `any Sendable` back to the key's value, an
        // existential usually, is a conformance lookup at run time), and the
        // value is copied out while the lock is held. Built-in slots are read
        // the same way (see CHANGELOG.md, "Performance history").
        get {
            let typeKey = TypeKey(ObjectIdentifier(key))
            if let found = firstInChain({ $0.slotValue(typeKey, as: Key.Value.self) }) { return found }
            // Out of line: only the test and preview MetaControllers make values for empty slots.
            return declaredValues == nil ? nil : declaredValue(key)
        }
        set {
            setCustomSlot(ObjectIdentifier(key), newValue.map { CustomSlot($0) }, pushingTo: newValue)
        }
    }

    /// The value `Key` declares for this MetaController's ``declaredValues``, put in the slot
    /// of the scope that asked for declared values (the topmost one in the chain) unless a
    /// value is there already, and then pushed this MetaController; the value in that slot,
    /// or `nil` when the key declares none.
    ///
    /// The key's value is made outside every lock, so it may read slots; when two threads
    /// read the empty slot at once, each may make one, and both get the one stored first.
    ///
    /// The value stored is pushed the MetaController inside ``Signals/catchingUp(_:)`` of the
    /// home's bus: a listener it adds there on this thread (in its `metaControllerDidArrive()`)
    /// first hears what was dispatched on its signal since the test MetaController was made,
    /// as if the value had been there from the start. A value that lost the race is never
    /// pushed, so it adds no listener and hears nothing twice.
    @usableFromInline
    func declaredValue<Key: MetaControllerKey>(_ key: Key.Type) -> Key.Value? {
        let made: Key.Value?
        switch declaredValues {
        case nil: return nil
        case .test?: made = Key.testValue
        case .preview?: made = Key.previewValue
        }
        guard let made else { return nil }
        var home = self
        while let parent = home.parent, parent.declaredValues != nil { home = parent }
        home.signals.catchUpSeams?.made()
        let typeKey = TypeKey(ObjectIdentifier(key))
        let stored: Key.Value? = home.state.withLock { state in
            if let existing = state.custom[typeKey] { return unsafeDowncast(existing, to: CustomSlot<Key.Value>.self).value }
            state.custom[typeKey] = CustomSlot(made)
            return nil
        }
        if let stored { return stored }
        home.signals.catchingUp { home.push(to: made) }
        return made
    }

    /// What `read` finds in this MetaController, or else in the nearest parent where it finds
    /// something; `nil` when none does.
    ///
    /// This one first, before any reference is taken to walk with: keeping `self` in a
    /// variable for the walk cost a retain and a release, half of a slot's read. Then a loop
    /// up the parents, not a recursion: a long chain of children must not need a stack frame
    /// per level.
    @inlinable @inline(__always)
    func firstInChain<Value>(_ read: (MetaController) -> Value??) -> Value? {
        if let found = read(self) { return found }
        var scope = parent
        while let current = scope {
            if let found = read(current) { return found }
            scope = current.parent
        }
        return nil
    }

    /// The value under `key` here: `nil` when there is none here, `.some(nil)` never.
    @inlinable @inline(__always)
    func slotValue<Value: Sendable>(_ key: TypeKey, as type: Value.Type) -> Value?? {
        state.withLock { state in state.custom[key].map { unsafeDowncast($0, to: CustomSlot<Value>.self).value } }
    }

    /// Stores or removes the box under a custom key, then pushes this MetaController to the new value.
    @usableFromInline
    func setCustomSlot(_ id: ObjectIdentifier, _ slot: (any AnyObject & Sendable)?, pushingTo value: Any?) {
        // The old value is returned and released after the lock is, so its
        // deinit may use this MetaController.
        _ = state.withLock { state in
            if let slot {
                state.custom.updateValue(slot, forKey: TypeKey(id))
            } else {
                state.custom.removeValue(forKey: TypeKey(id))
            }
        }
        if let value { push(to: value) }
    }

    // MARK: - Storage

    @usableFromInline
    struct State: Sendable {
        /// Every slot's value, in a box whose class names the value's type, by the key's type.
        @usableFromInline var custom: [TypeKey: any AnyObject & Sendable] = [:]
        /// Factories of a type alone (no name, no argument), by the type: most
        /// are such, and hashing a ``TypeKey`` is one multiplication, where a
        /// whole ``FactoryKey`` goes through `Hasher`.
        var typeFactories: [TypeKey: FactorySlot] = [:]
        /// Named factories and factories that take an argument.
        var factories: [FactoryKey: FactorySlot] = [:]
        /// The number of the last build of a shared product claimed here
        /// (``FactorySlot/building(_:)``).
        var lastBuild: UInt64 = 0
        /// The factory of each shared product made here, most recent last,
        /// for ``MetaController/reset()`` to put back in place of the product.
        ///
        /// Appended when a product is made, not kept from registering on: an
        /// append costs no hashing, and registering stays one insert. An entry
        /// whose key was registered again after its product was made is
        /// removed then (``setFactory(_:for:)``).
        var madeShared: [MadeSharedFactory] = []
        /// The builds under way when the scope was reset: their products are
        /// not kept (``finishBuild(_:for:storing:factory:)``).
        var staleBuilds: Set<UInt64> = []

        /// What is stored under `key`.
        @inline(__always)
        func factory(_ key: FactoryKey) -> FactorySlot? {
            key.isTypeAlone ? typeFactories[TypeKey(key.product)] : factories[key]
        }

        /// Runs `body` on the slot under `key` (`nil` when there is none;
        /// setting `nil` removes it), finding it once.
        @inline(__always)
        mutating func modifyFactory<Result>(_ key: FactoryKey, _ body: (inout FactorySlot?) -> Result) -> Result {
            key.isTypeAlone ? body(&typeFactories[TypeKey(key.product)]) : body(&factories[key])
        }

        /// What a request of `key` finds here; a shared factory not made yet
        /// is claimed for the request (its slot marked as building).
        @inline(__always)
        mutating func claimFactory(_ key: FactoryKey) -> FactoryLookup? {
            lastBuild &+= 1
            let build = lastBuild
            return modifyFactory(key) { slot in
                switch slot {
                case nil: nil
                case .registration?, .made?, .madeObject?: .found(slot.unsafelyUnwrapped)
                case .shared?, .building?, .awaited?: Self.claimShared(&slot, build: build)
                // Only an async request makes these; a synchronous one throws.
                case .asyncRegistration?, .asyncShared?, .asyncBuilding?: .found(slot.unsafelyUnwrapped)
                }
            }
        }

        /// ``claimFactory(_:)`` for a shared factory not made yet; a build
        /// claimed gets the number `build`.
        @inline(never)
        private static func claimShared(_ slot: inout FactorySlot?, build: UInt64) -> FactoryLookup? {
            switch slot {
            case .shared(let factory)?:
                // A verification makes a product of its own, and the slot stays as it is.
                if let verification = FactoryConstruction.verification { return .verifying(factory, verification) }
                if let frame = AsyncVerificationFrame.active { return .verifyingAsync(factory, frame) }
                slot = .building(build)
                return .claimed(factory, build: build)
            case .building(let building)?:
                let waiters = DispatchGroup()
                waiters.enter()
                slot = .awaited(SharedFactoryBuild(building, waiters: waiters))
                return .wait(waiters, build: building)
            case .awaited(let awaited)?:
                return .wait(awaited.waiters, build: awaited.number)
            case nil, .registration?, .made?, .madeObject?, .asyncRegistration?, .asyncShared?, .asyncBuilding?:
                return slot.map { .found($0) }
            }
        }

        /// Ends build number `build` under `key`, storing `new` (the product,
        /// or the factory again after a failure), unless the key was
        /// registered again meanwhile. A build the scope was reset during
        /// stores its factory again instead of its product.
        ///
        /// - Returns: What is released after unlocking (the slot replaced, or
        ///   the product not kept), and the requests waiting for the build, to wake.
        mutating func finishBuild(
            _ build: UInt64, for key: FactoryKey, storing new: FactorySlot, factory: @escaping FactorySlot.SharedFactory
        ) -> (released: FactorySlot?, waiters: DispatchGroup?) {
            var new = new
            var unkept: FactorySlot?
            if !staleBuilds.isEmpty, staleBuilds.remove(build) != nil {
                unkept = new
                new = .shared(factory)
            }
            let finished = modifyFactory(key) { slot -> (FactorySlot?, DispatchGroup?)? in
                switch slot {
                case .building(let building)? where building == build:
                    defer { slot = new }
                    return (slot, nil)
                case .awaited(let awaited)? where awaited.number == build:
                    defer { slot = new }
                    return (slot, awaited.waiters)
                default:
                    return nil
                }
            }
            guard let finished else { return (unkept, nil) }
            switch new {
            case .made, .madeObject: madeShared.append(MadeSharedFactory(key: key, unmade: .shared(factory)))
            case .registration, .shared, .building, .awaited, .asyncRegistration, .asyncShared, .asyncBuilding: break
            }
            return (unkept ?? finished.0, finished.1)
        }

        /// Stores `slot` under `key`. - Returns: What it replaces.
        @inline(__always)
        mutating func setFactory(_ slot: FactorySlot, for key: FactoryKey) -> FactorySlot? {
            let replaced =
                key.isTypeAlone
                ? typeFactories.updateValue(slot, forKey: TypeKey(key.product))
                : factories.updateValue(slot, forKey: key)
            switch replaced {
            case .made?, .madeObject?: madeShared.removeAll { $0.key == key }
            case .registration?, .shared?, .building?, .awaited?, .asyncRegistration?, .asyncShared?, .asyncBuilding?, nil:
                break
            }
            return replaced
        }

        /// Empties the slots and puts each shared factory back in place of its
        /// product; builds under way will not keep theirs.
        ///
        /// - Returns: The slots' values and the products, to release after unlocking.
        mutating func reset() -> (slots: [TypeKey: any AnyObject & Sendable], products: [FactorySlot]) {
            let slots = custom
            custom = [:]
            var products: [FactorySlot] = []
            // The most recent first: an earlier entry of the same key then finds the factory back, and stops.
            for made in madeShared.reversed() {
                modifyFactory(made.key) { slot in
                    switch slot {
                    case .made?, .madeObject?:
                        products.append(slot.unsafelyUnwrapped)
                        slot = made.unmade
                    case .shared?, .registration?, .building?, .awaited?, .asyncRegistration?, .asyncShared?,
                        .asyncBuilding?, nil:
                        break
                    }
                }
            }
            madeShared = []
            let underWay = typeFactories.values.compactMap(Self.build(in:)) + factories.values.compactMap(Self.build(in:))
            staleBuilds.formUnion(underWay)
            // An async construction under way goes on for the requests that
            // wait for it, but its slot holds the factory again at once: a
            // request of the new session starts a construction of its own,
            // and the old one's product does not land here (``MetaController/finishAsyncBuild(_:with:)``).
            for key in typeFactories.keys {
                if case .asyncBuilding(let building)? = typeFactories[key] {
                    typeFactories[key] = .asyncShared(building.factory)
                }
            }
            for key in factories.keys {
                if case .asyncBuilding(let building)? = factories[key] { factories[key] = .asyncShared(building.factory) }
            }
            return (slots, products)
        }

        /// The number of the build under way in `slot`, if any.
        private static func build(in slot: FactorySlot) -> UInt64? {
            switch slot {
            case .building(let build): build
            case .awaited(let awaited): awaited.number
            case .registration, .shared, .made, .madeObject, .asyncRegistration, .asyncShared, .asyncBuilding: nil
            }
        }
    }

    /// The `didSet` push: hands this MetaController to a controller that was
    /// just put in a slot. A controller that already holds another
    /// MetaController keeps it and the push warns (see ``passMetaController(to:replacingExisting:file:function:line:)``).
    private func push(to controller: Any) {
        guard let consumer = ConsumerTypes.consumer(controller) else { return }
        deliver(
            to: consumer, replacingExisting: false, checkRequirements: false,
            file: #fileID, function: #function, line: #line)
    }
}

/// Which of its own values a key puts in an empty slot of a MetaController that asks for
/// them (``MetaController/declaredValues``).
@usableFromInline
package enum DeclaredValues: Sendable {
    /// ``MetaControllerKey/testValue``: MetaControllerTesting's `withFakes()` and `strict(reporting:)`.
    case test
    /// ``MetaControllerKey/previewValue``: MetaControllerTesting's `preview(_:)`.
    case preview
}

/// A shared product's factory and key, as ``MetaController/State/madeShared`` keeps them.
///
/// A struct, not a tuple or the bare closure: a closure in an array's storage
/// is stored through a reabstraction thunk, one more allocation per entry.
struct MadeSharedFactory: Sendable {
    let key: FactoryKey
    /// What the slot holds again when the product is dropped: the shared factory, sync or async.
    let unmade: FactorySlot
}
