import Dispatch
import Foundation
import Testing

import MetaController
@testable import MetaControllerCore
import MetaControllerTestSupport
import MetaControllerSupport

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A product whose factory the test holds until it says so.
private final class Held: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// A class with a subclass: a global actor makes a class that is not final `Sendable`.
@MainActor class Vehicle {
    nonisolated init() {}
}

@MainActor final class Bicycle: Vehicle {
    nonisolated override init() { super.init() }
}

protocol Greeter: Sendable { func greet() -> String }
private final class English: Greeter {
    func greet() -> String { "hello" }
}

private struct BuildFailed: Error {}

/// Shared products whose factories need each other.
private final class Alpha: Sendable {}
private final class Beta: Sendable {}
private final class Gamma: Sendable {}

/// What `registerShared` promises while a product is being made: requests that come meanwhile
/// wait for it and get the same product; a failed build is tried again; registering again
/// meanwhile wins. The waits are made certain by watching the factory's slot, not by sleeping;
/// the suite runs its tests one at a time, since each holds threads while it watches.
@Suite(.serialized)
struct SharedFactoryTests {
    /// Blocks until the slot of `Product` (a type alone) has a request waiting for its build.
    private func waitUntilAwaited<Product>(_: Product.Type, in metaController: MetaController) {
        let key = FactoryKey(Product.self, Void.self, name: nil)
        // A guard against a hang, not a timing: the wait takes microseconds.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let awaited = metaController.state.withLock { state in
                if case .awaited? = state.factory(key) { return true }
                return false
            }
            if awaited { return }
            sched_yield()   // let the threads being watched run
        }
        Issue.record("no request came to wait for the build of \(Product.self) within a minute")
    }

    /// A request under way: its result is there once `done` is waited for.
    private typealias Pending<Product> = (done: DispatchSemaphore, result: Lock<Result<Product, any Error>?>)

    /// Runs `make` on a thread of its own; the result is ready once `done` is waited for.
    ///
    /// A queue of its own, not a global one: a global queue runs at most as many blocks
    /// as there are cores, and the factories here block theirs, so with tests running in
    /// parallel a request could wait for a thread forever.
    private func request<Product: Sendable>(_: Product.Type, from metaController: MetaController) -> Pending<Product> {
        let done = DispatchSemaphore(value: 0)
        let result = Lock<Result<Product, any Error>?>(nil)
        DispatchQueue(label: "SharedFactoryTests.request").async {
            let made = Result { try metaController.make(Product.self) }
            result.withLock { $0 = made }
            done.signal()
        }
        return (done, result)
    }

    /// Holds a factory inside its build until the test releases it.
    private struct Gate: Sendable {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        /// Called by the factory: says the build started, then waits for the release.
        func hold() {
            started.signal()
            release.wait()
        }
    }

    /// Starts a first request, whose factory holds at `gate`, then a second, and returns
    /// once the second is waiting for the first's build.
    private func twoRequestsDuringABuild<Product: Sendable>(
        _: Product.Type, from metaController: MetaController, gate: Gate
    ) -> (first: Pending<Product>, second: Pending<Product>) {
        let first = request(Product.self, from: metaController)
        gate.started.wait()   // the first request is making the product
        let second = request(Product.self, from: metaController)
        waitUntilAwaited(Product.self, in: metaController)   // the second waits for it
        return (first, second)
    }

    @Test(arguments: [false, true])
    func registeringAgainReleasesTheSharedFactoryAndWhatItCaptured(productMadeFirst: Bool) throws {
        final class Captured: Sendable {}
        let metaController = MetaController()
        weak var weakCaptured: Captured?
        do {
            let captured = Captured()
            weakCaptured = captured
            metaController.registerShared(ImageCache.self) { _ in
                withExtendedLifetime(captured) { ImageCache() }
            }
        }
        if productMadeFirst { _ = try metaController.make(ImageCache.self) as ImageCache }
        #expect(weakCaptured != nil)
        metaController.registerShared(ImageCache.self) { _ in ImageCache() }
        #expect(weakCaptured == nil)
    }

    @Test func aRequestDuringTheBuildWaitsAndGetsTheSameProduct() throws {
        let metaController = MetaController()
        let gate = Gate()
        let made = Counter()
        metaController.registerShared(Held.self) { _ in
            made.increment()
            gate.hold()
            return Held(1)
        }
        let (first, second) = twoRequestsDuringABuild(Held.self, from: metaController, gate: gate)
        gate.release.signal()
        first.done.wait()
        second.done.wait()
        let one = try #require(try first.result.withLock { $0 }?.get())
        let other = try #require(try second.result.withLock { $0 }?.get())
        #expect(one === other)
        #expect(made.value == 1)
        #expect(try metaController.make(Held.self) === one)
    }

    @Test func aFailedBuildIsTriedAgainByTheNextRequest() throws {
        let metaController = MetaController()
        let attempts = Counter()
        metaController.registerShared(Held.self) { _ in
            attempts.increment()
            if attempts.value == 1 { throw BuildFailed() }
            return Held(attempts.value)
        }
        #expect(throws: BuildFailed.self) { try metaController.make(Held.self) }
        let made = try metaController.make(Held.self)
        #expect(made.number == 2)
        #expect(try metaController.make(Held.self) === made)
        #expect(attempts.value == 2)
    }

    @Test func aRequestWaitingForABuildThatFailsMakesTheProductItself() throws {
        let metaController = MetaController()
        let gate = Gate()
        let attempts = Counter()
        metaController.registerShared(Held.self) { _ in
            attempts.increment()
            guard attempts.value == 1 else { return Held(attempts.value) }
            gate.hold()
            throw BuildFailed()
        }
        let (first, second) = twoRequestsDuringABuild(Held.self, from: metaController, gate: gate)
        gate.release.signal()
        first.done.wait()
        second.done.wait()
        #expect(throws: BuildFailed.self) { try first.result.withLock { $0 }?.get() }
        let made = try #require(try second.result.withLock { $0 }?.get())
        #expect(made.number == 2)
        #expect(attempts.value == 2)
    }

    @Test func registeringAgainDuringABuildWakesTheWaitersWithTheNewFactory() throws {
        let metaController = MetaController()
        let gate = Gate()
        metaController.registerShared(Held.self) { _ in
            gate.hold()
            return Held(1)
        }
        let (first, second) = twoRequestsDuringABuild(Held.self, from: metaController, gate: gate)
        metaController.registerShared(Held.self) { _ in Held(2) }
        second.done.wait()   // woken by the new registration, before the first build ends
        let replacement = try #require(try second.result.withLock { $0 }?.get())
        #expect(replacement.number == 2)
        gate.release.signal()
        first.done.wait()
        // The first request gets the product it made, which is not kept.
        #expect(try first.result.withLock { $0 }?.get().number == 1)
        #expect(try metaController.make(Held.self) === replacement)
    }

    // MARK: - Shared factories that need each other, first requested on different threads

    /// Lets each factory of a circle say it started and wait until all have:
    /// then each product's build is under way on its own thread before any
    /// requests the next, and the circle closes across the threads for certain.
    private final class Meeting: Sendable {
        private let arrived = Lock<Set<String>>([])
        private let parties: Set<String>
        init(_ parties: Set<String>) { self.parties = parties }

        /// Marks `party` as started, then waits for the others (a bounded wait; a factory that
        /// runs again after a failure finds everyone there already).
        func arrive(_ party: String) {
            arrived.withLock { _ = $0.insert(party) }
            // A guard against a hang, not a timing: the others start within microseconds.
            let deadline = ContinuousClock.now + .seconds(20)
            while arrived.withLock({ $0 }) != parties {
                guard ContinuousClock.now < deadline else {
                    Issue.record("\(party): the other factories did not start within 20 seconds")
                    return
                }
                sched_yield()
            }
        }
    }

    /// Runs each request on a thread of its own and returns their results in order, or `nil`
    /// (after recording an issue) when they have not all returned within 20 seconds: requests
    /// that wait for each other forever fail the test instead of hanging the suite.
    private func requestsOnThreadsOfTheirOwn(_ requests: [@Sendable () throws -> Void]) -> [Result<Void, any Error>]? {
        let results = Lock<[Int: Result<Void, any Error>]>([:])
        let group = DispatchGroup()
        for (index, request) in requests.enumerated() {
            group.enter()
            let thread = Thread {
                let result = Result { try request() }
                results.withLock { $0[index] = result }
                group.leave()
            }
            thread.start()
        }
        guard group.wait(timeout: .now() + .seconds(20)) == .success else {
            Issue.record("the requests waited for each other: \(results.withLock { $0.count }) of \(requests.count) returned")
            return nil
        }
        return results.withLock { results in requests.indices.map { results[$0]! } }
    }

    /// The description of the `circularFactories` error in `result`, or what it holds instead.
    private func circle(_ result: Result<Void, any Error>) -> String {
        switch result {
        case .success: "made"
        case .failure(let error as MetaControllerError) where error.code == .circularFactories: error.description
        case .failure(let error): "other error: \(error)"
        }
    }

    @Test func twoSharedFactoriesThatNeedEachOtherThrowOnBothThreadsInsteadOfWaitingForever() throws {
        let metaController = MetaController()
        let meeting = Meeting(["alpha", "beta"])
        metaController.registerShared(Alpha.self) { metaController in
            meeting.arrive("alpha")
            _ = try metaController.make(Beta.self)
            return Alpha()
        }
        metaController.registerShared(Beta.self) { metaController in
            meeting.arrive("beta")
            _ = try metaController.make(Alpha.self)
            return Beta()
        }
        let results = try #require(
            requestsOnThreadsOfTheirOwn([
                { _ = try metaController.make(Alpha.self) },
                { _ = try metaController.make(Beta.self) },
            ]))
        // Each side gets the circle as seen from the product it asked for: one finds it
        // before waiting; the other, woken by that build's failure, makes the product it
        // waited for itself and meets the circle on its own thread.
        #expect(circle(results[0]) == "circular factories: Alpha -> Beta -> Alpha")
        #expect(circle(results[1]) == "circular factories: Beta -> Alpha -> Beta")
        // Nothing is left building: a later request meets the circle at once, on one thread.
        let later = try #require(requestsOnThreadsOfTheirOwn([{ _ = try metaController.make(Beta.self) }]))
        #expect(circle(later[0]) == "circular factories: Beta -> Alpha -> Beta")
    }

    @Test func aCircleOfThreeSharedFactoriesOnThreeThreadsThrowsOnEachThread() throws {
        let metaController = MetaController()
        let meeting = Meeting(["alpha", "beta", "gamma"])
        metaController.registerShared(Alpha.self) { metaController in
            meeting.arrive("alpha")
            _ = try metaController.make(Beta.self)
            return Alpha()
        }
        metaController.registerShared(Beta.self) { metaController in
            meeting.arrive("beta")
            _ = try metaController.make(Gamma.self)
            return Beta()
        }
        metaController.registerShared(Gamma.self) { metaController in
            meeting.arrive("gamma")
            _ = try metaController.make(Alpha.self)
            return Gamma()
        }
        let results = try #require(
            requestsOnThreadsOfTheirOwn([
                { _ = try metaController.make(Alpha.self) },
                { _ = try metaController.make(Beta.self) },
                { _ = try metaController.make(Gamma.self) },
            ]))
        #expect(circle(results[0]) == "circular factories: Alpha -> Beta -> Gamma -> Alpha")
        #expect(circle(results[1]) == "circular factories: Beta -> Gamma -> Alpha -> Beta")
        #expect(circle(results[2]) == "circular factories: Gamma -> Alpha -> Beta -> Gamma")
    }

    @Test func namedSharedProductsInACircleAcrossThreadsAndScopesThrowWithTheirNames() throws {
        // The two factories are registered in different MetaControllers (a parent and its
        // child), and named: the circle is found across both.
        let parent = MetaController()
        let child = MetaController(parent: parent)
        let meeting = Meeting(["a", "b"])
        parent.registerShared(Held.self, name: "a") { _ in
            meeting.arrive("a")
            _ = try child.make(Held.self, name: "b")
            return Held(1)
        }
        child.registerShared(Held.self, name: "b") { _ in
            meeting.arrive("b")
            _ = try child.make(Held.self, name: "a")
            return Held(2)
        }
        let results = try #require(
            requestsOnThreadsOfTheirOwn([
                { _ = try child.make(Held.self, name: "a") },
                { _ = try child.make(Held.self, name: "b") },
            ]))
        #expect(circle(results[0]) == #"circular factories: Held named "a" -> Held named "b" -> Held named "a""#)
        #expect(circle(results[1]) == #"circular factories: Held named "b" -> Held named "a" -> Held named "b""#)
    }

    @Test func aFactoryThatCatchesTheCircleLetsTheOtherThreadFinish() throws {
        // The side that finds the circle throws; when its factory catches the error and
        // makes its product anyway, the other side, which waited for that product, gets it
        // and makes its own.
        let metaController = MetaController()
        let meeting = Meeting(["alpha", "beta"])
        let betaSawTheCircle = Lock(false)
        metaController.registerShared(Alpha.self) { metaController in
            meeting.arrive("alpha")
            _ = try metaController.make(Beta.self)
            return Alpha()
        }
        metaController.registerShared(Beta.self) { metaController in
            meeting.arrive("beta")
            // Alpha's thread waits for Beta first, so this thread closes the circle.
            let deadline = ContinuousClock.now + .seconds(20)
            while !SharedFactoryWaits.isAwaited(FactoryKey(Beta.self)), ContinuousClock.now < deadline { sched_yield() }
            do {
                _ = try metaController.make(Alpha.self)
            } catch let error as MetaControllerError where error.code == .circularFactories {
                betaSawTheCircle.withLock { $0 = true }
            }
            return Beta()
        }
        let results = try #require(
            requestsOnThreadsOfTheirOwn([
                { _ = try metaController.make(Alpha.self) },
                { _ = try metaController.make(Beta.self) },
            ]))
        #expect(circle(results[0]) == "made")
        #expect(circle(results[1]) == "made")
        #expect(betaSawTheCircle.withLock { $0 })
        #expect(try metaController.make(Alpha.self) === metaController.make(Alpha.self))
    }

    @Test func aSharedObjectAskedForThroughASuperclassMetatypeIsTheOneMadeForItsClass() throws {
        let metaController = MetaController()
        metaController.registerShared(Bicycle.self) { _ in Bicycle() }
        let type: Vehicle.Type = Bicycle.self
        let made = try metaController.make(type)   // made by this request
        #expect(made is Bicycle)
        #expect(try metaController.make(type) === made)   // then handed back
        #expect(try metaController.make(Bicycle.self) === made)
        #expect(throws: MetaControllerError.self) { try metaController.make(Vehicle.self) }   // not registered
    }

    @Test func sharedProductsOfEveryKindAreMadeOnceAndHandedBackAsMade() throws {
        let metaController = MetaController()
        let made = Counter()
        metaController.registerShared(Int.self) { _ in
            made.increment()
            return 42
        }
        metaController.registerShared((any Greeter).self) { _ in
            made.increment()
            return English()
        }
        metaController.registerShared(String.self, name: "greeting") { _ in
            made.increment()
            return String(repeating: "hello ", count: 10)   // longer than a string stored inline
        }
        #expect(try metaController.make(Int.self) == 42)
        #expect(try metaController.make(Int.self) == 42)
        let greeter = try metaController.make((any Greeter).self)
        #expect(greeter.greet() == "hello")
        #expect(try metaController.make((any Greeter).self) as AnyObject === greeter as AnyObject)
        let greeting = try metaController.make(String.self, name: "greeting")
        #expect(try metaController.make(String.self, name: "greeting") == greeting)
        #expect(made.value == 3)
    }
}

