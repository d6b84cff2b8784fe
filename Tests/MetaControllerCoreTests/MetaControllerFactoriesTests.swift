import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// Two factories that request each other.
final class Chicken: Sendable {}
final class Egg: Sendable {}

struct MetaControllerFactoriesTests {
    @Test func registerMakesANewProductEveryTime() throws {
        let metaController = MetaController()
        metaController.register(DetailScreen.self) { _ in DetailScreen() }
        let first = try metaController.make(DetailScreen.self)
        let second = try metaController.make(DetailScreen.self)
        #expect(first !== second)
    }

    @Test func registerSharedMakesOneProduct() throws {
        let metaController = MetaController()
        let made = Counter()
        metaController.registerShared(ImageCache.self) { _ in
            made.increment()
            return ImageCache()
        }
        #expect(made.value == 0)   // made on first request, not on registration
        let first = try metaController.make(ImageCache.self)
        let second = try metaController.make(ImageCache.self)
        #expect(first === second)
        #expect(made.value == 1)
    }

    @Test func concurrentFirstRequestsMakeTheSharedProductOnce() async throws {
        let metaController = MetaController()
        let made = Counter()
        metaController.registerShared(ImageCache.self) { _ in
            made.increment()
            return ImageCache()
        }
        let identifiers = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<16 {
                group.addTask { (try? metaController.make(ImageCache.self)).map(ObjectIdentifier.init) }
            }
            return await group.reduce(into: Set<ObjectIdentifier?>()) { $0.insert($1) }
        }
        #expect(identifiers.count == 1)
        #expect(identifiers.first! != nil)
        #expect(made.value == 1)
    }

    @Test func namedVariantsAreSeparate() throws {
        let metaController = MetaController()
        metaController.register(DetailScreen.self) { _ in DetailScreen(variant: "A") }
        metaController.register(DetailScreen.self, name: "B") { _ in DetailScreen(variant: "B") }
        #expect(try metaController.make(DetailScreen.self).variant == "A")
        #expect(try metaController.make(DetailScreen.self, name: "B").variant == "B")
        #expect(throws: MetaControllerError.self) { try metaController.make(DetailScreen.self, name: "C") }
    }

    @Test func factoriesTakeAnArgument() throws {
        let metaController = MetaController()
        metaController.register(DetailScreen.self, argument: Item.self) { _, item in DetailScreen(item: item) }
        let detail = try metaController.make(DetailScreen.self, argument: Item(id: 7))
        #expect(detail.item == Item(id: 7))
        // The argument type is part of the registration.
        let error = #expect(throws: MetaControllerError.self) { try metaController.make(DetailScreen.self) }
        #expect(error?.code == .missingFactory)
    }

    @Test func factoriesOfOneTypeWithDifferentArgumentsAreSeparate() throws {
        let metaController = MetaController()
        metaController.register(DetailScreen.self, argument: Item.self) { _, item in DetailScreen(item: item, variant: "item") }
        metaController.register(DetailScreen.self, argument: Int.self) { _, id in DetailScreen(item: Item(id: id), variant: "id") }
        metaController.register(DetailScreen.self) { _ in DetailScreen(variant: "none") }
        #expect(try metaController.make(DetailScreen.self, argument: Item(id: 1)).variant == "item")
        #expect(try metaController.make(DetailScreen.self, argument: 2).variant == "id")
        #expect(try metaController.make(DetailScreen.self, argument: 2).item == Item(id: 2))
        #expect(try metaController.make(DetailScreen.self).variant == "none")
        let error = #expect(throws: MetaControllerError.self) { try metaController.make(DetailScreen.self, argument: "text") }
        #expect(error?.description == "no factory makes DetailScreen from String; register one with register(_:name:argument:factory:)")
    }

    @Test func errorsNameGenericAndNestedTypes() {
        struct Nested {}
        let metaController = MetaController()
        let error = #expect(throws: MetaControllerError.self) {
            try metaController.make([Nested].self, name: "list", argument: Optional(Item(id: 1)))
        }
        #expect(error?.description == #"no factory makes Array<Nested> named "list" from Optional<Item>; register one with register(_:name:argument:factory:)"#)
    }

    @Test func namedSharedVariantsAreSeparateAndEachShared() throws {
        let metaController = MetaController()
        metaController.registerShared(ImageCache.self) { _ in ImageCache() }
        metaController.registerShared(ImageCache.self, name: "thumbnails") { _ in ImageCache() }
        let plain = try metaController.make(ImageCache.self)
        let thumbnails = try metaController.make(ImageCache.self, name: "thumbnails")
        #expect(plain !== thumbnails)
        #expect(try metaController.make(ImageCache.self) === plain)
        #expect(try metaController.make(ImageCache.self, name: "thumbnails") === thumbnails)
    }

    @Test func registeringASharedFactoryAgainAfterItsProductWasMadeReplacesTheProduct() throws {
        let metaController = MetaController()
        metaController.registerShared(ImageCache.self) { _ in ImageCache() }
        let first = try metaController.make(ImageCache.self)
        metaController.registerShared(ImageCache.self) { _ in ImageCache() }
        let second = try metaController.make(ImageCache.self)
        #expect(second !== first)
        #expect(try metaController.make(ImageCache.self) === second)
        metaController.register(ImageCache.self) { _ in ImageCache() }
        #expect(try metaController.make(ImageCache.self) !== second)
    }

    @Test func aSharedProductReachedThroughAChildIsMadeOnce() throws {
        let production = MetaController()
        let made = Counter()
        production.registerShared(ImageCache.self) { _ in
            made.increment()
            return ImageCache()
        }
        let child = MetaController(parent: production)
        let fromChild = try child.make(ImageCache.self)
        #expect(try production.make(ImageCache.self) === fromChild)
        #expect(try child.make(ImageCache.self) === fromChild)
        #expect(made.value == 1)
    }

    /// "A child MetaController finds its parent's factories, and its own
    /// registrations hide the parent's for it alone": through every level of a
    /// chain, not only the first, for each kind of registration.
    @Test func aRequestFindsFactoriesAnyNumberOfLevelsUpAndTheNearestHidesTheRest() throws {
        let root = MetaController()
        root.register(String.self) { _ in "root" }
        root.register(String.self, name: "named") { _ in "root named" }
        root.register(String.self, argument: Int.self) { _, number in "root \(number)" }
        root.registerShared(ImageCache.self) { _ in ImageCache() }
        let middle = MetaController(parent: root)
        let overriding = MetaController(parent: middle)
        overriding.register(String.self) { _ in "overriding" }
        let leaf = MetaController(parent: MetaController(parent: overriding))
        let sibling = MetaController(parent: MetaController(parent: middle))
        #expect(try leaf.make(String.self) == "overriding")
        #expect(try sibling.make(String.self) == "root")
        #expect(try middle.make(String.self) == "root")
        for scope in [leaf, sibling] {
            #expect(try scope.make(String.self, name: "named") == "root named")
            #expect(try scope.make(String.self, argument: 3) == "root 3")
            #expect(try scope.make(ImageCache.self) === root.make(ImageCache.self))
        }
        #expect(throws: MetaControllerError.self) { try leaf.make(String.self, name: "nowhere") }
    }

    @Test func circularSharedFactoriesThrow() {
        let metaController = MetaController()
        metaController.registerShared(Chicken.self) { metaController in
            _ = try metaController.make(Egg.self)
            return Chicken()
        }
        metaController.registerShared(Egg.self) { metaController in
            _ = try metaController.make(Chicken.self)
            return Egg()
        }
        let error = #expect(throws: MetaControllerError.self) { try metaController.make(Chicken.self) }
        #expect(error?.description == "circular factories: Chicken -> Egg -> Chicken")
    }

    @Test func aNonConsumerProductIsReturnedAsMade() throws {
        let metaController = MetaController()
        let cache = ImageCache()
        metaController.register(ImageCache.self) { _ in cache }
        metaController.register(Int.self) { _ in 42 }
        #expect(try metaController.make(ImageCache.self) === cache)
        #expect(try metaController.make(Int.self) == 42)
    }

    @Test func missingFactoryNamesTheTypeNameAndArgument() {
        let metaController = MetaController()
        let plain = #expect(throws: MetaControllerError.self) { try metaController.make(DetailScreen.self) }
        #expect(plain?.code == .missingFactory)
        #expect(plain?.description == "no factory makes DetailScreen; register one with register(_:name:factory:)")
        let full = #expect(throws: MetaControllerError.self) {
            try metaController.make(DetailScreen.self, name: "B", argument: Item(id: 1))
        }
        #expect(full?.description == #"no factory makes DetailScreen named "B" from Item; register one with register(_:name:argument:factory:)"#)
    }

    @Test func circularFactoriesThrowInsteadOfOverflowingTheStack() {
        let metaController = MetaController()
        metaController.register(Chicken.self) { metaController in
            _ = try metaController.make(Egg.self)
            return Chicken()
        }
        metaController.register(Egg.self) { metaController in
            _ = try metaController.make(Chicken.self)
            return Egg()
        }
        let error = #expect(throws: MetaControllerError.self) { try metaController.make(Chicken.self) }
        #expect(error?.code == .circularFactories)
        #expect(error?.description == "circular factories: Chicken -> Egg -> Chicken")
    }

    @Test func aSharedFactoryThatRequestsItselfThrowsInsteadOfDeadlocking() {
        let metaController = MetaController()
        metaController.registerShared(ImageCache.self) { metaController in
            _ = try metaController.make(ImageCache.self)
            return ImageCache()
        }
        let error = #expect(throws: MetaControllerError.self) { try metaController.make(ImageCache.self) }
        #expect(error?.code == .circularFactories)
        // A failed first request leaves nothing half made: the next one runs the factory again.
        #expect(throws: MetaControllerError.self) { try metaController.make(ImageCache.self) }
    }

    @Test func factoryErrorsReachTheCaller() {
        struct OutOfStock: Error {}
        let metaController = MetaController()
        metaController.register(DetailScreen.self) { _ in throw OutOfStock() }
        #expect(throws: OutOfStock.self) { try metaController.make(DetailScreen.self) }
    }

    @Test func factoriesMayUseOtherFactories() throws {
        let metaController = MetaController()
        metaController.registerShared(ImageCache.self) { _ in ImageCache() }
        metaController.register(DetailScreen.self) { metaController in
            _ = try metaController.make(ImageCache.self)
            return DetailScreen()
        }
        _ = try metaController.make(DetailScreen.self)
    }

    @Test func aConsumerProductReceivesTheRequestingMetaController() throws {
        let production = MetaController.withFakes()
        production.register(DetailScreen.self) { _ in DetailScreen() }
        let child = MetaController(parent: production)
        child.apiController = FakeApiController()
        #expect(try production.make(DetailScreen.self).metaController === production)
        let fromChild = try child.make(DetailScreen.self)
        #expect(fromChild.metaController === child)
        #expect(fromChild.apiController === child.apiController)
    }

    @Test func aProductTheFactoryGaveAMetaControllerKeepsIt() throws {
        let metaController = MetaController.withFakes()
        let other = MetaController()
        metaController.register(DetailScreen.self) { _ in
            let screen = DetailScreen()
            screen.metaController = other
            return screen
        }
        #expect(try metaController.make(DetailScreen.self).metaController === other)
        #expect(metaController.fakeLogController?.entries.isEmpty == true)
    }

    @Test func aSharedProductIsMadeWithTheMetaControllerItIsRegisteredIn() throws {
        final class SharedService: MetaControllerConsumer, Sendable {
            private let reference = WeakMetaControllerReference()
            var metaController: MetaController? {
                get { reference.metaController }
                set { reference.metaController = newValue }
            }
        }
        let production = MetaController.withFakes()
        let seen = Lock<MetaController?>(nil)
        production.registerShared(SharedService.self) { metaController in
            seen.withLock { $0 = metaController }
            return SharedService()
        }
        let child = MetaController(parent: production)
        child.apiController = FakeApiController()
        let service = try child.make(SharedService.self)
        #expect(seen.withLock { $0 } === production)
        #expect(service.metaController === production)
        #expect(try production.make(SharedService.self) === service)
    }

    @Test func registeringAgainReplacesTheFactory() throws {
        let metaController = MetaController()
        metaController.register(DetailScreen.self) { _ in DetailScreen(variant: "old") }
        metaController.register(DetailScreen.self) { _ in DetailScreen(variant: "new") }
        #expect(try metaController.make(DetailScreen.self).variant == "new")
    }

    @Test func aChildsFactoryOverridesItsParentsAndLeavesItUntouched() throws {
        let production = MetaController()
        production.register(DetailScreen.self) { _ in DetailScreen(variant: "A") }
        let experiment = MetaController(parent: production)
        experiment.register(DetailScreen.self) { _ in DetailScreen(variant: "B") }
        #expect(try experiment.make(DetailScreen.self).variant == "B")
        #expect(try production.make(DetailScreen.self).variant == "A")
    }

    /// Docs/Performance.md, "Deep chains of factories": a 512 KiB stack holds
    /// about 75 levels of per-request factories in a debug build. A level that
    /// took more stack would crash this test.
    @Test func aChainOf60FactoriesIsMadeOnA512KiBStack() {
        final class Level: Sendable {}
        let depth = 60
        let metaController = MetaController()
        let runs = Counter()
        for level in 0..<depth {
            metaController.register(Level.self, name: "\(level)") { metaController in
                runs.increment()
                if level + 1 < depth { _ = try metaController.make(Level.self, name: "\(level + 1)") as Level }
                return Level()
            }
        }
        let made = onThread(stackBytes: 512 * 1024) {
            (try? metaController.make(Level.self, name: "0") as Level) != nil
        }
        #expect(made)
        #expect(runs.value == depth)
    }
}

