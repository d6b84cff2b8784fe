import Dispatch
import Foundation
import Testing

import MetaController
@testable import MetaControllerCore
import MetaControllerTestSupport

/// A product that takes time to make, numbered by its construction.
private final class Slow: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// Counts constructions across tasks.
private final class Counter: Sendable {
    private let count = Lock(0)
    func next() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
    var value: Int { count.withLock { $0 } }
}

private struct Failed: Error, Equatable { let number: Int }

/// Two shared products whose factories need each other, and a third.
private final class Alpha: Sendable {}
private final class Beta: Sendable {}

/// A consumer made by a factory: it receives the MetaController.
private final class Reader: MetaControllerConsumer, Sendable {
    private let held = Lock<MetaController?>(nil)
    var metaController: MetaController? {
        get { held.withLock { $0 } }
        set { held.withLock { $0 = newValue } }
    }
}

/// A sync shared product the test holds inside its factory, on the factory's thread.
private final class Blocking: Sendable {}

/// Requests `Product` from `metaController` in a task of its own.
private func requesting<Product: Sendable>(
    _: Product.Type, from metaController: MetaController, name: String? = nil
) -> Task<Product, any Error> {
    Task.detached { try await metaController.product(Product.self, name: name) }
}

/// Waits for `semaphore` on a Dispatch thread, so that the test's task holds no thread of the pool.
private func signalled(_ semaphore: DispatchSemaphore) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            semaphore.wait()
            done.resume()
        }
    }
}

/// The code of the `MetaControllerError` a task threw, and its description.
private func failure<Product>(of task: Task<Product, any Error>) async -> (code: MetaControllerError.Code?, text: String)? {
    do {
        _ = try await task.value
        return nil
    } catch let error as MetaControllerError {
        return (error.code, error.description)
    } catch {
        return (nil, "\(type(of: error))")
    }
}

@MainActor private final class MainScreen: Sendable {
    let onMain: Bool
    init() { onMain = MainActorContext.isCurrent(nil) }
}

@Suite("Async factories")
struct AsyncFactoriesTests {
    @Test func aPerRequestAsyncFactoryMakesANewProductEachTime() async throws {
        let metaController = MetaController()
        let counter = Counter()
        metaController.register(Slow.self) { _ in
            await Task.yield()
            return Slow(counter.next())
        }
        let first = try await metaController.product(Slow.self)
        let second = try await metaController.product(Slow.self)
        #expect(first.number == 1 && second.number == 2)
    }

    @Test func aSharedAsyncProductIsMadeOnceByOneConstructionForEveryTaskAskingAtOnce() async throws {
        let metaController = MetaController()
        let counter = Counter()
        let gate = AsyncGate()
        metaController.registerShared(Slow.self) { _ in
            await gate.pass()
            return Slow(counter.next())
        }
        let key = FactoryKey(Slow.self)
        let products = await withTaskGroup(of: Slow?.self) { group in
            for _ in 0..<1_000 { group.addTask { try? await metaController.product(Slow.self) } }
            await gate.arrived()
            await metaController.asyncConstruction(key)?.waitUntil(waiting: 1_000)
            gate.open()
            return await group.reduce(into: [Slow?]()) { $0.append($1) }
        }
        #expect(counter.value == 1)
        #expect(products.count == 1_000)
        #expect(Set(products.map { $0.map(ObjectIdentifier.init) }).count == 1)
        #expect(products.allSatisfy { $0?.number == 1 })
        #expect(gate.arrivals == 1)
    }

