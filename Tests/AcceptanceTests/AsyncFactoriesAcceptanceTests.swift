import Foundation
import MetaController
import Testing

// Outside acceptance tests of the async factory API: `register` and `registerShared` with
// `async throws` factories, `product(_:name:)`, `product(_:name:argument:)` and
// `MetaControllerError.Code.asyncFactory`. Written from the doc comments of that API and the
// user docs only (Docs/), as a new user would write the code, plus hostile cases.
//
// Timing is made deterministic with gates (an async factory awaits a continuation the test
// resumes, and counts its arrivals); nothing sleeps. Waiting for a condition is a loop of
// `Task.yield()` bounded by a deadline, so a hang in the library is reported as a failure
// ("did not finish") instead of stopping the run.

// MARK: - Helpers

/// A value behind a lock.
final class AFLocked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    @discardableResult
    func mutate<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
}

extension AFLocked where Value == Int {
    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        mutate {
            $0 += 1; return $0
        }
    }
}

/// Holds every factory that passes it until the test opens it, and counts the arrivals.
/// Waiting here ignores cancellation on purpose: the factory stays where the test holds it.
final class AFGate: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    var arrivals: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if arrive(continuation) { continuation.resume() }
        }
    }

    private func arrive(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        if isOpen { return true }
        waiting.append(continuation)
        return false
    }

    func open() {
        lock.lock()
        isOpen = true
        let released = waiting
        waiting = []
        lock.unlock()
        for continuation in released { continuation.resume() }
    }
}

/// Waits, yielding, until `condition` holds; `false` when the deadline passes first.
func afUntil(
    within limit: Duration = .seconds(600),
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while !condition() {
        if clock.now >= deadline { return false }
        await Task.yield()
    }
    return true
}

/// Gives the tasks just started a chance to reach their first suspension.
func afLetOthersRun(_ times: Int = 200, isolation: isolated (any Actor)? = #isolation) async {
    for _ in 0..<times { await Task.yield() }
}

/// The outcome of `task`. (Lead: no deadline of its own any more. In the full `swift test`
/// run, 1,300 tests share two pool threads, and a 30-second deadline measured from a test's
/// start passed before its tasks were ever scheduled; a hang is caught by each test's time
/// limit instead.) Optional, so that the tests' `outcome != nil` checks read as before.
func afSettle<T: Sendable>(_ task: Task<T, any Error>, within _: Duration = .seconds(30)) async -> Result<T, any Error>? {
    await task.result
}

/// Many requests in tasks of their own, with counters of those started and finished.
final class AFRequests<T: Sendable>: @unchecked Sendable {
    private(set) var tasks: [Task<T, any Error>] = []
    let started = AFLocked(0)
    let finished = AFLocked(0)

    func start(_ count: Int = 1, _ body: @escaping @Sendable () async throws -> T) {
        let started = self.started, finished = self.finished
        for _ in 0..<count {
            tasks.append(
                Task {
                    started.increment()
                    defer { finished.increment() }
                    return try await body()
                })
        }
    }

    /// Requests made on the main actor: each runs up to its first suspension before the next.
    func startOnMainActor(_ count: Int = 1, _ body: @escaping @MainActor @Sendable () async throws -> T) {
        let started = self.started, finished = self.finished
        for _ in 0..<count {
            tasks.append(
                Task { @MainActor in
                    started.increment()
                    defer { finished.increment() }
                    return try await body()
                })
        }
    }

    /// Waits until every request started so far has reached its request.
    func allStarted() async -> Bool {
        let expected = tasks.count
        let ok = await afUntil { started.value == expected }
        await afLetOthersRun()
        return ok
    }

    func cancelAll() { for task in tasks { task.cancel() } }