@MainActor
final class MainActorDetailScreen: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
    let item: Item
    init(item: Item) { self.item = item }
}

struct MetaControllerMainActorFactoriesTests {
    @Test @MainActor func aMainActorFactoryMakesScreensOnTheMainActor() throws {
        let metaController = MetaController.withFakes()
        metaController.register(MainActorDetailScreen.self, argument: Item.self) { @MainActor _, item in
            MainActorDetailScreen(item: item)
        }
        metaController.register(MainActorDetailScreen.self, name: "first") { @MainActor _ in
            MainActorDetailScreen(item: Item(id: 1))
        }
        let screen = try metaController.make(MainActorDetailScreen.self, argument: Item(id: 3))
        #expect(screen.item == Item(id: 3))
        #expect(screen.metaController === metaController)
        #expect(try metaController.make(MainActorDetailScreen.self, name: "first").item == Item(id: 1))
    }

    @Test func aMainActorFactoryAskedOffTheMainThreadThrows() async {
        let metaController = MetaController()
        metaController.register(MainActorDetailScreen.self) { @MainActor _ in MainActorDetailScreen(item: Item(id: 1)) }
        let error = await Task.detached { () -> MetaControllerError? in
            do {
                _ = try metaController.make(MainActorDetailScreen.self)
                return nil
            } catch {
                return error as? MetaControllerError
            }
        }.value
        #expect(error?.code == .notOnMainActor)
        #expect(error?.description == "the factory of MainActorDetailScreen runs on the main actor; call make from the main actor")
    }
}
