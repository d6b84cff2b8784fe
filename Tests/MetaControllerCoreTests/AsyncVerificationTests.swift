import Testing

import MetaController
@testable import MetaControllerCore
import MetaControllerTestSupport

// The products of the graphs below: each planted problem has types of its own,
// so that a report naming one can only come from that problem.
private final class Feed: Sendable {}
private final class Missing: Sendable {}
private final class Flaky: Sendable {}
private struct DiskFull: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}
private final class Detail: Sendable {}
private final class Hen: Sendable {}
private final class Yolk: Sendable {}
private final class Rock: Sendable {}
private final class Paper: Sendable {}
private final class Scissors: Sendable {}
private final class Legacy: Sendable {}
private final class Session: Sendable {}
private final class Formatter: Sendable {}
private final class Cache: Sendable {}
private final class Left: Sendable {}
private final class Right: Sendable {}
private final class Nested: Sendable {}
@MainActor private final class Banner {
    nonisolated init() {}
}
private final class Checkout: WeakMetaControllerConsumer, Sendable {
    static let requiredControllers: [MetaControllerSlot] = [.api]
    let metaControllerReference = WeakMetaControllerReference()
}
private final class Eager: WeakMetaControllerConsumer, Sendable {
    let metaControllerReference = WeakMetaControllerReference()
    func metaControllerDidArrive() { _ = apiController }
}

/// A product that says when it is let go of.
private final class Watched: Sendable {
    private let released: @Sendable () -> Void
    init(released: @escaping @Sendable () -> Void) { self.released = released }
    deinit { released() }
}

/// Counts constructions across tasks.
private final class Counter: Sendable {
    private let count = Lock(0)
    func next() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// Two factories meeting: each arrives, then waits until the other has arrived, or until the
/// test's deadline releases it (`false`): they only both meet when they run at the same time.
private final class Meeting: Sendable {
    private struct State: Sendable {
        var arrived = 0
        var released = false
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }

    private let state = Lock(State())

    func arrive() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
                state.arrived += 1
                state.waiting.append(continuation)
                guard state.arrived >= 2 || state.released else { return [] }
                defer { state.waiting = [] }
                return state.waiting
            }
            let met = state.withLock { !$0.released }
            for waiter in ready { waiter.resume(returning: met) }
        }
    }

    /// Lets every factory waiting go on, met or not.
    func release() {
        let waiting = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume(returning: false) }
    }
}

