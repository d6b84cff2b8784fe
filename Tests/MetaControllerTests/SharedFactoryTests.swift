import Dispatch
import Testing

@testable import MetaController

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

protocol Greeter: Sendable { func greet() -> String }
private final class English: Greeter {
    func greet() -> String { "hello" }
}

private struct BuildFailed: Error {}

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

    /// Runs `make` on a thread of its own; the result is ready once `done` is waited for.
    ///
    /// A queue of its own, not a global one: a global queue runs at most as many blocks
    /// as there are cores, and the factories here block theirs, so with tests running in
    /// parallel a request could wait for a thread forever.
    private func request<Product: Sendable>(
        _: Product.Type, from metaController: MetaController
    ) -> (done: DispatchSemaphore, result: Lock<Result<Product, any Error>?>) {
        let done = DispatchSemaphore(value: 0)
        let result = Lock<Result<Product, any Error>?>(nil)
        DispatchQueue(label: "SharedFactoryTests.request").async {
            let made = Result { try metaController.make(Product.self) }
            result.withLock { $0 = made }
            done.signal()
        }
        return (done, result)
    }

    @Test func aRequestDuringTheBuildWaitsAndGetsTheSameProduct() throws {
        let metaController = MetaController()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let made = Counter()
        metaController.registerShared(Held.self) { _ in
            made.increment()
            started.signal()
            release.wait()
            return Held(1)
        }
        let first = request(Held.self, from: metaController)
        started.wait()   // the first request is making the product
        let second = request(Held.self, from: metaController)
        waitUntilAwaited(Held.self, in: metaController)   // the second waits for it
        release.signal()
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
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let attempts = Counter()
        metaController.registerShared(Held.self) { _ in
            attempts.increment()
            guard attempts.value == 1 else { return Held(attempts.value) }
            started.signal()
            release.wait()
            throw BuildFailed()
        }
        let first = request(Held.self, from: metaController)
        started.wait()
        let second = request(Held.self, from: metaController)
        waitUntilAwaited(Held.self, in: metaController)
        release.signal()
        first.done.wait()
        second.done.wait()
        #expect(throws: BuildFailed.self) { try first.result.withLock { $0 }?.get() }
        let made = try #require(try second.result.withLock { $0 }?.get())
        #expect(made.number == 2)
        #expect(attempts.value == 2)
    }

    @Test func registeringAgainDuringABuildWakesTheWaitersWithTheNewFactory() throws {
        let metaController = MetaController()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        metaController.registerShared(Held.self) { _ in
            started.signal()
            release.wait()
            return Held(1)
        }
        let first = request(Held.self, from: metaController)
        started.wait()
        let second = request(Held.self, from: metaController)
        waitUntilAwaited(Held.self, in: metaController)
        metaController.registerShared(Held.self) { _ in Held(2) }
        second.done.wait()   // woken by the new registration, before the first build ends
        let replacement = try #require(try second.result.withLock { $0 }?.get())
        #expect(replacement.number == 2)
        release.signal()
        first.done.wait()
        // The first request gets the product it made, which is not kept.
        #expect(try first.result.withLock { $0 }?.get().number == 1)
        #expect(try metaController.make(Held.self) === replacement)
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