extension SharedFactoryTests {
    final class Named: Sendable {
        let label: String
        init(_ label: String) { self.label = label }
    }
    struct NamedBox: Sendable { let named: Named }

    /// "Concurrent first requests still make it once: the first runs the factory
    /// … and the others wait for its product", for a named product beside an
    /// unnamed one of the same type: the waiting request gets the named product.
    @Test func aRequestWaitingForANamedSharedProductGetsThatProduct() throws {
        let metaController = MetaController()
        let builds = Lock(0)
        let started = Lock(false)
        metaController.registerShared(Named.self) { _ in Named("unnamed") }
        metaController.registerShared(Named.self, name: "a") { _ in
            builds.withLock { $0 += 1 }
            started.withLock { $0 = true }
            // Returns once the other request waits for this build (or after 20 s, and the test fails).
            let deadline = ContinuousClock.now + .seconds(20)
            while !SharedFactoryWaits.isAwaited(FactoryKey(Named.self, name: "a")), ContinuousClock.now < deadline { sched_yield() }
            return Named("a")
        }
        // The waiting request is made inside a factory, so that its wait is recorded and seen.
        metaController.register(NamedBox.self) { metaController in NamedBox(named: try metaController.make(Named.self, name: "a")) }
        let first = Lock<Named?>(nil), waited = Lock<NamedBox?>(nil)
        let results = try #require(
            requestsOnThreadsOfTheirOwn([
                {
                    let made = try metaController.make(Named.self, name: "a")
                    first.withLock { $0 = made }
                },
                {
                    _ = TestThreads.waitUntil(seconds: 20) { started.withLock { $0 } }
                    let box = try metaController.make(NamedBox.self)
                    waited.withLock { $0 = box }
                },
            ]))
        for result in results { try result.get() }
        #expect(builds.withLock { $0 } == 1)
        #expect(SharedFactoryWaits.isAwaited(FactoryKey(Named.self, name: "a")) == false)
        let made = try #require(first.withLock { $0 })
        #expect(made.label == "a")
        #expect(waited.withLock { $0 }?.named === made)   // the same product, not the unnamed one
    }
}