    /// Every outcome, or `nil` when some request has not finished by the deadline (a hang).
    func results(within _: Duration = .seconds(30)) async -> [Result<T, any Error>]? {
        // (Lead: awaited without a deadline of its own; see afSettle.)
        var outcomes: [Result<T, any Error>] = []
        for task in tasks { outcomes.append(await task.result) }
        return outcomes
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

func afCode(_ error: (any Error)?) -> MetaControllerError.Code? { (error as? MetaControllerError)?.code }

func afIsCancellation(_ error: (any Error)?) -> Bool { error is CancellationError }

// MARK: - Products

final class AFProduct: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

final class AFOther: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

final class AFCircleA: Sendable {}
final class AFCircleB: Sendable {}
final class AFCircleC: Sendable {}

struct AFBoom: Error, Equatable { let round: Int }
struct AFRanAway: Error {}

/// The doc comment's `OrderHistory.load(from: metaController.apiController)`.
final class AFOrderHistory: Sendable {
    let loadedWithApi: Bool
    init(loadedWithApi: Bool) { self.loadedWithApi = loadedWithApi }

    static func load(from api: (any ApiController)?) async throws -> AFOrderHistory {
        await Task.yield()
        return AFOrderHistory(loadedWithApi: api != nil)
    }
}

/// The doc comment's `OrderScreenModel(loading: id, from: metaController.apiController)`.
final class AFOrderScreenModel: Sendable {
    let orderID: Int
    init(loading id: Int, from api: (any ApiController)?) async throws {
        await Task.yield()
        orderID = id
    }
}

/// The doc comment's `Database.open(at: databaseURL)`.
final class AFDatabase: Sendable {
    let url: URL
    private init(url: URL) { self.url = url }

    static func open(at url: URL) async throws -> AFDatabase {
        await Task.yield()
        return AFDatabase(url: url)
    }
}

/// Marks the main dispatch queue, the main actor's executor, so code can ask without crashing
/// whether it runs on it (`Thread.isMainThread` cannot tell: under `swift test` on Linux the main
/// queue is drained by a thread that is not the process's first one).
let afMainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Whether the caller runs on the main queue, that is on the main actor.
func afOnMainActor() -> Bool { DispatchQueue.getSpecific(key: afMainQueueKey) == true }

/// Records whether it was made on the main actor.
@MainActor final class AFScreen {
    let madeOnMainThread: Bool
    init() { madeOnMainThread = afOnMainActor() }
}

@MainActor final class AFSyncScreen {
    let madeOnMainThread: Bool
    let itemID: Int
    init(itemID: Int = 0) {
        madeOnMainThread = afOnMainActor()
        self.itemID = itemID
    }
}

/// A product that is a consumer.
final class AFConsumerProduct: WeakMetaControllerConsumer, Sendable {
    let metaControllerReference = WeakMetaControllerReference()
}

enum AFTrace {
    @TaskLocal static var label: String?
}

/// A background actor that asks for products.
actor AFBackgroundActor {
    func screen(from metaController: MetaController) async throws -> Bool {
        let screen = try await metaController.product(AFScreen.self)
        return screen.madeOnMainThread
    }

    func syncScreen(from metaController: MetaController) async throws -> Bool {
        let screen = try await metaController.product(AFSyncScreen.self)
        return screen.madeOnMainThread
    }

    func syncScreen(from metaController: MetaController, item: Int) async throws -> (Bool, Int) {
        let screen = try await metaController.product(AFSyncScreen.self, argument: item)
        return (screen.madeOnMainThread, screen.itemID)
    }

    func syncMake(from metaController: MetaController) -> MetaControllerError.Code? {
        do {
            _ = try metaController.make(AFSyncScreen.self)
            return nil
        } catch {
            return afCode(error)
        }
    }
}

// MARK: - Tests

@Suite struct AsyncFactoriesAcceptanceTests {
    // MARK: register: a new product per request

    @Test(.timeLimit(.minutes(5)))
    func anAsyncFactoryMakesANewProductEveryRequest() async throws {
        let metaController = MetaController()
        let runs = AFLocked(0)
        metaController.register(AFOrderHistory.self) { metaController in
            runs.increment()
            return try await AFOrderHistory.load(from: metaController.apiController)
        }
        let first = try await metaController.product(AFOrderHistory.self)
        let second = try await metaController.product(AFOrderHistory.self)
        #expect(first !== second)
        #expect(runs.value == 2)
    }

    @Test(.timeLimit(.minutes(5)))
    func writingAsyncBeforeInChoosesTheAsyncFactory() async throws {
        let metaController = MetaController()
        metaController.register(AFProduct.self) { _ async in AFProduct(serial: 7) }
        #expect(try await metaController.product(AFProduct.self).serial == 7)
        #expect(throws: MetaControllerError.self) { try metaController.make(AFProduct.self) }
        do {
            _ = try metaController.make(AFProduct.self)
        } catch {
            #expect(afCode(error) == .asyncFactory)
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aSynchronousMakeOfAnAsyncFactoryThrowsAsyncFactoryNamingWhatToCall() async throws {
        let metaController = MetaController()
        let runs = AFLocked(0)
        metaController.register(AFOrderHistory.self) { metaController in
            runs.increment()
            return try await AFOrderHistory.load(from: metaController.apiController)
        }
        let error = #expect(throws: MetaControllerError.self) { try metaController.make(AFOrderHistory.self) }
        #expect(error?.code == .asyncFactory)
        let description = error.map { "\($0)" } ?? ""
        #expect(description.contains("AFOrderHistory"), "\(description)")
        #expect(description.contains("product("), "the message names what to call: \(description)")
        #expect(runs.value == 0, "make does not run the async factory")
        #expect(MetaControllerError.Code.asyncFactory.description == "asyncFactory")
    }

    @Test(.timeLimit(.minutes(5)))
    func anAsyncFactoryWithAnArgument() async throws {
        let metaController = MetaController()
        metaController.register(AFOrderScreenModel.self, argument: Int.self) { metaController, id in
            try await AFOrderScreenModel(loading: id, from: metaController.apiController)
        }
        let model = try await metaController.product(AFOrderScreenModel.self, argument: 42)
        #expect(model.orderID == 42)
        let other = try await metaController.product(AFOrderScreenModel.self, argument: 42)
        #expect(model !== other, "a new product every time")

        let error = #expect(throws: MetaControllerError.self) {
            try metaController.make(AFOrderScreenModel.self, argument: 42)
        }
        #expect(error?.code == .asyncFactory)
        let description = error.map { "\($0)" } ?? ""
        #expect(description.contains("AFOrderScreenModel"), "\(description)")
        #expect(description.contains("product("), "the message names what to call: \(description)")

        await #expect(throws: MetaControllerError.self) {
            _ = try await metaController.product(AFOrderScreenModel.self, argument: "42")
        }
        do {
            _ = try await metaController.product(AFOrderScreenModel.self, argument: "42")
        } catch {
            #expect(afCode(error) == .missingFactory, "another argument type: \(error)")
        }
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func anAsyncFactoryWithASampleIsMadeFromItByAVerification() async throws {
        let metaController = MetaController()
        let seen = AFLocked<[Int]>([])
        metaController.register(AFOrderScreenModel.self, argument: Int.self, sample: 1) { _, id async throws in
            seen.mutate { $0.append(id) }
            return try await AFOrderScreenModel(loading: id, from: nil)
        }
        #expect(try await metaController.product(AFOrderScreenModel.self, argument: 5).orderID == 5)
        seen.mutate { $0 = [] }

        let report = await metaController.verification()
        #expect(seen.value == [1], "the verification makes a product from the sample")
        #expect(report.factoriesMade == 1, "\(report)")
        #expect(report.factoriesChecked == 1, "\(report)")
        #expect(report.isSatisfied, "\(report)")
        // (Lead, after the defect this test found: the synchronous verify no longer skips an
        // async registration silently; it reports it, and says to call verification.)
        seen.mutate { $0 = [] }
        let synchronous = metaController.verify()
        #expect(seen.value.isEmpty)
        #expect(synchronous.problems.map(\.kind) == [.asyncFactory], "\(synchronous)")
    }

    @Test(.timeLimit(.minutes(5)))
    func namedAsyncVariants() async throws {
        let metaController = MetaController()
        metaController.register(AFProduct.self, name: "short") { _ in
            await Task.yield()
            return AFProduct(serial: 1)
        }
        metaController.register(AFProduct.self, name: "long") { _ in
            await Task.yield()
            return AFProduct(serial: 2)
        }
        #expect(try await metaController.product(AFProduct.self, name: "short").serial == 1)
        #expect(try await metaController.product(AFProduct.self, name: "long").serial == 2)
        do {
            _ = try await metaController.product(AFProduct.self)
            Issue.record("the unnamed variant is not registered")
        } catch {
            #expect(afCode(error) == .missingFactory, "\(error)")
        }
        do {
            _ = try metaController.make(AFProduct.self, name: "long")
            Issue.record("make of an async factory returned")
        } catch {
            #expect(afCode(error) == .asyncFactory, "\(error)")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func theFactoryRunsWithTheRequestingTasksTaskLocalValues() async throws {
        let metaController = MetaController()
        let seen = AFLocked<[String?]>([])
        metaController.register(AFProduct.self) { _ in
            await Task.yield()
            seen.mutate { $0.append(AFTrace.label) }
            return AFProduct(serial: 1)
        }
        _ = try await AFTrace.$label.withValue("request-1") {
            try await metaController.product(AFProduct.self)
        }
        _ = try await metaController.product(AFProduct.self)
        #expect(seen.value == ["request-1", nil])
    }

    @Test(.timeLimit(.minutes(5)))
    func cancellingTheRequestingTaskCancelsAPerRequestFactory() async throws {
        let metaController = MetaController()
        let gate = AFGate()
        let sawCancellation = AFLocked<Bool?>(nil)
        metaController.register(AFProduct.self) { _ in
            await gate.pass()
            sawCancellation.mutate { $0 = Task.isCancelled }
            return AFProduct(serial: 1)
        }
        let request = Task { try await metaController.product(AFProduct.self) }
        let arrived = await afUntil { gate.arrivals == 1 }
        #expect(arrived, "the factory started")
        request.cancel()
        gate.open()
        let outcome = await afSettle(request)
        #expect(outcome != nil, "the request did not finish")
        #expect(sawCancellation.value == true, "the factory runs in a child task of the cancelled request")
    }

    @Test(.timeLimit(.minutes(5)))
    func anAsyncFactoryErrorReachesTheCallerUnchanged() async throws {
        let metaController = MetaController()
        metaController.register(AFProduct.self) { _ in
            await Task.yield()
            throw AFBoom(round: 3)
        }
        await #expect(throws: AFBoom(round: 3)) { _ = try await metaController.product(AFProduct.self) }
    }

    @Test(.timeLimit(.minutes(5)))
    func anAsyncFactoryMayRequestOtherProducts() async throws {
        let metaController = MetaController()
        metaController.register(AFOther.self) { _ in AFOther(serial: 5) }   // synchronous
        metaController.register(AFCircleB.self) { _ in
            await Task.yield()
            return AFCircleB()
        }
        metaController.registerShared(AFDatabase.self) { _ in
            try await AFDatabase.open(at: URL(fileURLWithPath: "/tmp/af.sqlite"))
        }
        metaController.register(AFProduct.self) { metaController in
            let other = try metaController.make(AFOther.self)
            let asyncOther = try await metaController.product(AFOther.self)
            _ = try await metaController.product(AFCircleB.self)
            _ = try await metaController.product(AFDatabase.self)
            return AFProduct(serial: other.serial + asyncOther.serial)
        }
        #expect(try await metaController.product(AFProduct.self).serial == 10)
    }

    @Test(.timeLimit(.minutes(5)))
    func aPerRequestAsyncFactoryFromAChildReceivesTheChild() async throws {
        let parent = MetaController()
        let child = MetaController(parent: parent)
        let received = AFLocked<MetaController?>(nil)
        parent.register(AFProduct.self) { metaController in
            await Task.yield()
            received.mutate { $0 = metaController }
            return AFProduct(serial: 1)
        }
        _ = try await child.product(AFProduct.self)
        #expect(received.value === child)

        // The child's own registration hides the parent's, for it alone.
        child.register(AFProduct.self) { _ in
            await Task.yield()
            return AFProduct(serial: 2)
        }
        #expect(try await child.product(AFProduct.self).serial == 2)
        #expect(try await parent.product(AFProduct.self).serial == 1)
    }

    @Test(.timeLimit(.minutes(5)))
    func perRequestAsyncFactoriesInACircleThrowCircularFactories() async throws {
        let metaController = MetaController()
        let calls = AFLocked(0)
        metaController.register(AFCircleA.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleB.self)
            return AFCircleA()
        }
        metaController.register(AFCircleB.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleA.self)
            return AFCircleB()
        }
        let outcome = await afSettle(Task { try await metaController.product(AFCircleA.self) })
        #expect(outcome != nil, "hang")
        #expect(afCode(outcome?.failure) == .circularFactories, "\(String(describing: outcome?.failure))")
    }

    // MARK: registerShared: one product, made once

    @Test(.timeLimit(.minutes(5)))
    func aSharedAsyncProductIsMadeOnceAndShared() async throws {
        let metaController = MetaController()
        let runs = AFLocked(0)
        let databaseURL = URL(fileURLWithPath: "/tmp/af-shared.sqlite")
        metaController.registerShared(AFDatabase.self) { _ in
            runs.increment()
            return try await AFDatabase.open(at: databaseURL)
        }
        let database = try await metaController.product(AFDatabase.self)
        let again = try await metaController.product(AFDatabase.self)
        #expect(database === again)
        #expect(database.url == databaseURL)
        #expect(runs.value == 1)
        // Once made, it is an ordinary shared product: `make` returns it too.
        #expect(try metaController.make(AFDatabase.self) === database)
    }

    @Test(.timeLimit(.minutes(5)))
    func aSharedAsyncProductIsMadeWithTheMetaControllerItIsRegisteredIn() async throws {
        let parent = MetaController()
        let child = MetaController(parent: parent)
        parent.register(AFOther.self) { _ in AFOther(serial: 1) }
        child.register(AFOther.self) { _ in AFOther(serial: 99) }
        let received = AFLocked<MetaController?>(nil)
        parent.registerShared(AFProduct.self) { metaController in
            received.mutate { $0 = metaController }
            let other = try await metaController.product(AFOther.self)
            return AFProduct(serial: other.serial)
        }
        let fromChild = try await child.product(AFProduct.self)
        #expect(received.value === parent)
        #expect(fromChild.serial == 1, "the child's override does not leak into what everyone shares")
        #expect(try await parent.product(AFProduct.self) === fromChild)
        #expect(try child.make(AFProduct.self) === fromChild)
    }

    @Test(.timeLimit(.minutes(5)), arguments: [1_000, 10_000])
    func manyTasksAskingAtOnceGetOneConstruction(count: Int) async throws {
        let metaController = MetaController()
        let gate = AFGate()
        let runs = AFLocked(0)
        metaController.registerShared(AFProduct.self) { _ in
            let serial = runs.increment()
            await gate.pass()
            return AFProduct(serial: serial)
        }
        let requests = AFRequests<AFProduct>()
        requests.start(count) { try await metaController.product(AFProduct.self) }
        let arrived = await afUntil { gate.arrivals >= 1 }
        #expect(arrived, "the construction started")
        _ = await requests.allStarted()
        #expect(requests.finished.value == 0, "nobody gets a half-ready object")
        gate.open()
        let outcomes = try #require(await requests.results(within: .seconds(50)), "a request did not finish")
        let products = outcomes.compactMap { try? $0.get() }
        #expect(products.count == count, "every request gets the product")
        #expect(Set(products.map(ObjectIdentifier.init)).count == 1, "the same instance")
        #expect(runs.value == 1, "one construction")
        #expect(gate.arrivals == 1)
    }

    @Test(.timeLimit(.minutes(5)))
    func sharedProductOfAParentRequestedFromManyChildrenAtOnce() async throws {
        let parent = MetaController()
        let gate = AFGate()
        let runs = AFLocked(0)
        parent.registerShared(AFProduct.self) { _ in
            let serial = runs.increment()
            await gate.pass()
            return AFProduct(serial: serial)
        }
        let requests = AFRequests<AFProduct>()
        for _ in 0..<50 {
            let child = MetaController(parent: parent)
            requests.start(4) { try await child.product(AFProduct.self) }
        }
        requests.start(4) { try await parent.product(AFProduct.self) }
        _ = await afUntil { gate.arrivals >= 1 }
        _ = await requests.allStarted()
        gate.open()
        let outcomes = try #require(await requests.results(), "a request did not finish")
        let products = outcomes.compactMap { try? $0.get() }
        #expect(products.count == outcomes.count)
        #expect(Set(products.map(ObjectIdentifier.init)).count == 1)
        #expect(runs.value == 1)
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func whenTheSharedFactoryThrowsEveryWaitingRequestGetsItsErrorAndTheNextTriesAgain() async throws {
        let metaController = MetaController()
        let gate = AFGate()
        let runs = AFLocked(0)
        metaController.registerShared(AFProduct.self) { _ in
            let round = runs.increment()
            await gate.pass()
            if round == 1 { throw AFBoom(round: round) }
            return AFProduct(serial: round)
        }
        let requests = AFRequests<AFProduct>()
        requests.startOnMainActor(1) { try await metaController.product(AFProduct.self) }
        let arrived = await afUntil { gate.arrivals == 1 }
        #expect(arrived, "the construction started")
        requests.startOnMainActor(49) { try await metaController.product(AFProduct.self) }
        _ = await requests.allStarted()
        gate.open()
        let outcomes = try #require(await requests.results(), "a request did not finish")
        let errors = outcomes.compactMap(\.failure)
        #expect(errors.count == 50, "every waiting request gets the error")
        #expect(errors.allSatisfy { ($0 as? AFBoom) == AFBoom(round: 1) }, "\(errors.prefix(3))")
        #expect(runs.value == 1)

        // Nothing is kept: a synchronous make finds nothing made.
        do {
            _ = try metaController.make(AFProduct.self)
            Issue.record("make returned a product after the factory threw")
        } catch {
            #expect(afCode(error) == .asyncFactory, "\(error)")
        }
        // The next request runs the factory again.
        let product = try await metaController.product(AFProduct.self)
        #expect(product.serial == 2)
        #expect(runs.value == 2)
        #expect(try await metaController.product(AFProduct.self) === product)
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func cancellingTheTaskThatStartedTheConstructionWhileOthersWait() async throws {
        let metaController = MetaController()
        let gate = AFGate()
        let runs = AFLocked(0)
        let constructionSawCancellation = AFLocked<Bool?>(nil)
        metaController.registerShared(AFProduct.self) { _ in
            let serial = runs.increment()
            await gate.pass()
            constructionSawCancellation.mutate { $0 = Task.isCancelled }
            try Task.checkCancellation()
            return AFProduct(serial: serial)
        }
        let starter = Task { @MainActor in try await metaController.product(AFProduct.self) }
        let arrived = await afUntil { gate.arrivals == 1 }
        #expect(arrived, "the construction started")
        let others = AFRequests<AFProduct>()
        others.startOnMainActor(20) { try await metaController.product(AFProduct.self) }
        _ = await others.allStarted()

        starter.cancel()
        // The cancelled request stops waiting at once: the construction is still held.
        let starterOutcome = await afSettle(starter)
        #expect(starterOutcome != nil, "the cancelled request kept waiting")
        #expect(afIsCancellation(starterOutcome?.failure), "\(String(describing: starterOutcome))")
        #expect(others.finished.value == 0, "the others keep waiting")

        gate.open()
        let outcomes = try #require(await others.results(), "a request did not finish")
        let products = outcomes.compactMap { try? $0.get() }
        #expect(products.count == 20, "the others get the product: \(outcomes.compactMap(\.failure).prefix(3))")
        #expect(Set(products.map(ObjectIdentifier.init)).count == 1)
        #expect(constructionSawCancellation.value == false, "the construction runs in a task of its own")
        #expect(runs.value == 1)
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func othersGetTheConstructionsOwnErrorNeverAnotherTasksCancellation() async throws {
        let metaController = MetaController()
        let gate = AFGate()
        metaController.registerShared(AFProduct.self) { _ in
            await gate.pass()
            throw AFBoom(round: 1)
        }
        let starter = Task { @MainActor in try await metaController.product(AFProduct.self) }
        _ = await afUntil { gate.arrivals == 1 }
        let others = AFRequests<AFProduct>()
        others.startOnMainActor(10) { try await metaController.product(AFProduct.self) }
        _ = await others.allStarted()
        starter.cancel()
        let starterOutcome = await afSettle(starter)
        #expect(afIsCancellation(starterOutcome?.failure), "\(String(describing: starterOutcome))")
        gate.open()
        let outcomes = try #require(await others.results(), "a request did not finish")
        for outcome in outcomes {
            #expect((outcome.failure as? AFBoom) == AFBoom(round: 1), "\(String(describing: outcome.failure))")
        }
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func aCancelledWaiterStopsAtOnceAndTheStarterStillGetsTheProduct() async throws {
        let metaController = MetaController()
        let gate = AFGate()
        metaController.registerShared(AFProduct.self) { _ in
            await gate.pass()
            return AFProduct(serial: 1)
        }
        let starter = Task { @MainActor in try await metaController.product(AFProduct.self) }
        _ = await afUntil { gate.arrivals == 1 }
        let waiter = Task { @MainActor in try await metaController.product(AFProduct.self) }
        await afLetOthersRun()
        waiter.cancel()
        let waiterOutcome = await afSettle(waiter)
        #expect(waiterOutcome != nil, "the cancelled waiter kept waiting")
        #expect(afIsCancellation(waiterOutcome?.failure), "\(String(describing: waiterOutcome))")
        gate.open()
        let starterOutcome = await afSettle(starter)
        #expect(try starterOutcome?.get().serial == 1)
    }

    @Test(.timeLimit(.minutes(5)))
    func aRequestFromAnAlreadyCancelledTaskDoesNotWaitForAConstructionUnderWay() async throws {
        let metaController = MetaController()
        let gate = AFGate()
        metaController.registerShared(AFProduct.self) { _ in
            await gate.pass()
            return AFProduct(serial: 1)
        }
        let starter = Task { try await metaController.product(AFProduct.self) }
        _ = await afUntil { gate.arrivals == 1 }
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await metaController.product(AFProduct.self)
        }
        let outcome = await afSettle(cancelled, within: .seconds(20))
        #expect(outcome != nil, "a cancelled request waited for the construction")
        #expect(afIsCancellation(outcome?.failure), "\(String(describing: outcome))")
        gate.open()
        #expect(try await afSettle(starter)?.get().serial == 1)
    }

    @Test(.timeLimit(.minutes(5)))
    func namedSharedAsyncVariantsAreSeparateProducts() async throws {
        let metaController = MetaController()
        let runs = AFLocked(0)
        for name in ["a", "b"] {
            metaController.registerShared(AFProduct.self, name: name) { _ in
                await Task.yield()
                return AFProduct(serial: runs.increment())
            }
        }
        let a = try await metaController.product(AFProduct.self, name: "a")
        let b = try await metaController.product(AFProduct.self, name: "b")
        #expect(a !== b)
        #expect(try await metaController.product(AFProduct.self, name: "a") === a)
        #expect(try metaController.make(AFProduct.self, name: "b") === b)
        #expect(runs.value == 2)
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func whenEveryWaitingRequestIsCancelledTheConstructionGoesOnAndItsProductIsKept() async throws {
        let metaController = MetaController()
        let gate = AFGate()
        let runs = AFLocked(0)
        let made = AFLocked<AFProduct?>(nil)
        metaController.registerShared(AFProduct.self) { _ in
            let serial = runs.increment()
            await gate.pass()
            let product = AFProduct(serial: serial)
            made.mutate { $0 = product }
            return product
        }
        let requests = AFRequests<AFProduct>()
        requests.startOnMainActor(1) { try await metaController.product(AFProduct.self) }
        _ = await afUntil { gate.arrivals == 1 }
        requests.startOnMainActor(9) { try await metaController.product(AFProduct.self) }
        _ = await requests.allStarted()

        requests.cancelAll()
        let outcomes = try #require(await requests.results(), "a cancelled request kept waiting")
        #expect(outcomes.allSatisfy { afIsCancellation($0.failure) }, "\(outcomes.prefix(3))")
        #expect(made.value == nil, "the construction is still held")

        gate.open()
        let finished = await afUntil { made.value != nil }
        #expect(finished, "the construction went on")
        let next = try await metaController.product(AFProduct.self)
        #expect(next === made.value, "its product is kept for the next request")
        #expect(runs.value == 1)
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func resetWhileTheProductIsMadeGivesItToTheWaitersAndANewRequestMakesItsOwn() async throws {
        let metaController = MetaController()
        let gates = [AFGate(), AFGate(), AFGate()]
        let runs = AFLocked(0)
        metaController.registerShared(AFProduct.self) { _ in
            let serial = runs.increment()
            await gates[min(serial, 3) - 1].pass()
            return AFProduct(serial: serial)
        }
        let before = AFRequests<AFProduct>()
        before.startOnMainActor(1) { try await metaController.product(AFProduct.self) }
        _ = await afUntil { gates[0].arrivals == 1 }
        before.startOnMainActor(5) { try await metaController.product(AFProduct.self) }
        _ = await before.allStarted()

        metaController.reset()

        let after = Task { @MainActor in try await metaController.product(AFProduct.self) }
        let ownConstruction = await afUntil { gates[1].arrivals == 1 }
        #expect(ownConstruction, "a request after the reset starts a construction of its own")

        gates[0].open()
        let outcomes = try #require(await before.results(), "a waiting request did not finish")
        #expect(outcomes.allSatisfy { (try? $0.get())?.serial == 1 }, "the requests already waiting get it")

        gates[1].open()
        gates[2].open()
        let afterOutcome = await afSettle(after)
        #expect(try afterOutcome?.get().serial == 2)
        let later = try await metaController.product(AFProduct.self)
        #expect(later.serial == 2, "the product made after the reset is kept; the one before is not")
        #expect(runs.value == 2)
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func aProductWhoseConstructionOutlivedAResetIsNotKept() async throws {
        let metaController = MetaController()
        let gate = AFGate()
        let runs = AFLocked(0)
        metaController.registerShared(AFProduct.self) { _ in
            let serial = runs.increment()
            if serial == 1 { await gate.pass() }
            return AFProduct(serial: serial)
        }
        let starter = Task { @MainActor in try await metaController.product(AFProduct.self) }
        _ = await afUntil { gate.arrivals == 1 }
        metaController.reset()
        gate.open()
        let starterOutcome = await afSettle(starter)
        #expect(try starterOutcome?.get().serial == 1, "the request that was waiting gets it")

        do {
            _ = try metaController.make(AFProduct.self)
            Issue.record("the product made across the reset was kept")
        } catch {
            #expect(afCode(error) == .asyncFactory, "\(error)")
        }
        let next = try await metaController.product(AFProduct.self)
        #expect(next.serial == 2, "the next request starts a construction of its own")
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func registeringAgainWhileTheProductIsMadeDoesTheSameAsAReset() async throws {
        let metaController = MetaController()
        let gate = AFGate()
        metaController.registerShared(AFProduct.self) { _ in
            await gate.pass()
            return AFProduct(serial: 1)
        }
        let before = AFRequests<AFProduct>()
        before.startOnMainActor(1) { try await metaController.product(AFProduct.self) }
        _ = await afUntil { gate.arrivals == 1 }
        before.startOnMainActor(5) { try await metaController.product(AFProduct.self) }
        _ = await before.allStarted()

        let newRuns = AFLocked(0)
        metaController.registerShared(AFProduct.self) { _ in
            newRuns.increment()
            await Task.yield()
            return AFProduct(serial: 100)
        }
        let after = await afSettle(Task { @MainActor in try await metaController.product(AFProduct.self) }, within: .seconds(20))
        #expect(after != nil, "a request after registering again waited for the old construction")
        #expect(try after?.get().serial == 100)

        gate.open()
        let outcomes = try #require(await before.results(), "a waiting request did not finish")
        #expect(outcomes.allSatisfy { (try? $0.get())?.serial == 1 }, "the requests already waiting get the old product")
        #expect(try await metaController.product(AFProduct.self).serial == 100)
        #expect(newRuns.value == 1)
    }

    @Test(.timeLimit(.minutes(5)))
    func resetAfterTheProductIsMadeDropsIt() async throws {
        let metaController = MetaController()
        let runs = AFLocked(0)
        metaController.registerShared(AFProduct.self) { _ in
            await Task.yield()
            return AFProduct(serial: runs.increment())
        }
        let first = try await metaController.product(AFProduct.self)
        metaController.reset()
        let second = try await metaController.product(AFProduct.self)
        #expect(first !== second)
        #expect(second.serial == 2)
    }

    @Test(.timeLimit(.minutes(5)))
    func manyRequestsDuringAStormOfResetsAllGetAProduct() async throws {
        let metaController = MetaController()
        metaController.registerShared(AFProduct.self) { _ in
            await Task.yield()
            return AFProduct(serial: 0)
        }
        let requests = AFRequests<AFProduct>()
        requests.start(1_000) { try await metaController.product(AFProduct.self) }
        let resetter = Task {
            for _ in 0..<200 {
                metaController.reset()
                await Task.yield()
            }
        }
        let outcomes = try #require(await requests.results(within: .seconds(50)), "a request did not finish")
        #expect(outcomes.compactMap(\.failure).isEmpty, "\(outcomes.compactMap(\.failure).prefix(3))")
        await resetter.value
    }

    // MARK: registerShared: circles

    @Test(.timeLimit(.minutes(5)))
    func sharedAsyncFactoriesInACircleInOneTask() async throws {
        let metaController = MetaController()
        let calls = AFLocked(0)
        metaController.registerShared(AFCircleA.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleB.self)
            return AFCircleA()
        }
        metaController.registerShared(AFCircleB.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleA.self)
            return AFCircleB()
        }
        let outcome = await afSettle(Task { try await metaController.product(AFCircleA.self) })
        #expect(outcome != nil, "hang")
        let error = outcome?.failure
        #expect(afCode(error) == .circularFactories, "\(String(describing: error))")
        let description = error.map { "\($0)" } ?? ""
        #expect(description.hasPrefix("circular factories"), "\(description)")
        #expect(description.contains("AFCircleA") && description.contains("AFCircleB"), "\(description)")

        let fromB = await afSettle(Task { try await metaController.product(AFCircleB.self) })
        #expect(afCode(fromB?.failure) == .circularFactories, "\(String(describing: fromB))")
    }

    @Test(.timeLimit(.minutes(5)))
    func aCircleMetInOneTaskReachesTheRequestsWaitingInOtherTasks() async throws {
        let metaController = MetaController()
        let gate = AFGate()
        let calls = AFLocked(0)
        metaController.registerShared(AFCircleA.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleB.self)
            return AFCircleA()
        }
        metaController.registerShared(AFCircleB.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            await gate.pass()   // held with both constructions under way
            _ = try await metaController.product(AFCircleA.self)
            return AFCircleB()
        }
        let requestsA = AFRequests<AFCircleA>(), requestsB = AFRequests<AFCircleB>()
        requestsA.start { try await metaController.product(AFCircleA.self) }
        let held = await afUntil { gate.arrivals == 1 }
        #expect(held, "the construction of B started from A's")
        requestsA.start(5) { try await metaController.product(AFCircleA.self) }
        requestsB.start(5) { try await metaController.product(AFCircleB.self) }
        _ = await requestsA.allStarted()
        _ = await requestsB.allStarted()
        gate.open()
        let outcomesA = await requestsA.results()
        let outcomesB = await requestsB.results()
        #expect(outcomesA != nil && outcomesB != nil, "the circle hung")
        for outcome in (outcomesA?.map(\.failure) ?? []) + (outcomesB?.map(\.failure) ?? []) {
            #expect(afCode(outcome) == .circularFactories, "\(String(describing: outcome))")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aCircleThroughASharedAndAPerRequestAsyncFactory() async throws {
        let metaController = MetaController()
        let calls = AFLocked(0)
        metaController.registerShared(AFCircleA.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleB.self)
            return AFCircleA()
        }
        metaController.register(AFCircleB.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleA.self)
            return AFCircleB()
        }
        let fromA = await afSettle(Task { try await metaController.product(AFCircleA.self) })
        #expect(fromA != nil, "hang")
        #expect(afCode(fromA?.failure) == .circularFactories, "\(String(describing: fromA?.failure))")
        let fromB = await afSettle(Task { try await metaController.product(AFCircleB.self) })
        #expect(fromB != nil, "hang")
        #expect(afCode(fromB?.failure) == .circularFactories, "\(String(describing: fromB?.failure))")
    }

    @Test(.timeLimit(.minutes(5)))
    func sharedAsyncFactoriesInACircleOfThreeInOneTask() async throws {
        let metaController = MetaController()
        let calls = AFLocked(0)
        metaController.registerShared(AFCircleA.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleB.self)
            return AFCircleA()
        }
        metaController.registerShared(AFCircleB.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleC.self)
            return AFCircleB()
        }
        metaController.registerShared(AFCircleC.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleA.self)
            return AFCircleC()
        }
        let outcome = await afSettle(Task { try await metaController.product(AFCircleB.self) })
        #expect(outcome != nil, "hang")
        #expect(afCode(outcome?.failure) == .circularFactories, "\(String(describing: outcome?.failure))")
    }

    @Test(.timeLimit(.minutes(5)))
    func sharedAsyncFactoriesInACircleInTwoTasksAndEveryWaiterGetsTheError() async throws {
        let metaController = MetaController()
        let gateA = AFGate(), gateB = AFGate()
        let calls = AFLocked(0)
        metaController.registerShared(AFCircleA.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            await gateA.pass()
            _ = try await metaController.product(AFCircleB.self)
            return AFCircleA()
        }
        metaController.registerShared(AFCircleB.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            await gateB.pass()
            _ = try await metaController.product(AFCircleA.self)
            return AFCircleB()
        }
        let requestsA = AFRequests<AFCircleA>(), requestsB = AFRequests<AFCircleB>()
        requestsA.start { try await metaController.product(AFCircleA.self) }
        requestsB.start { try await metaController.product(AFCircleB.self) }
        let bothStarted = await afUntil { gateA.arrivals == 1 && gateB.arrivals == 1 }
        #expect(bothStarted, "both constructions started")
        requestsA.start(3) { try await metaController.product(AFCircleA.self) }
        requestsB.start(3) { try await metaController.product(AFCircleB.self) }
        _ = await requestsA.allStarted()
        _ = await requestsB.allStarted()
        gateA.open()
        gateB.open()

        let outcomesA = await requestsA.results()
        let outcomesB = await requestsB.results()
        #expect(outcomesA != nil && outcomesB != nil, "the circle hung")
        for outcome in (outcomesA?.map(\.failure) ?? []) + (outcomesB?.map(\.failure) ?? []) {
            #expect(afCode(outcome) == .circularFactories, "\(String(describing: outcome))")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func sharedAsyncFactoriesInACircleAcrossAParentAndAChildInOneTask() async throws {
        let parent = MetaController()
        let child = MetaController(parent: parent)
        let calls = AFLocked(0)
        parent.registerShared(AFCircleA.self) { _ in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await child.product(AFCircleB.self)
            return AFCircleA()
        }
        child.registerShared(AFCircleB.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            _ = try await metaController.product(AFCircleA.self)   // the parent's
            return AFCircleB()
        }
        let fromChild = await afSettle(Task { try await child.product(AFCircleB.self) })
        #expect(fromChild != nil, "hang")
        #expect(afCode(fromChild?.failure) == .circularFactories, "\(String(describing: fromChild?.failure))")
        let fromParent = await afSettle(Task { try await parent.product(AFCircleA.self) })
        #expect(fromParent != nil, "hang")
        #expect(afCode(fromParent?.failure) == .circularFactories, "\(String(describing: fromParent?.failure))")
    }

    @Test(.timeLimit(.minutes(5)))
    func sharedAsyncFactoriesInACircleAcrossAParentAndAChildInTwoTasks() async throws {
        let parent = MetaController()
        let child = MetaController(parent: parent)
        let gateA = AFGate(), gateB = AFGate()
        let calls = AFLocked(0)
        parent.registerShared(AFCircleA.self) { _ in
            guard calls.increment() < 200 else { throw AFRanAway() }
            await gateA.pass()
            _ = try await child.product(AFCircleB.self)
            return AFCircleA()
        }
        child.registerShared(AFCircleB.self) { metaController in
            guard calls.increment() < 200 else { throw AFRanAway() }
            await gateB.pass()
            _ = try await metaController.product(AFCircleA.self)
            return AFCircleB()
        }
        let requestA = Task { try await parent.product(AFCircleA.self) }
        let requestB = Task { try await child.product(AFCircleB.self) }
        let bothStarted = await afUntil { gateA.arrivals == 1 && gateB.arrivals == 1 }
        #expect(bothStarted, "both constructions started")
        gateA.open()
        gateB.open()
        let outcomeA = await afSettle(requestA)
        let outcomeB = await afSettle(requestB)
        #expect(outcomeA != nil && outcomeB != nil, "the circle hung")
        #expect(afCode(outcomeA?.failure) == .circularFactories, "\(String(describing: outcomeA?.failure))")
        #expect(afCode(outcomeB?.failure) == .circularFactories, "\(String(describing: outcomeB?.failure))")
    }

    // MARK: A synchronous make of a shared async product

    @Test(.timeLimit(.minutes(5)))
    func aSynchronousMakeOfASharedAsyncProductBeforeWhileAndAfterItIsMade() async throws {
        let metaController = MetaController()
        let child = MetaController(parent: metaController)
        let gate = AFGate()
        let runs = AFLocked(0)
        metaController.registerShared(AFProduct.self) { _ in
            let serial = runs.increment()
            await gate.pass()
            return AFProduct(serial: serial)
        }
        // Before anything is made.
        let before = #expect(throws: MetaControllerError.self) { try metaController.make(AFProduct.self) }
        #expect(before?.code == .asyncFactory)
        #expect(runs.value == 0)

        // While it is being made: throws rather than wait (run apart, so a wait would not block the test).
        let starter = Task { try await metaController.product(AFProduct.self) }
        _ = await afUntil { gate.arrivals == 1 }
        let during = await afSettle(Task.detached { () throws -> AFProduct in try metaController.make(AFProduct.self) }, within: .seconds(20))
        if during == nil { gate.open() }
        #expect(during != nil, "make waited for the construction")
        #expect(afCode(during?.failure) == .asyncFactory, "\(String(describing: during))")

        gate.open()
        let made = try #require(try await afSettle(starter)?.get())
        // After: an ordinary shared product.
        #expect(try metaController.make(AFProduct.self) === made)
        #expect(try child.make(AFProduct.self) === made)
        #expect(runs.value == 1)
    }

    // MARK: product of synchronous registrations: the same answers as make

    @Test(.timeLimit(.minutes(5)))
    func productOfSynchronousRegistrationsAnswersAsMakeDoes() async throws {
        let parent = MetaController()
        let child = MetaController(parent: parent)
        let runs = AFLocked(0)
        let received = AFLocked<MetaController?>(nil)
        parent.register(AFProduct.self) { metaController in
            received.mutate { $0 = metaController }
            return AFProduct(serial: runs.increment())
        }
        parent.registerShared(AFOther.self) { _ in AFOther(serial: 1) }
        parent.register(AFProduct.self, name: "short") { _ in AFProduct(serial: -1) }
        parent.register(AFProduct.self, argument: Int.self) { _, value in AFProduct(serial: value * 10) }

        // Per request: a new product each time.
        let first = try await parent.product(AFProduct.self)
        let second = try await parent.product(AFProduct.self)
        #expect(first !== second)
        // From a child: the parent's factory, given the child.
        _ = try await child.product(AFProduct.self)
        #expect(received.value === child)
        // Shared: the same one make returns.
        #expect(try await parent.product(AFOther.self) === (try parent.make(AFOther.self)))
        #expect(try await child.product(AFOther.self) === (try parent.make(AFOther.self)))
        // Named and with an argument.
        #expect(try await parent.product(AFProduct.self, name: "short").serial == -1)
        #expect(try await child.product(AFProduct.self, argument: 4).serial == 40)
        #expect(try parent.make(AFProduct.self, argument: 4).serial == 40)
        // The child's registration hides the parent's for it alone.
        child.register(AFProduct.self, name: "short") { _ in AFProduct(serial: -2) }
        #expect(try await child.product(AFProduct.self, name: "short").serial == -2)
        #expect(try await parent.product(AFProduct.self, name: "short").serial == -1)
    }

    @Test(.timeLimit(.minutes(5)))
    func productThrowsWhatMakeThrows() async throws {
        let metaController = MetaController()
        metaController.register(AFProduct.self) { _ in throw AFBoom(round: 9) }
        metaController.register(AFCircleA.self) { metaController in
            _ = try metaController.make(AFCircleB.self)
            return AFCircleA()
        }
        metaController.register(AFCircleB.self) { metaController in
            _ = try metaController.make(AFCircleA.self)
            return AFCircleB()
        }

        // A factory's own error, unchanged.
        await #expect(throws: AFBoom(round: 9)) { _ = try await metaController.product(AFProduct.self) }

        // Missing factories: the same code and sentence.
        func pair(_ make: () throws -> Void, _ product: () async throws -> Void) async -> (MetaControllerError?, MetaControllerError?) {
            var fromMake: MetaControllerError?, fromProduct: MetaControllerError?
            do { try make() } catch { fromMake = error as? MetaControllerError }
            do { try await product() } catch { fromProduct = error as? MetaControllerError }
            return (fromMake, fromProduct)
        }
        let missing = await pair(
            { _ = try metaController.make(AFOther.self) },
            { _ = try await metaController.product(AFOther.self) })
        #expect(missing.0?.code == .missingFactory)
        #expect(missing.1?.code == .missingFactory)
        #expect(missing.0?.description == missing.1?.description)

        let missingNamed = await pair(
            { _ = try metaController.make(AFProduct.self, name: "B") },
            { _ = try await metaController.product(AFProduct.self, name: "B") })
        #expect(missingNamed.1?.code == .missingFactory)
        #expect(missingNamed.0?.description == missingNamed.1?.description)

        let missingArgument = await pair(
            { _ = try metaController.make(AFProduct.self, name: "B", argument: 3) },
            { _ = try await metaController.product(AFProduct.self, name: "B", argument: 3) })
        #expect(missingArgument.1?.code == .missingFactory)
        #expect(missingArgument.0?.description == missingArgument.1?.description)

        // Synchronous factories in a circle.
        let circle = await pair(
            { _ = try metaController.make(AFCircleA.self) },
            { _ = try await metaController.product(AFCircleA.self) })
        #expect(circle.1?.code == .circularFactories)
        #expect(circle.0?.description == circle.1?.description)
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func aSharedProductAlreadyMadeIsHandedBackWithoutSuspending() async throws {
        let metaController = MetaController()
        metaController.registerShared(AFProduct.self) { _ in AFProduct(serial: 1) }
        metaController.registerShared(AFOther.self) { _ in
            await Task.yield()
            return AFOther(serial: 2)
        }
        let product = try metaController.make(AFProduct.self)
        let other = try await metaController.product(AFOther.self)

        let interleaved = AFLocked(false)
        Task { @MainActor in interleaved.mutate { $0 = true } }
        let again = try await metaController.product(AFProduct.self)
        let otherAgain = try await metaController.product(AFOther.self)
        #expect(!interleaved.value, "product suspended although the shared product was made")
        #expect(again === product)
        #expect(otherAgain === other)
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func registeringAgainSwitchesBetweenSyncAndAsyncFactories() async throws {
        let metaController = MetaController()
        metaController.register(AFProduct.self) { _ in AFProduct(serial: 1) }
        #expect(try metaController.make(AFProduct.self).serial == 1)
        metaController.register(AFProduct.self) { _ in
            await Task.yield()
            return AFProduct(serial: 2)
        }
        #expect(try await metaController.product(AFProduct.self).serial == 2)
        do {
            _ = try metaController.make(AFProduct.self)
            Issue.record("make of the async replacement returned")
        } catch {
            #expect(afCode(error) == .asyncFactory, "\(error)")
        }
        metaController.register(AFProduct.self) { _ in AFProduct(serial: 3) }
        #expect(try metaController.make(AFProduct.self).serial == 3)
        #expect(try await metaController.product(AFProduct.self).serial == 3)
    }

    // MARK: Main-actor factories

    @Test(.timeLimit(.minutes(5))) @MainActor
    func theMainActorProbeTellsTheMainActorApart() async throws {
        #expect(afOnMainActor(), "the probe sees the main actor")
        let elsewhere = await Task.detached { afOnMainActor() }.value
        #expect(!elsewhere, "the probe sees a background task is not on the main actor")
    }

    @Test(.timeLimit(.minutes(5)))
    func aMainActorAsyncFactoryAskedFromABackgroundActorIsMadeOnTheMainActor() async throws {
        let metaController = MetaController()
        metaController.register(AFScreen.self) { @MainActor _ in
            await Task.yield()
            return AFScreen()
        }
        let background = AFBackgroundActor()
        #expect(try await background.screen(from: metaController))
        let fromDetached = try await Task.detached {
            let screen = try await metaController.product(AFScreen.self)
            return screen.madeOnMainThread
        }.value
        #expect(fromDetached)
    }

    @Test(.timeLimit(.minutes(5)))
    func aSharedMainActorAsyncFactoryAskedFromBackgroundTasks() async throws {
        let metaController = MetaController()
        let runs = AFLocked(0)
        metaController.registerShared(AFScreen.self) { @MainActor _ in
            runs.increment()
            await Task.yield()
            return AFScreen()
        }
        let requests = AFRequests<AFScreen>()
        requests.start(50) { try await metaController.product(AFScreen.self) }
        let outcomes = try #require(await requests.results(), "a request did not finish")
        let screens = outcomes.compactMap { try? $0.get() }
        #expect(screens.count == 50)
        #expect(Set(screens.map(ObjectIdentifier.init)).count == 1)
        #expect(runs.value == 1)
        if let screen = screens.first { #expect(screen.madeOnMainThread) }
    }

    @Test(.timeLimit(.minutes(5)))
    func aSynchronousMainActorFactoryAskedThroughProductFromOffTheMainActor() async throws {
        let metaController = MetaController()
        metaController.register(AFSyncScreen.self) { @MainActor _ in AFSyncScreen() }
        metaController.register(AFSyncScreen.self, argument: Int.self) { @MainActor _, id in AFSyncScreen(itemID: id) }
        let background = AFBackgroundActor()
        #expect(try await background.syncScreen(from: metaController), "made on the main actor")
        let (onMain, item) = try await background.syncScreen(from: metaController, item: 8)
        #expect(onMain)
        #expect(item == 8)
        // make, by contrast, refuses off the main actor (unchanged behaviour).
        #expect(await background.syncMake(from: metaController) == .notOnMainActor)
    }

    @Test(.timeLimit(.minutes(5))) @MainActor
    func aMainActorAsyncFactoryAskedByMakeOnTheMainActorThrowsAsyncFactory() async throws {
        let metaController = MetaController()
        metaController.register(AFScreen.self) { @MainActor _ in
            await Task.yield()
            return AFScreen()
        }
        do {
            _ = try metaController.make(AFScreen.self)
            Issue.record("make of an async main-actor factory returned")
        } catch {
            #expect(afCode(error) == .asyncFactory, "\(error)")
        }
        let screen = try await metaController.product(AFScreen.self)
        #expect(screen.madeOnMainThread)
    }

    // MARK: Consumers, task groups

    @Test(.timeLimit(.minutes(5)))
    func aProductThatIsAConsumerReceivesTheMetaController() async throws {
        let parent = MetaController()
        let child = MetaController(parent: parent)
        parent.register(AFConsumerProduct.self) { _ in
            await Task.yield()
            return AFConsumerProduct()
        }
        parent.registerShared(AFConsumerProduct.self, name: "shared") { _ in
            await Task.yield()
            return AFConsumerProduct()
        }
        let perRequest = try await child.product(AFConsumerProduct.self)
        #expect(perRequest.metaController === child, "the MetaController product was called on")
        let shared = try await child.product(AFConsumerProduct.self, name: "shared")
        #expect(shared.metaController === parent, "a shared product is made with its MetaController")
    }

    @Test(.timeLimit(.minutes(5)))
    func aTaskGroupBodyCallsProductDirectly() async throws {
        let metaController = MetaController()
        let runs = AFLocked(0)
        metaController.registerShared(AFProduct.self) { _ in
            await Task.yield()
            return AFProduct(serial: runs.increment())
        }
        metaController.register(AFOther.self) { _ in
            await Task.yield()
            return AFOther(serial: 0)
        }
        let (shared, fresh) = try await withThrowingTaskGroup(of: (ObjectIdentifier, ObjectIdentifier).self) { group in
            // The body itself asks, before and between its children.
            let fromBody = try await metaController.product(AFProduct.self)
            for _ in 0..<200 {
                group.addTask {
                    let product = try await metaController.product(AFProduct.self)
                    let other = try await metaController.product(AFOther.self)
                    return (ObjectIdentifier(product), ObjectIdentifier(other))
                }
            }
            var shared: Set<ObjectIdentifier> = [ObjectIdentifier(fromBody)]
            var fresh: Set<ObjectIdentifier> = []
            var keep: [AFOther] = []   // keeps the body's products alive, so identifiers are not reused
            for try await (product, other) in group {
                shared.insert(product)
                fresh.insert(other)
            }
            keep.append(try await metaController.product(AFOther.self))
            fresh.insert(ObjectIdentifier(keep[0]))
            return (shared, fresh)
        }
        #expect(shared.count == 1, "one shared product")
        #expect(runs.value == 1)
        #expect(fresh.count >= 2, "per-request products are new")
    }

    @Test(.timeLimit(.minutes(5)))
    func perRequestProductsInATaskGroupAreAllNew() async throws {
        let metaController = MetaController()
        metaController.register(AFOther.self, argument: Int.self) { _, value in
            await Task.yield()
            return AFOther(serial: value)
        }
        let serials = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 0..<300 {
                group.addTask { try await metaController.product(AFOther.self, argument: value).serial }
            }
            var serials: [Int] = []
            for try await serial in group { serials.append(serial) }
            return serials
        }
        #expect(serials.sorted() == Array(0..<300))
    }
}