    @Test func aSynchronousMakeOfAnAsyncFactoryThrowsAsyncFactoryNamingWhatToCall() throws {
        let metaController = MetaController()
        metaController.register(Slow.self, name: "b", argument: Int.self) { _, n async in Slow(n) }
        metaController.registerShared(Slow.self) { _ in
            await Task.yield(); return Slow(0)
        }
        #expect {
            _ = try metaController.make(Slow.self)
        } throws: { error in
            let error = error as? MetaControllerError
            return error?.code == .asyncFactory
                && error?.description == "the factory of Slow is async and make cannot wait for it; request it with try await product(_:name:)"
        }
        #expect {
            _ = try metaController.make(Slow.self, name: "b", argument: 1)
        } throws: { error in
            (error as? MetaControllerError)?.description
                == "the factory of Slow named \"b\" from Int is async and make cannot wait for it; request it with try await product(_:name:argument:)"
        }
    }

    @Test func aMainActorFactoryAskedFromABackgroundTaskIsMadeOnTheMainActor() async throws {
        let metaController = MetaController()
        metaController.register(MainScreen.self) { @MainActor _ in MainScreen() }
        let screen = try await Task.detached { try await metaController.product(MainScreen.self) }.value
        #expect(screen.onMain)
        #expect(throws: MetaControllerError.self) {
            _ = try metaController.make(MainScreen.self, isolation: nil)
        }
    }

    // MARK: - Shapes of registration

    @Test func anAsyncFactoryWithAnArgumentANameAndASampleMakesFromTheArgumentPassed() async throws {
        let metaController = MetaController()
        metaController.register(Slow.self, argument: Int.self) { _, number in
            await Task.yield()
            return Slow(number)
        }
        metaController.register(Slow.self, name: "tenfold", argument: Int.self, sample: 1) { _, number async in
            Slow(number * 10)
        }
        #expect(try await metaController.product(Slow.self, argument: 7).number == 7)
        #expect(try await metaController.product(Slow.self, name: "tenfold", argument: 7).number == 70)
        await #expect(throws: MetaControllerError.self) { try await metaController.product(Slow.self, name: "other", argument: 7) }
    }

    @Test func productAnswersSynchronousRegistrationsAsMakeDoes() async throws {
        let parent = MetaController()
        let child = MetaController(parent: parent)
        let counter = Counter()
        parent.register(Slow.self) { _ in Slow(counter.next()) }
        parent.registerShared(Slow.self, name: "shared") { _ in Slow(counter.next()) }
        child.register(Slow.self, argument: Int.self) { _, number in Slow(number) }
        #expect(try await child.product(Slow.self).number == 1)
        let shared = try await child.product(Slow.self, name: "shared")
        #expect(try await child.product(Slow.self, name: "shared") === shared)
        #expect(try parent.make(Slow.self, name: "shared") === shared)
        #expect(try await child.product(Slow.self, argument: 5).number == 5)
        do {
            _ = try await parent.product(Slow.self, argument: 5)
            Issue.record("a parent saw its child's registration")
        } catch let error as MetaControllerError {
            #expect(error.code == .missingFactory)
        }
    }

    @Test func aProductThatIsAConsumerReceivesTheRequesterOrForASharedOneTheOwner() async throws {
        let parent = MetaController()
        let child = MetaController(parent: parent)
        parent.register(Reader.self) { _ in
            await Task.yield(); return Reader()
        }
        parent.registerShared(Reader.self, name: "shared") { _ in
            await Task.yield(); return Reader()
        }
        #expect(try await child.product(Reader.self).metaController === child)
        #expect(try await child.product(Reader.self, name: "shared").metaController === parent)
    }

    @Test func aSharedAsyncProductMadeIsReturnedBySynchronousMakeToo() async throws {
        let metaController = MetaController()
        let gate = AsyncGate()
        metaController.registerShared(Slow.self) { _ in
            await gate.pass()
            return Slow(1)
        }
        let request = requesting(Slow.self, from: metaController)
        await gate.arrived()
        // While it is made, a synchronous make throws at once rather than block.
        #expect(throws: MetaControllerError.self) { _ = try metaController.make(Slow.self) }
        gate.open()
        let made = try await request.value
        #expect(try metaController.make(Slow.self) === made)
        #expect(try await metaController.product(Slow.self) === made)
    }

    // MARK: - Made once, whoever asks at the same moment

    @Test(.timeLimit(.minutes(1)))
    func aConstructionThatThrowsGivesEveryWaitingRequestItsErrorAndTheNextRequestTriesAgain() async throws {
        let metaController = MetaController()
        let counter = Counter()
        let gate = AsyncGate()
        metaController.registerShared(Slow.self) { _ in
            let number = counter.next()
            if number == 1 {
                await gate.pass()
                throw Failed(number: number)
            }
            return Slow(number)
        }
        let requests = (0..<5).map { _ in requesting(Slow.self, from: metaController) }
        await gate.arrived()
        await metaController.asyncConstruction(FactoryKey(Slow.self))?.waitUntil(waiting: 5)
        gate.open()
        for request in requests {
            await #expect(throws: Failed(number: 1)) { try await request.value }
        }
        #expect(try await metaController.product(Slow.self).number == 2)
        #expect(counter.value == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingTheTaskThatStartedTheConstructionLeavesTheOthersTheirProduct() async throws {
        let metaController = MetaController()
        let gate = AsyncGate()
        let counter = Counter()
        metaController.registerShared(Slow.self) { _ in
            await gate.pass()
            return Slow(counter.next())
        }
        let key = FactoryKey(Slow.self)
        let starter = requesting(Slow.self, from: metaController)
        await gate.arrived()
        let other = requesting(Slow.self, from: metaController)
        await metaController.asyncConstruction(key)?.waitUntil(waiting: 2)
        starter.cancel()
        // The starter stops waiting at once, with its own cancellation, while the construction is still held.
        await #expect(throws: CancellationError.self) { try await starter.value }
        #expect(metaController.asyncConstruction(key) != nil)
        gate.open()
        let product = try await other.value
        #expect(product.number == 1)
        #expect(try metaController.make(Slow.self) === product)
        #expect(counter.value == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func whenEveryWaitingTaskIsCancelledTheConstructionGoesOnAndItsProductIsKept() async throws {
        let metaController = MetaController()
        let gate = AsyncGate()
        let counter = Counter()
        metaController.registerShared(Slow.self) { _ in
            await gate.pass()
            return Slow(counter.next())
        }
        let key = FactoryKey(Slow.self)
        let requests = (0..<3).map { _ in requesting(Slow.self, from: metaController) }
        await gate.arrived()
        let construction = try #require(metaController.asyncConstruction(key))
        await construction.waitUntil(waiting: 3)
        for request in requests { request.cancel() }
        for request in requests {
            await #expect(throws: CancellationError.self) { try await request.value }
        }
        #expect(construction.waiting == 0)
        gate.open()
        await construction.waitUntil(waiting: .max)   // returns when it has ended
        #expect(try metaController.make(Slow.self).number == 1)
        #expect(try await metaController.product(Slow.self).number == 1)
        #expect(counter.value == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskCancelledBeforeItAsksStillStartsTheConstructionWhoseProductIsKept() async throws {
        let metaController = MetaController()
        let counter = Counter()
        metaController.registerShared(Slow.self) { _ in
            await Task.yield()
            return Slow(counter.next())
        }
        let cancelled = Task.detached {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await metaController.product(Slow.self)
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        await metaController.asyncConstruction(FactoryKey(Slow.self))?.waitUntil(waiting: .max)
        #expect(try await metaController.product(Slow.self).number == 1)
        #expect(counter.value == 1)
    }

    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aResetWhileTheProductIsMadeGivesItToTheRequestsWaitingButNotToTheNewSession(child: Bool) async throws {
        let root = MetaController()
        let metaController = child ? MetaController(parent: root) : root
        let counter = Counter()
        let gate = AsyncGate()
        metaController.registerShared(Slow.self) { _ in
            let number = counter.next()
            if number == 1 { await gate.pass() }
            return Slow(number)
        }
        let old = requesting(Slow.self, from: metaController)
        await gate.arrived()
        metaController.reset()
        // The new session's first request starts a construction of its own, and does not wait for the old one.
        let new = try await metaController.product(Slow.self)
        #expect(new.number == 2)
        gate.open()
        #expect(try await old.value.number == 1)
        #expect(try metaController.make(Slow.self) === new)
        #expect(try await metaController.product(Slow.self) === new)
        #expect(counter.value == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func theOldSessionsConstructionEndingWhileTheNewSessionsIsUnderWayLeavesTheNewOnesProduct() async throws {
        let metaController = MetaController()
        let counter = Counter()
        let oldGate = AsyncGate()
        let newGate = AsyncGate()
        metaController.registerShared(Slow.self) { _ in
            let number = counter.next()
            await (number == 1 ? oldGate : newGate).pass()
            return Slow(number)
        }
        let old = requesting(Slow.self, from: metaController)
        await oldGate.arrived()
        metaController.reset()
        let new = requesting(Slow.self, from: metaController)
        await newGate.arrived()
        oldGate.open()
        #expect(try await old.value.number == 1)
        // The old construction ended during the new one: nothing of it is stored.
        #expect(throws: MetaControllerError.self) { _ = try metaController.make(Slow.self) }
        newGate.open()
        #expect(try await new.value.number == 2)
        #expect(try metaController.make(Slow.self).number == 2)
    }

    @Test func aResetDropsASharedAsyncProductMadeAndTheNextRequestMakesANewOne() async throws {
        let metaController = MetaController()
        let counter = Counter()
        metaController.registerShared(Slow.self) { _ in
            await Task.yield()
            return Slow(counter.next())
        }
        #expect(try await metaController.product(Slow.self).number == 1)
        metaController.reset()
        #expect(throws: MetaControllerError.self) { _ = try metaController.make(Slow.self) }
        #expect(try await metaController.product(Slow.self).number == 2)
        #expect(try await metaController.product(Slow.self).number == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func aChildScopeLetGoOfWhileItsProductIsMadeIsFreedOnceTheConstructionEnds() async throws {
        let root = MetaController()
        let gate = AsyncGate()
        weak var weakChild: MetaController?
        weak var weakProduct: Slow?
        var request: Task<Slow, any Error>?
        do {
            let child = MetaController(parent: root)
            weakChild = child
            child.registerShared(Slow.self) { _ in
                await gate.pass()
                return Slow(1)
            }
            request = requesting(Slow.self, from: child)
        }
        await gate.arrived()
        gate.open()
        do {
            let product = try await request?.value
            weakProduct = product
            #expect(product?.number == 1)
        }
        request = nil
        // The construction task lets go of the scope when it ends; nothing of it lands in the root.
        #expect(await TestThreads.waitUntilAsync { weakChild == nil && weakProduct == nil })
        #expect(throws: MetaControllerError.self) { _ = try root.make(Slow.self) }
    }

    @Test(.timeLimit(.minutes(1)))
    func registeringAgainWhileTheProductIsMadeGivesTheWaitingRequestsTheOldProductAndKeepsNone() async throws {
        let metaController = MetaController()
        let gate = AsyncGate()
        metaController.registerShared(Slow.self) { _ in
            await gate.pass()
            return Slow(1)
        }
        let old = requesting(Slow.self, from: metaController)
        await gate.arrived()
        metaController.registerShared(Slow.self) { _ in Slow(2) }
        gate.open()
        #expect(try await old.value.number == 1)
        #expect(try metaController.make(Slow.self).number == 2)
    }

    // MARK: - Circles

    @Test(.timeLimit(.minutes(1)))
    func twoSharedAsyncFactoriesThatRequestEachOtherThrowCircularFactoriesAtOnce() async throws {
        let metaController = MetaController()
        metaController.registerShared(Alpha.self) { metaController in
            _ = try await metaController.product(Beta.self)
            return Alpha()
        }
        metaController.registerShared(Beta.self) { metaController in
            _ = try await metaController.product(Alpha.self)
            return Beta()
        }
        let result = await failure(of: requesting(Alpha.self, from: metaController))
        #expect(result?.code == .circularFactories)
        #expect(result?.text == "circular factories: Alpha -> Beta -> Alpha")
        // Nothing is kept: the next request meets the same circle again.
        #expect(await failure(of: requesting(Beta.self, from: metaController))?.text == "circular factories: Beta -> Alpha -> Beta")
    }

    @Test(.timeLimit(.minutes(1)))
    func aFactoryThatRequestsItsOwnProductThrowsCircularFactories() async throws {
        let metaController = MetaController()
        metaController.registerShared(Alpha.self) { metaController in
            _ = try await metaController.product(Alpha.self)
            return Alpha()
        }
        metaController.register(Beta.self) { metaController in
            _ = try await metaController.product(Beta.self)
            return Beta()
        }
        #expect(await failure(of: requesting(Alpha.self, from: metaController))?.text == "circular factories: Alpha -> Alpha")
        #expect(await failure(of: requesting(Beta.self, from: metaController))?.text == "circular factories: Beta -> Beta")
    }

    @Test(.timeLimit(.minutes(1)))
    func sharedFactoriesFirstRequestedInTwoTasksThatNeedEachOtherBothThrowInsteadOfWaitingForever() async throws {
        let metaController = MetaController()
        let alphaGate = AsyncGate()
        let betaGate = AsyncGate()
        metaController.registerShared(Alpha.self) { metaController in
            await alphaGate.pass()
            _ = try await metaController.product(Beta.self)
            return Alpha()
        }
        metaController.registerShared(Beta.self) { metaController in
            await betaGate.pass()
            _ = try await metaController.product(Alpha.self)
            return Beta()
        }
        let alpha = requesting(Alpha.self, from: metaController)
        let beta = requesting(Beta.self, from: metaController)
        await alphaGate.arrived()
        await betaGate.arrived()
        // Alpha's factory asks for Beta, under construction in the other task: it waits.
        alphaGate.open()
        await metaController.asyncConstruction(FactoryKey(Beta.self))?.waitUntil(waiting: 1)
        // Beta's factory asks for Alpha, whose construction waits for Beta's: a circle, found by this last wait.
        betaGate.open()
        let betaFailure = await failure(of: beta)
        let alphaFailure = await failure(of: alpha)
        #expect(betaFailure?.code == .circularFactories)
        #expect(betaFailure?.text == "circular factories: Beta -> Alpha -> Beta")
        // Alpha's construction gets Beta's construction's own error.
        #expect(alphaFailure?.text == "circular factories: Beta -> Alpha -> Beta")
        #expect(AsyncSharedWaits.waitCount(for: FactoryKey(Beta.self)) == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func aCircleAcrossAParentAndAChildIsFound() async throws {
        let parent = MetaController()
        let child = MetaController(parent: parent)
        // Made for each request with the requesting child, the parent's factory sees the child's registration.
        parent.register(Alpha.self) { metaController in
            _ = try await metaController.product(Beta.self)
            return Alpha()
        }
        child.registerShared(Beta.self) { metaController in
            _ = try await metaController.product(Alpha.self)
            return Beta()
        }
        let result = await failure(of: requesting(Alpha.self, from: child))
        #expect(result?.code == .circularFactories)
        #expect(result?.text == "circular factories: Alpha -> Beta -> Alpha")
    }

    // MARK: - Sync and async requests together

    @Test(.timeLimit(.minutes(1)))
    func anAsyncRequestDuringASynchronousBuildWaitsWithoutBlockingAndGetsTheSameProduct() async throws {
        let metaController = MetaController()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let counter = Counter()
        metaController.registerShared(Blocking.self) { _ in
            _ = counter.next()
            started.signal()
            release.wait()
            return Blocking()
        }
        let synchronous = Inbox<Blocking>()
        let done = TestThreads.onThread { if let made = try? metaController.make(Blocking.self) { synchronous.record(made) } }
        await signalled(started)
        let asynchronous = requesting(Blocking.self, from: metaController)
        #expect(await TestThreads.waitUntilAsync { metaController.isAwaited(FactoryKey(Blocking.self)) })
        // Waiting, the async request holds no thread: other tasks still run on the pool.
        let others = await withTaskGroup(of: Int.self) { group in
            for number in 0..<64 { group.addTask { number } }
            return await group.reduce(0, +)
        }
        #expect(others == 2_016)
        release.signal()
        let product = try await asynchronous.value
        await signalled(done)
        #expect(synchronous.values.first === product)
        #expect(counter.value == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func aSynchronousRequestDuringABuildAnAsyncRequestStartedWaitsAndGetsTheSameProduct() async throws {
        let metaController = MetaController()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let counter = Counter()
        metaController.registerShared(Blocking.self) { _ in
            _ = counter.next()
            started.signal()
            release.wait()
            return Blocking()
        }
        let asynchronous = requesting(Blocking.self, from: metaController)
        await signalled(started)
        let synchronous = Inbox<Blocking>()
        let done = TestThreads.onThread { if let made = try? metaController.make(Blocking.self) { synchronous.record(made) } }
        #expect(await TestThreads.waitUntilAsync { metaController.isAwaited(FactoryKey(Blocking.self)) })
        release.signal()
        let product = try await asynchronous.value
        await signalled(done)
        #expect(synchronous.values.first === product)
        #expect(counter.value == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func aHundredConstructionsWaitingOnIOHoldNoThread() async throws {
        let metaController = MetaController()
        let gate = AsyncGate()
        for index in 0..<100 {
            metaController.registerShared(Slow.self, name: "\(index)") { _ in
                await gate.pass()
                return Slow(index)
            }
        }
        let requests = (0..<100).map { requesting(Slow.self, from: metaController, name: "\($0)") }
        await gate.arrived(100)
        // With every construction in flight, the pool still runs other work: none of them holds a thread.
        let others = await withTaskGroup(of: Int.self) { group in
            for number in 0..<1_000 { group.addTask { number } }
            return await group.reduce(0, +)
        }
        #expect(others == 499_500)
        gate.open()
        for (index, request) in requests.enumerated() { #expect(try await request.value.number == index) }
    }

    // MARK: - Main actor

    @Test func aMainActorFactoryWithAnArgumentAskedFromABackgroundActorHopsAndComesBack() async throws {
        actor Background {
            func screen(from metaController: MetaController) async throws -> MainScreen {
                try await metaController.product(MainScreen.self, argument: 3)
            }
        }
        let metaController = MetaController()
        metaController.register(MainScreen.self, argument: Int.self) { @MainActor _, _ in MainScreen() }
        #expect(try await Background().screen(from: metaController).onMain)
    }

    @Test @MainActor func aMainActorAsyncFactoryIsMadeOnTheMainActorFromAnywhere() async throws {
        let metaController = MetaController()
        metaController.register(MainScreen.self) { @MainActor _ in
            await Task.yield()
            return MainScreen()
        }
        #expect(try await metaController.product(MainScreen.self).onMain)
        #expect(try await Task.detached { try await metaController.product(MainScreen.self) }.value.onMain)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingTheTaskOfAPerRequestFactoryCancelsTheFactory() async throws {
        let metaController = MetaController()
        let gate = AsyncGate()
        metaController.register(Slow.self) { _ in
            await gate.pass()
            try Task.checkCancellation()
            return Slow(1)
        }
        let request = requesting(Slow.self, from: metaController)
        await gate.arrived()
        request.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { try await request.value }
    }
}
