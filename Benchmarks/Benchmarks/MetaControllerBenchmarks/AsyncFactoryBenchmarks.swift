import Benchmark
import Dispatch
import Foundation
import MetaController

/// Async factories (issue 47): a request for a shared async product already
/// made, 1,000 tasks requesting one shared async product at once, and the
/// cooperative pool's progress while 100 constructions wait on I/O.
///
/// Every benchmark here runs in an async context, its baseline too, so that
/// both sides are measured the same way.
enum AsyncFactoryBenchmarks {
    /// A shared product: a class, as services are.
    final class Service: Sendable {}

    /// Counts the constructions of the factories that report to it.
    actor Constructions {
        private(set) var count = 0
        func add() { count += 1 }
    }

    /// The I/O that the 100 constructions wait for: each construction parks a
    /// continuation here, and the benchmark resumes them all (in its teardown).
    /// Nothing blocks a thread meanwhile: a suspended construction holds none.
    actor PendingIO {
        private var parked: [CheckedContinuation<Void, Never>] = []
        private var watcher: (count: Int, done: CheckedContinuation<Void, Never>)?

        /// Suspends the calling construction until ``completeAll()``.
        func wait() async {
            await withCheckedContinuation { continuation in
                parked.append(continuation)
                if let watcher, parked.count >= watcher.count {
                    self.watcher = nil
                    watcher.done.resume()
                }
            }
        }

        /// Returns once `count` constructions wait here.
        func untilWaiting(_ count: Int) async {
            guard parked.count < count else { return }
            await withCheckedContinuation { watcher = (count, $0) }
        }

        /// Completes the I/O of every construction waiting.
        func completeAll() {
            let waiting = parked
            parked = []
            for continuation in waiting { continuation.resume() }
        }
    }