@Suite("MetaController: verification(consumers:samples:) with async factories")
@MainActor
struct AsyncVerificationTests {
    @Test func everyProblemOfAnAsyncFactoryIsReportedWhereItArose() async {
        let metaController = MetaController()
        metaController.register(Feed.self) { metaController in
            _ = try await metaController.product(Missing.self)
            return Feed()
        }
        metaController.register(Flaky.self) { _ async throws -> Flaky in throw DiskFull() }
        metaController.register(Detail.self, argument: Int.self) { _, _ async in Detail() }
        metaController.register(Hen.self) {
            _ = try await $0.product(Yolk.self) as Yolk; return Hen()
        }
        metaController.register(Yolk.self) {
            _ = try await $0.product(Hen.self) as Hen; return Yolk()
        }
        metaController.register(Checkout.self) { _ async in Checkout() }
        metaController.register(Eager.self) { _ async in Eager() }
        metaController.register(Banner.self) { @MainActor _ in Banner() }
        metaController.register(Cache.self) { metaController async throws in
            _ = try metaController.make(Banner.self, isolation: nil)
            return Cache()
        }
        let report = await metaController.verification()
        let lines = report.problems.map(\.description)
        #expect(
            lines.contains("Feed -> Missing: no factory makes Missing; register one with register(_:name:factory:)"),
            "\(report)")
        #expect(lines.contains("the factory of Flaky threw: the disk is full"), "\(report)")
        #expect(
            lines.contains(
                "Detail from Int was not made: no sample argument; pass one to verify(consumers:samples:) or register the factory with register(_:name:argument:sample:factory:)"
            ), "\(report)")
        #expect(lines.contains("circular factories: Hen -> Yolk -> Hen"), "\(report)")
        #expect(lines.contains("Checkout requires apiController, which this MetaController lacks"), "\(report)")
        #expect(lines.contains("Eager read apiController, which this MetaController does not fill"), "\(report)")
        #expect(
            lines.contains("Cache -> Banner: the factory of Banner runs on the main actor; call make from the main actor"),
            "\(report)")
        #expect(report.problems.count == 7, "\(report)")
        #expect(report.factoriesChecked == 9 && report.factoriesMade == 3, "\(report)")
        let missing = report.problems.first { $0.kind == .missingFactory }
        #expect(missing?.chain == ["Feed", "Missing"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aVerificationLetsGoOfTheProductsItMadeEvenWhileATaskAFactoryStartedGoesOn() async {
        let gate = AsyncGate()
        let released = Inbox<Bool>()
        let metaController = MetaController()
        metaController.registerShared(Watched.self) { _ in Watched { released.record(true) } }
        metaController.register(Nested.self) { metaController in
            _ = try metaController.make(Watched.self) as Watched
            // A task the factory starts inherits the verification's task-local values and outlives it.
            Task { await gate.pass() }
            await Task.yield()
            return Nested()
        }
        let report = await metaController.verification()
        #expect(report.isSatisfied, "\(report)")
        // No product is kept: the shared product the verification made is let go of when it returns.
        #expect(released.values == [true])
        gate.open()
    }

    @Test func aMissingProductDeepInAChainOfAsyncFactoriesHasTheLongestChain() async {
        let metaController = MetaController()
        metaController.register(Rock.self) {
            _ = try await $0.product(Paper.self) as Paper; return Rock()
        }
        metaController.register(Paper.self) {
            _ = try await $0.product(Scissors.self) as Scissors; return Paper()
        }
        metaController.register(Scissors.self) {
            _ = try await $0.product(Missing.self) as Missing; return Scissors()
        }
        let report = await metaController.verification()
        #expect(report.problems.map(\.chain) == [["Rock", "Paper", "Scissors", "Missing"]], "\(report)")
    }

    @Test func aProblemOfASynchronousFactoryAnAsyncOneRequestsHasTheWholeChain() async {
        let metaController = MetaController()
        metaController.register(Feed.self) {
            _ = try await $0.product(Detail.self) as Detail; return Feed()
        }
        metaController.register(Detail.self) {
            _ = try $0.make(Missing.self) as Missing; return Detail()
        }
        let report = await metaController.verification()
        #expect(report.problems.map(\.chain) == [["Feed", "Detail", "Missing"]], "\(report)")
        #expect(report.problems.first?.kind == .missingFactory)
    }

    @Test func aSynchronousFactoryAskingForAnAsyncOneWithMakeIsReportedNamingBoth() async {
        let metaController = MetaController()
        metaController.registerShared(Session.self) { _ in
            await Task.yield(); return Session()
        }
        metaController.register(Legacy.self) {
            _ = try $0.make(Session.self) as Session; return Legacy()
        }
        let report = await metaController.verification()
        #expect(report.problems.count == 1, "\(report)")
        let problem = report.problems.first
        #expect(problem?.kind == .asyncFactory)
        #expect(problem?.chain == ["Legacy", "Session"])
        #expect(
            problem?.message
                == "Legacy requests Session with make, which cannot wait for its async factory (the app gets an asyncFactory error); make the factory of Legacy async and request it with try await product(_:name:)"
        )
    }

    @Test func anAsyncFactoryCatchingAFailedRequestIsNotReported() async {
        let metaController = MetaController()
        metaController.register(Feed.self) { metaController async in
            _ = try? await metaController.product(Missing.self)
            return Feed()
        }
        let report = await metaController.verification()
        #expect(report.isSatisfied, "\(report)")
        #expect(report.factoriesMade == 1)
    }

    @Test func eachFactoryRunsOncePerVerificationWhateverTheTasksThatAskForIt() async {
        let metaController = MetaController()
        let shared = Counter()
        let perRequest = Counter()
        let sharedSync = Counter()
        let flaky = Counter()
        metaController.registerShared(Session.self) { _ in
            await Task.yield()
            shared.next()
            return Session()
        }
        metaController.register(Formatter.self) { _ async in
            perRequest.next()
            return Formatter()
        }
        metaController.registerShared(Cache.self) { _ in
            sharedSync.next()
            return Cache()
        }
        metaController.register(Flaky.self) { _ async throws -> Flaky in
            flaky.next()
            throw DiskFull()
        }
        for name in ["a", "b", "c"] {
            metaController.register(Feed.self, name: name) { metaController in
                _ = try await metaController.product(Session.self) as Session
                _ = try await metaController.product(Formatter.self) as Formatter
                _ = try await metaController.product(Cache.self) as Cache
                _ = try metaController.make(Cache.self) as Cache
                _ = try? await metaController.product(Flaky.self) as Flaky
                return Feed()
            }
        }
        let report = await metaController.verification()
        #expect(report.factoriesChecked == 7 && report.factoriesMade == 6, "\(report)")
        #expect(shared.value == 1)
        #expect(perRequest.value == 1)
        #expect(sharedSync.value == 1)
        #expect(flaky.value == 1)
        #expect(report.problems.map(\.description) == ["the factory of Flaky threw: the disk is full"], "\(report)")
    }

    @Test func aSynchronousFactoryNotSharedRunsAgainForEachRequestOfAnAsyncFactory() async {
        let metaController = MetaController()
        let made = Counter()
        metaController.register(Formatter.self) { _ in
            made.next()
            return Formatter()
        }
        metaController.register(Feed.self) { metaController in
            _ = try await metaController.product(Formatter.self) as Formatter
            return Feed()
        }
        metaController.register(Detail.self) { metaController in
            _ = try await metaController.product(Formatter.self) as Formatter
            return Detail()
        }
        let report = await metaController.verification()
        #expect(report.isSatisfied, "\(report)")
        // Once for its own check, once for each async factory's request.
        #expect(made.value == 3)
    }

    @Test func independentAsyncFactoriesAreMadeAtTheSameTime() async {
        let metaController = MetaController()
        let meeting = Meeting()
        let met = Lock([Bool]())
        metaController.register(Left.self) { _ in
            let other = await meeting.arrive()
            met.withLock { $0.append(other) }
            return Left()
        }
        metaController.registerShared(Right.self) { _ in
            let other = await meeting.arrive()
            met.withLock { $0.append(other) }
            return Right()
        }
        // A bound, not a wait for success: made one after the other, the first would wait for ever.
        let deadline = Task {
            try? await Task.sleep(nanoseconds: 20_000_000_000)
            meeting.release()
        }
        let report = await metaController.verification()
        deadline.cancel()
        #expect(report.isSatisfied && report.factoriesMade == 2, "\(report)")
        #expect(met.withLock { $0 } == [true, true])
    }

    @Test func asyncFactoriesRequestingEachOtherFromTwoTasksAreOneCircleNeverAHang() async {
        let metaController = MetaController()
        let meeting = Meeting()
        // Each factory waits until the other runs, in its own task, before it asks for the other:
        // each then waits for a request the other task is making.
        metaController.registerShared(Hen.self) { metaController in
            _ = await meeting.arrive()
            _ = try await metaController.product(Yolk.self) as Yolk
            return Hen()
        }
        metaController.registerShared(Yolk.self) { metaController in
            _ = await meeting.arrive()
            _ = try await metaController.product(Hen.self) as Hen
            return Yolk()
        }
        let deadline = Task {
            try? await Task.sleep(nanoseconds: 20_000_000_000)
            meeting.release()
        }
        let report = await metaController.verification()
        deadline.cancel()
        #expect(report.problems.map(\.description) == ["circular factories: Hen -> Yolk -> Hen"], "\(report)")
        #expect(report.problems.first?.kind == .circularFactories)
    }

    @Test func aCircleOfThreeAsyncFactoriesInThreeTasksIsNamedFromItsFirstFactory() async {
        let metaController = MetaController()
        let gate = AsyncGate()
        metaController.register(Scissors.self) { metaController in
            await gate.pass()
            _ = try await metaController.product(Rock.self) as Rock
            return Scissors()
        }
        metaController.register(Rock.self) { metaController in
            await gate.pass()
            _ = try await metaController.product(Paper.self) as Paper
            return Rock()
        }
        metaController.register(Paper.self) { metaController in
            await gate.pass()
            _ = try await metaController.product(Scissors.self) as Scissors
            return Paper()
        }
        let opener = Task {
            await gate.arrived(3)
            gate.open()
        }
        let report = await metaController.verification()
        await opener.value
        #expect(report.problems.map(\.description) == ["circular factories: Paper -> Scissors -> Rock -> Paper"], "\(report)")
    }

    @Test func anAsyncFactoryRequestingItselfIsACircle() async {
        let metaController = MetaController()
        metaController.register(Nested.self) {
            _ = try await $0.product(Nested.self) as Nested; return Nested()
        }
        let report = await metaController.verification()
        #expect(report.problems.map(\.description) == ["circular factories: Nested -> Nested"], "\(report)")
    }

    @Test func noProductIsKeptAndASharedProductMadeBeforeIsNotMadeAgain() async throws {
        let metaController = MetaController()
        let session = Counter()
        let cache = Counter()
        let made = Counter()
        metaController.registerShared(Session.self) { _ in
            await Task.yield()
            session.next()
            return Session()
        }
        metaController.registerShared(Cache.self) { _ in
            cache.next()
            return Cache()
        }
        metaController.registerShared(Formatter.self) { _ in
            await Task.yield()
            made.next()
            return Formatter()
        }
        metaController.register(Feed.self) { metaController in
            _ = try await metaController.product(Session.self) as Session
            _ = try await metaController.product(Formatter.self) as Formatter
            _ = try metaController.make(Cache.self) as Cache
            return Feed()
        }
        let before = try await metaController.product(Formatter.self)
        let report = await metaController.verification()
        #expect(report.isSatisfied, "\(report)")
        #expect(session.value == 1 && cache.value == 1 && made.value == 1)
        // Nothing the verification made was kept: the app's first requests make their own.
        _ = try await metaController.product(Session.self)
        _ = try metaController.make(Cache.self)
        #expect(session.value == 2 && cache.value == 2)
        #expect(try await metaController.product(Formatter.self) === before)
        #expect(made.value == 1)
    }

    @Test func theSynchronousVerifyReportsEachAsyncRegistrationItCannotMake() {
        let metaController = MetaController()
        metaController.registerShared(Session.self) { _ in
            await Task.yield(); return Session()
        }
        metaController.register(Detail.self, argument: Int.self) { _, _ async in Detail() }
        metaController.register(Cache.self) { _ in Cache() }
        let report = metaController.verify()
        #expect(report.factoriesChecked == 3 && report.factoriesMade == 1, "\(report)")
        #expect(report.problems.allSatisfy { $0.kind == .asyncFactory }, "\(report)")
        #expect(
            report.problems.map(\.description) == [
                "the factory of Detail from Int is async and verify(consumers:samples:) cannot make it; call await verification(consumers:samples:) to verify it",
                "the factory of Session is async and verify(consumers:samples:) cannot make it; call await verification(consumers:samples:) to verify it",
            ], "\(report)")
    }

    @Test func theSynchronousVerifyReportsAMakeOfAnAsyncFactoryNamingBoth() {
        let metaController = MetaController()
        metaController.registerShared(Session.self) { _ in
            await Task.yield(); return Session()
        }
        metaController.register(Legacy.self) {
            _ = try $0.make(Session.self) as Session; return Legacy()
        }
        let report = metaController.verify()
        #expect(Set(report.problems.map(\.chain)) == [["Legacy", "Session"], ["Session"]], "\(report)")
    }

    @Test func aStrictMetaControllerHandsEachProblemToItsReporter() async {
        let reported = Lock([String]())
        let metaController = MetaController(
            declaredValues: nil, verificationProblemHandler: { problem in reported.withLock { $0.append(problem.description) } })
        metaController.register(Feed.self) {
            _ = try await $0.product(Missing.self) as Missing; return Feed()
        }
        metaController.register(Flaky.self) { _ async throws -> Flaky in throw DiskFull() }
        let report = await metaController.verification()
        #expect(report.problems.count == 2)
        #expect(reported.withLock { $0 } == report.problems.map(\.description))
    }

    @Test func averificationCalledByAnAsyncFactoryVerifiesNothingAndIsReported() async {
        let metaController = MetaController()
        let inner = Lock([String]())
        metaController.register(Feed.self) { metaController in
            let report = await metaController.verification()
            inner.withLock { $0 = report.problems.map(\.kind.description) }
            return Feed()
        }
        let report = await metaController.verification()
        #expect(inner.withLock { $0 } == ["verifyCalledWhileVerifying"])
        #expect(report.problems.map(\.kind) == [.verifyCalledWhileVerifying], "\(report)")
        #expect(report.problems.first?.chain == ["Feed"])
    }

    @Test func aFactoryTakingAnArgumentIsMadeWithItsSample() async {
        let metaController = MetaController()
        let arguments = Lock([Int]())
        metaController.register(Detail.self, argument: Int.self, sample: 7) { _, id async in
            arguments.withLock { $0.append(id) }
            return Detail()
        }
        metaController.register(Feed.self, argument: String.self) { _, _ async in Feed() }
        let report = await metaController.verification(samples: [FactorySample("top")])
        #expect(report.isSatisfied && report.factoriesMade == 2, "\(report)")
        #expect(arguments.withLock { $0 } == [7])
    }
}