    /// `rounds` × 2,000 dependent multiply-adds (about `rounds` microseconds here) that the
    /// optimizer cannot remove, without suspending: a task doing it holds its thread throughout.
    @inline(never)
    static func work(_ seed: Int, rounds: Int) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: seed)
        for _ in 0..<(rounds * 2_000) { hash = hash &* 0x9E37_79B9_7F4A_7C15 &+ 1 }
        return hash
    }

    /// Tasks requesting at once, and constructions in flight.
    static let requests = 1_000
    static let inFlight = 100

    static func register() {
        registerMadeRequests()
        registerRequestsAtOnce()
        registerProgressWhileInFlight()
    }

    /// A request for a shared product made already: the synchronous `make` of a
    /// shared (synchronous) product, against `product` of a shared async one.
    static func registerMadeRequests() {
        let metaController = MetaController()
        metaController.registerShared(Service.self) { _ in Service() }
        let made = try! metaController.make(Service.self)
        let asyncMetaController = MetaController()
        asyncMetaController.registerShared(Service.self) { _ async in
            await Task.yield()
            return Service()
        }
        // Made by the benchmark's setup, before its first iteration.
        var madeFirst = Workload.micro()
        madeFirst.setup = {
            let product = try! await asyncMetaController.product(Service.self)
            let again = try! await asyncMetaController.product(Service.self)
            precondition(again === product)
        }

        Benchmark("async-made-make", configuration: Workload.micro()) { benchmark async in
            for _ in benchmark.scaledIterations { blackHole(try! metaController.make(Service.self)) }
        }
        Benchmark("async-made-product", configuration: madeFirst) { benchmark async in
            for _ in benchmark.scaledIterations { blackHole(try! await asyncMetaController.product(Service.self)) }
        }
        precondition(try! metaController.make(Service.self) === made)
    }

    /// A MetaController with a shared async factory of `Service` that counts its constructions.
    static func sharedAsyncService() -> (MetaController, Constructions) {
        let metaController = MetaController()
        let constructions = Constructions()
        metaController.registerShared(Service.self) { _ async in
            await constructions.add()
            return Service()
        }
        return (metaController, constructions)
    }

    /// Fails the run unless the factory ran exactly once.
    static func expectOneConstruction(_ constructions: Constructions, _ benchmark: String) async {
        let count = await constructions.count
        if count != 1 {
            fatalError("\(benchmark): \(count) constructions of one shared async product, expected exactly 1")
        }
    }

    /// 1,000 tasks requesting one shared async product not made yet, at once,
    /// against one construction awaited and then 1,000 synchronous requests (in
    /// a loop, and in 1,000 tasks: the share of the tasks themselves). The
    /// tasks are unstructured, as a server's request handlers are: a task
    /// group of 1,000 children adds the group's own cost, which grows with
    /// the children waiting at once (each one's removal walks the list).
    static func registerRequestsAtOnce() {
        let single = Workload.single(maxDuration: .seconds(2), maxIterations: 2_000)
        Benchmark("async-once-then-make-1000", configuration: single) { benchmark async in
            let (metaController, constructions) = sharedAsyncService()
            benchmark.startMeasurement()
            let first = try! await metaController.product(Service.self)
            var same = 0
            for _ in 0..<requests where try! metaController.make(Service.self) === first { same += 1 }
            benchmark.stopMeasurement()
            precondition(same == requests, "async-once-then-make-1000: \(same) of \(requests) got the shared product")
            await expectOneConstruction(constructions, "async-once-then-make-1000")
        }
        Benchmark("async-once-then-make-1000-tasks", configuration: single) { benchmark async in
            let (metaController, constructions) = sharedAsyncService()
            benchmark.startMeasurement()
            let first = try! await metaController.product(Service.self)
            let tasks = (0..<requests).map { _ in Task { try! metaController.make(Service.self) } }
            var same = 0
            for task in tasks {
                let product = await task.value
                if product === first { same += 1 }
            }
            benchmark.stopMeasurement()
            precondition(same == requests, "async-once-then-make-1000-tasks: \(same) of \(requests) got the shared product")
            await expectOneConstruction(constructions, "async-once-then-make-1000-tasks")
        }
        Benchmark("async-at-once-1000-tasks", configuration: single) { benchmark async in
            let (metaController, constructions) = sharedAsyncService()
            benchmark.startMeasurement()
            let tasks = (0..<requests).map { _ in Task { try! await metaController.product(Service.self) } }
            let first = await tasks[0].value
            var same = 0
            for task in tasks {
                let product = await task.value
                if product === first { same += 1 }
            }
            benchmark.stopMeasurement()
            precondition(
                same == requests && first === (try! metaController.make(Service.self)),
                "async-at-once-1000-tasks: \(same) of \(requests) got the shared product")
            await expectOneConstruction(constructions, "async-at-once-1000-tasks")
        }
    }

    /// As many tasks as the cooperative pool has threads free, each doing a
    /// fixed amount of work (none of it suspends), with nothing else running,
    /// and while 100 shared async constructions wait on I/O. A construction
    /// that held a thread would leave the work one thread fewer.
    static func registerProgressWhileInFlight() {
        // The pool has a thread per core, and the harness holds one of them
        // while an async benchmark runs: it waits for the benchmark's task on a
        // semaphore (`Benchmark.runAsync`), from the runner's own task.
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
        let rounds = 200
        @Sendable func poolWork() async {
            let results = await withTaskGroup(of: UInt64.self) { group in
                for index in 0..<width { group.addTask { work(index, rounds: rounds) } }
                var results: [UInt64] = []
                for await result in group { results.append(result) }
                return results
            }
            blackHole(results)
        }
        let single = Workload.single(maxDuration: .seconds(2), maxIterations: 1_000)

        Benchmark("async-pool-alone", configuration: single) { _ async in
            await poolWork()
        }

        // 100 constructions, each of its own shared async factory, each waiting
        // for its I/O (a continuation the teardown resumes), with a request
        // waiting for each: 200 tasks suspended, no thread held. Made afresh by
        // each setup, so that a second run of the benchmark finds none made.
        let scene = Scene()
        let inFlightConfiguration = Workload.single(
            maxDuration: .seconds(2), maxIterations: 1_000,
            setup: { await scene.startInFlight() },
            teardown: { await scene.finishInFlight() })
        Benchmark("async-pool-in-flight", configuration: inFlightConfiguration) { _ async in
            await poolWork()
        }

        // No contrast row with a construction that blocks its thread: the harness
        // holds one of the pool's threads (see `width`), so with 2 cores one
        // blocked thread leaves the work none, and the benchmark never ends (tried).
    }

    /// What the in-flight benchmarks hold between their setup and their teardown.
    actor Scene {
        private var io = PendingIO()
        private var constructions = Constructions()
        private var requests: [Task<Service, Never>] = []

        /// Starts 100 requests of 100 shared async products, and returns once each construction waits on its I/O.
        func startInFlight() async {
            let io = PendingIO()
            let constructions = Constructions()
            let metaController = MetaController()
            for number in 0..<inFlight {
                metaController.registerShared(Service.self, name: "io-\(number)") { _ async in
                    await io.wait()
                    await constructions.add()
                    return Service()
                }
            }
            (self.io, self.constructions) = (io, constructions)
            requests = (0..<inFlight).map { number in
                Task.detached { try! await metaController.product(Service.self, name: "io-\(number)") }
            }
            await io.untilWaiting(inFlight)
        }

        /// Completes the I/O, and fails the run unless each request got its product from one construction.
        func finishInFlight() async {
            let before = await constructions.count
            precondition(before == 0, "async-pool-in-flight: \(before) constructions ended before their I/O")
            await io.completeAll()
            let answered = await finish()
            let made = await constructions.count
            precondition(
                answered == inFlight && made == inFlight,
                "async-pool-in-flight: \(answered) requests answered by \(made) constructions, expected \(inFlight)")
        }

        /// Waits for every request and returns how many were answered.
        private func finish() async -> Int {
            var answered = 0
            for task in requests {
                blackHole(await task.value)
                answered += 1
            }
            requests = []
            return answered
        }
    }
}
