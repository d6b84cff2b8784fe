import Dispatch
import Testing

import MetaController
import MetaControllerCore
import MetaControllerTestSupport
import MetaControllerTesting

// The products of the graphs below. Each planted problem has types of its own,
// so that a report naming one can only come from that problem.

/// Needs `Middle`, which needs `Unregistered`: a missing registration two levels down.
private final class Top: Sendable {}
private final class Middle: Sendable {}
private final class Unregistered: Sendable {}
/// A circle of three.
private final class Rock: Sendable {}
private final class Paper: Sendable {}
private final class Scissors: Sendable {}
/// A factory that throws.
private final class Flaky: Sendable {}
private struct FlakyFailed: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}
/// A plain factory that asks for a main-actor one.
private final class Analytics: Sendable {}
@MainActor private final class Banner {
    nonisolated init() {}
}
/// A consumer that requires the api slot, which the graph leaves empty.
private final class CheckoutScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.api, .log]
    var metaController: MetaController?
}
private final class FeedScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.log]
    var metaController: MetaController?
}

private final class Service: Sendable {
    let dependencies: [Service]
    init(_ dependencies: [Service]) { self.dependencies = dependencies }
}
/// A link of a chain of per-request factories (``registerChain(_:in:runs:stack:)``).
private final class Link: Sendable {}
/// A database every service needs, whose factory throws.
private final class Database: Sendable {}
/// A consumer that reads a slot the graphs below leave empty while it is made.
private final class EagerScreen: MetaControllerConsumer {
    var metaController: MetaController?
    func metaControllerDidArrive() { _ = apiController }
}

@Suite("MetaControllerVerification: verify(consumers:samples:)")
@MainActor
struct MetaControllerVerificationTests {
    @Test func aFactoryThatCaughtOneFailedRequestAndThrewOnTheNextIsReportedForTheOneThatMadeItFail() {
        let metaController = MetaController()
        // An optional dependency first (caught), then a required one that is missing too.
        metaController.register(Top.self) { metaController in
            _ = try? metaController.make(Middle.self) as Middle
            _ = try metaController.make(Unregistered.self) as Unregistered
            return Top()
        }
        let report = metaController.verify()
        #expect(report.problems.map(\.kind) == [.missingFactory], "\(report)")
        #expect(report.problems.first?.chain == ["Top", "Unregistered"], "\(report)")
    }

    /// The graph of the definition of done: five problems planted in one graph.
    private func brokenGraph() -> MetaController {
        let metaController = MetaController()
        metaController.logController = FakeLogController()
        metaController.register(Top.self) {
            _ = try $0.make(Middle.self) as Middle; return Top()
        }
        metaController.register(Middle.self) { metaController in
            _ = try metaController.make(Unregistered.self)
            return Middle()
        }
        metaController.registerShared(Rock.self) {
            _ = try $0.make(Paper.self) as Paper; return Rock()
        }
        metaController.register(Paper.self) {
            _ = try $0.make(Scissors.self) as Scissors; return Paper()
        }
        metaController.registerShared(Scissors.self) {
            _ = try $0.make(Rock.self) as Rock; return Scissors()
        }
        metaController.register(Flaky.self) { _ in throw FlakyFailed() }
        metaController.registerShared(Analytics.self) {
            _ = try $0.make(Banner.self) as Banner; return Analytics()
        }
        metaController.register(Banner.self) { @MainActor _ in Banner() }
        return metaController
    }

    @Test(
        "one run finds a missing registration two levels down, a circle of three, a throwing factory, a main-actor factory asked off the main actor and an unfilled requirement"
    )
    func findsEveryPlantedProblemInOneRun() {
        let report = brokenGraph().verify(consumers: [CheckoutScreen.self, FeedScreen.self])
        let lines = report.problems.map(\.description)
        #expect(
            lines.contains(
                "Top -> Middle -> Unregistered: no factory makes Unregistered; register one with register(_:name:factory:)"),
            "\(report)")
        #expect(lines.contains("circular factories: Paper -> Scissors -> Rock -> Paper"), "\(report)")
        #expect(lines.contains("the factory of Flaky threw: the disk is full"), "\(report)")
        #expect(
            lines.contains(
                "Analytics -> Banner: the factory of Banner runs on the main actor; call make from the main actor"),
            "\(report)")
        #expect(lines.contains("CheckoutScreen requires apiController, which this MetaController lacks"), "\(report)")
        // Each cause once: the missing registration is not reported again from Middle, nor the
        // circle from each of its three factories; FeedScreen's requirement is met.
        #expect(report.problems.count == 5, "\(report)")
        #expect(Set(report.problems.map(\.kind)).count == 5)
        #expect(!report.isSatisfied)
        #expect(report.description.hasPrefix("verified 8 factories (1 made) and 2 consumer types: 5 problems\n"), "\(report)")
    }

    @Test("the chain runs from the registration verified to the one that failed")
    func chainsNameTheTypes() throws {
        let report = brokenGraph().verify()
        let missing = try #require(report.problems.first { $0.kind == .missingFactory })
        #expect(missing.chain == ["Top", "Middle", "Unregistered"])
        let circle = try #require(report.problems.first { $0.kind == .circularFactories })
        #expect(circle.chain == ["Paper", "Scissors", "Rock", "Paper"])
        let mainActor = try #require(report.problems.first { $0.kind == .notOnMainActor })
        #expect(mainActor.chain == ["Analytics", "Banner"])
    }

    @Test("a circle reached from a factory outside it is reported once, as the circle")
    func circlesReachedFromOutside() throws {
        final class Aardvark: Sendable {}
        let metaController = MetaController()
        // Verified first (the registrations go in the order of their names), it meets the circle first.
        metaController.register(Aardvark.self) {
            _ = try $0.make(Paper.self) as Paper; return Aardvark()
        }
        metaController.register(Paper.self) {
            _ = try $0.make(Scissors.self) as Scissors; return Paper()
        }
        metaController.register(Scissors.self) {
            _ = try $0.make(Rock.self) as Rock; return Scissors()
        }
        metaController.register(Rock.self) {
            _ = try $0.make(Paper.self) as Paper; return Rock()
        }
        let report = metaController.verify()
        let circles = report.problems.filter { $0.kind == .circularFactories }
        #expect(report.problems.count == 1, "\(report)")
        #expect(circles.map(\.chain) == [["Paper", "Scissors", "Rock", "Paper"]])
        #expect(circles.first?.description == "circular factories: Paper -> Scissors -> Rock -> Paper")
    }

    @Test("a correct graph of 500 services, shared, per-request, named and with arguments, has no problems")
    func aCorrectGraphHasNoProblems() {
        let metaController = MetaController()
        registerServices(500, in: metaController)
        let report = metaController.verify(samples: [FactorySample(Item(id: 7))])
        #expect(report.isSatisfied, "\(report)")
        #expect(report.factoriesMade == 500)
        #expect(report.description == "verified 500 factories and 0 consumer types: no problems")
    }

    @Test("verifying builds nothing for real: no shared product is kept, and the next request runs the factory")
    func nothingIsKept() throws {
        let metaController = MetaController()
        let runs = Counter()
        metaController.registerShared(ImageCache.self) { _ in
            runs.increment()
            return ImageCache()
        }
        let report = metaController.verify()
        #expect(report.factoriesMade == 1)
        #expect(runs.value == 1)
        let first = try metaController.make(ImageCache.self)
        #expect(runs.value == 2)
        #expect(try metaController.make(ImageCache.self) === first)
    }

    @Test("a shared product made before is not made again, and stays the one requests get")
    func madeSharedProductsStay() throws {
        let metaController = MetaController()
        let runs = Counter()
        metaController.registerShared(ImageCache.self) { _ in
            runs.increment()
            return ImageCache()
        }
        let made = try metaController.make(ImageCache.self)
        let report = metaController.verify()
        #expect(report.factoriesMade == 0)
        #expect(runs.value == 1)
        #expect(try metaController.make(ImageCache.self) === made)
    }

    @Test("a shared product requested by several factories is made once per verification")
    func sharedProductsAreMadeOncePerVerification() {
        let metaController = MetaController()
        let runs = Counter()
        metaController.registerShared(ImageCache.self) { _ in
            runs.increment()
            return ImageCache()
        }
        metaController.register(Top.self) {
            _ = try $0.make(ImageCache.self) as ImageCache; return Top()
        }
        metaController.register(Middle.self) {
            _ = try $0.make(ImageCache.self) as ImageCache; return Middle()
        }
        #expect(metaController.verify().isSatisfied)
        #expect(runs.value == 1)
    }

    @Test("a factory that takes an argument is made from the test's sample, else the registration's, else reported")
    func samples() throws {
        let metaController = MetaController()
        let seen = Lock<[Int]>([])
        metaController.register(DetailScreen.self, argument: Item.self, sample: Item(id: 1)) { _, item in
            seen.withLock { $0.append(item.id) }
            return DetailScreen(item: item)
        }
        metaController.register(DetailScreen.self, name: "B", argument: Int.self) { _, number in
            DetailScreen(item: Item(id: number), variant: "B")
        }
        let withoutSamples = metaController.verify()
        #expect(seen.withLock { $0 } == [1])
        let problem = try #require(withoutSamples.problems.first)
        #expect(withoutSamples.problems.count == 1)
        #expect(problem.kind == .missingSample)
        #expect(problem.chain == ["DetailScreen named \"B\" from Int"])
        #expect(problem.description.hasPrefix("DetailScreen named \"B\" from Int was not made: no sample argument"))

        let withSamples = metaController.verify(samples: [FactorySample(Item(id: 2)), FactorySample(3)])
        #expect(withSamples.isSatisfied, "\(withSamples)")
        #expect(withSamples.factoriesMade == 2)
        #expect(seen.withLock { $0 } == [1, 2])
    }

    @Test("a sample of an existential type is given with as:")
    func existentialSamples() {
        let metaController = MetaController()
        metaController.register(String.self, argument: (any CustomStringConvertible).self) { _, value in
            value.description
        }
        #expect(!metaController.verify(samples: [FactorySample(5)]).isSatisfied)
        #expect(metaController.verify(samples: [FactorySample(5, as: (any CustomStringConvertible).self)]).isSatisfied)
    }

    @Test("an optional dependency a factory catches is not reported")
    func caughtFailuresAreNotReported() {
        let metaController = MetaController()
        metaController.register(Top.self) { metaController in
            _ = try? metaController.make(Unregistered.self)
            return Top()
        }
        let report = metaController.verify()
        #expect(report.isSatisfied, "\(report)")
        #expect(report.factoriesMade == 1)
    }

    @Test("a factory that catches a failure and throws its own is reported with the failure it caught")
    func theCauseIsReported() throws {
        let metaController = MetaController()
        metaController.register(Top.self) { metaController in
            do {
                _ = try metaController.make(Unregistered.self)
            } catch {
                throw FlakyFailed()
            }
            return Top()
        }
        let problem = try #require(metaController.verify().problems.first)
        #expect(problem.kind == .missingFactory)
        #expect(problem.chain == ["Top", "Unregistered"])
    }

    @Test("a failure a nested factory caught is not blamed for its caller's own")
    func caughtFailuresStayCaught() throws {
        let metaController = MetaController()
        metaController.register(Middle.self) { metaController in
            _ = try? metaController.make(Unregistered.self)
            return Middle()
        }
        metaController.register(Top.self) { metaController in
            _ = try metaController.make(Middle.self) as Middle
            throw FlakyFailed()
        }
        let report = metaController.verify()
        let problem = try #require(report.problems.first)
        #expect(report.problems.count == 1, "\(report)")
        #expect(problem.kind == .factoryThrew)
        #expect(problem.chain == ["Top"])
    }

    @Test("a failure caught by a factory first made for another is not blamed for that one's own")
    func caughtFailuresStayCaughtWhenMadeForAnother() throws {
        // Verified first (the registrations go in the order of their names), so Middle is first
        // made inside it, and only then found made when its own turn comes.
        final class Alpha: Sendable {}
        let metaController = MetaController()
        metaController.register(Middle.self) { metaController in
            _ = try? metaController.make(Unregistered.self)
            return Middle()
        }
        metaController.register(Alpha.self) { metaController in
            _ = try metaController.make(Middle.self) as Middle
            throw FlakyFailed()
        }
        let report = metaController.verify()
        let problem = try #require(report.problems.first)
        #expect(report.problems.count == 1, "\(report)")
        #expect(problem.kind == .factoryThrew)
        #expect(problem.chain == ["Alpha"])
    }

    @Test("a verification logs nothing: what it finds is in the report")
    func logsNothing() {
        let log = FakeLogController()
        let metaController = MetaController()
        metaController.logController = log
        metaController.register(CheckoutScreen.self) { _ in CheckoutScreen() }
        let report = metaController.verify()
        #expect(report.problems.map(\.kind) == [.unfilledRequirement])
        #expect(log.entries.isEmpty && log.diagnostics.isEmpty)
        // The same product made for real warns, as passing does in debug builds.
        _ = try? metaController.make(CheckoutScreen.self) as CheckoutScreen
        #expect(log.diagnostics.count == 1)
    }

    @Test("the registrations of the parents are verified, and a child's own shadows its parent's")
    func parentsAndShadowing() {
        let parent = MetaController()
        parent.register(Flaky.self) { _ in throw FlakyFailed() }
        parent.register(Top.self) { _ in Top() }
        let child = MetaController(parent: parent)
        child.register(Flaky.self) { _ in Flaky() }
        #expect(child.verify().isSatisfied)
        #expect(child.verify().factoriesMade == 2)
        #expect(parent.verify().problems.map(\.kind) == [.factoryThrew])
    }

    @Test("products are made with a child of the MetaController verified: its slots, not its products")
    func productsSeeTheSlots() throws {
        let metaController = MetaController()
        metaController.logController = FakeLogController()
        metaController.register(FeedScreen.self) { _ in FeedScreen() }
        metaController.register(CheckoutScreen.self) { _ in CheckoutScreen() }
        let report = metaController.verify()
        // Each product is a consumer: its requirements are checked against what it was handed.
        #expect(report.consumerTypesChecked == 2)
        let problem = try #require(report.problems.first)
        #expect(report.problems.count == 1)
        #expect(problem.kind == .unfilledRequirement)
        #expect(problem.description == "CheckoutScreen requires apiController, which this MetaController lacks")
    }

    @Test("a product that reads an empty slot while it is made is reported, with the chain that made it")
    func readsOfEmptySlots() throws {
        final class Eager: MetaControllerConsumer {
            var metaController: MetaController?
            func metaControllerDidArrive() { _ = apiController }
        }
        let metaController = MetaController()
        metaController.register(Eager.self) { _ in Eager() }
        let report = metaController.verify()
        let problem = try #require(report.problems.first)
        #expect(problem.kind == .unfilledRead)
        #expect(problem.message == "Eager read apiController, which this MetaController does not fill")
        #expect(problem.chain == ["Eager"])
    }

    @Test("a strict MetaController hands each problem to its reporter")
    func strictReporting() {
        let reported = Lock<[String]>([])
        let metaController = MetaController.strict { report in reported.withLock { $0.append("\(report)") } }
        metaController.register(Flaky.self) { _ in throw FlakyFailed() }
        metaController.register(FeedScreen.self) { _ in FeedScreen() }
        let report = metaController.verify()
        #expect(reported.withLock { $0 } == report.problems.map(\.description))
        #expect(
            reported.withLock { $0 } == [
                "FeedScreen requires logController, which this MetaController lacks",
                "the factory of Flaky threw: the disk is full",
            ])
    }

    @Test("code off the main actor awaits it, and main-actor factories are made all the same")
    nonisolated func awaitedOffTheMainActor() async {
        let metaController = MetaController()
        metaController.register(Banner.self) { @MainActor _ in Banner() }
        let report = await metaController.verify()
        #expect(report.isSatisfied, "\(report)")
        #expect(report.factoriesMade == 1)
    }

    @Test("a request a factory makes on another thread is not verified: its shared product is made for real")
    func requestsOnOtherThreadsAreReal() throws {
        let metaController = MetaController()
        let runs = Counter()
        metaController.registerShared(ImageCache.self) { _ in
            runs.increment()
            return ImageCache()
        }
        metaController.register(Top.self) { metaController in
            let done = TestThreads.onThread { _ = try? metaController.make(ImageCache.self) as ImageCache }
            done.wait()
            return Top()
        }
        // The verification of ImageCache itself makes one of its own; the thread's request makes the real one.
        #expect(metaController.verify().isSatisfied)
        #expect(runs.value == 2)
        _ = try metaController.make(ImageCache.self) as ImageCache
        #expect(runs.value == 2)   // kept: the real product was made on the other thread
    }

    @Test("an empty MetaController verifies nothing, and says so")
    func empty() {
        let report = MetaController().verify()
        #expect(report.isSatisfied)
        #expect(report.factoriesMade == 0)
        #expect(report.description == "verified 0 factories and 0 consumer types: no problems")
    }

    @Test("after a verification, requests fail and succeed as before: nothing of it stays on the thread")
    func theThreadIsLeftAsItWas() throws {
        let metaController = brokenGraph()
        _ = metaController.verify()
        #expect(throws: MetaControllerError.self) { try metaController.make(Top.self) }
        metaController.register(Unregistered.self) { _ in Unregistered() }
        metaController.register(Top.self) { _ in Top() }
        _ = try metaController.make(Top.self)
        #expect(throws: Never.self) { try metaController.make(Middle.self) as Middle }
    }

    @Test("verifying on the main actor while other threads make the real shared products: each is made once for real")
    func racingRealRequests() async {
        let metaController = MetaController()
        let runs = Counter()
        for index in 0..<20 {
            metaController.registerShared(ImageCache.self, name: "\(index)") { _ in
                runs.increment()
                return ImageCache()
            }
        }
        let made = Lock<[ObjectIdentifier]>([])
        let done = TestThreads.onThread {
            for index in 0..<20 {
                if let cache = try? metaController.make(ImageCache.self, name: "\(index)") {
                    made.withLock { $0.append(ObjectIdentifier(cache)) }
                }
            }
        }
        let report = metaController.verify()
        done.wait()
        #expect(report.isSatisfied)
        // What the verification made plus the 20 real ones.
        #expect(runs.value == 20 + report.factoriesMade)
        for index in 0..<20 {
            let cache = try? metaController.make(ImageCache.self, name: "\(index)")
            #expect(cache.map(ObjectIdentifier.init) == made.withLock { $0[index] })
        }
    }

    // MARK: One report per cause (issue 37)

    @Test("a throwing shared Database that many services need is one problem, with the longest chain")
    func aSharedThrowingDatabaseIsOneProblem() throws {
        let metaController = MetaController()
        let runs = Counter()
        metaController.registerShared(Database.self) { _ in
            runs.increment()
            throw FlakyFailed()
        }
        for index in 0..<20 {
            metaController.register(Service.self, name: "service \(index)") {
                _ = try $0.make(Database.self) as Database
                return Service([])
            }
            // Screens need a service each, so the longest chains run screen -> service -> Database.
            metaController.register(Top.self, name: "screen \(index)") {
                _ = try $0.make(Service.self, name: "service \(index)") as Service
                return Top()
            }
        }
        let report = metaController.verify()
        let problem = try #require(report.problems.first)
        #expect(report.problems.count == 1, "\(report)")
        #expect(problem.kind == .factoryThrew)
        #expect(problem.chain.count == 3 && problem.chain.last == "Database", "\(problem)")
        #expect(problem.message == "the factory of Database threw: the disk is full")
        // Its factory ran once: the failure is reused, not made again for each service.
        #expect(runs.value == 1)
        #expect(report.factoriesChecked == 41)
        #expect(report.factoriesMade == 0)
    }

    @Test("faults planted below many chains are reported once each: missing, throwing, a read, off the main actor, a circle")
    func plantedFaultsAreOneProblemEach() {
        let metaController = MetaController()
        metaController.register(Middle.self) {
            _ = try $0.make(Unregistered.self) as Unregistered; return Middle()
        }
        metaController.register(Flaky.self) { _ in throw FlakyFailed() }
        metaController.register(EagerScreen.self) { _ in EagerScreen() }
        metaController.register(Analytics.self) {
            _ = try $0.make(Banner.self) as Banner; return Analytics()
        }
        metaController.register(Banner.self) { @MainActor _ in Banner() }
        metaController.register(Paper.self) {
            _ = try $0.make(Scissors.self) as Scissors; return Paper()
        }
        metaController.register(Scissors.self) {
            _ = try $0.make(Paper.self) as Paper; return Scissors()
        }
        // Forty services in two layers, each reaching every fault through the services below it.
        for index in 0..<40 {
            let below = index < 20 ? [] : [index - 20, (index - 19) % 20]
            metaController.register(Service.self, name: "service \(index)") { metaController in
                for other in below { _ = try metaController.make(Service.self, name: "service \(other)") as Service }
                _ = try? metaController.make(EagerScreen.self) as EagerScreen
                _ = try? metaController.make(Analytics.self) as Analytics
                _ = try? metaController.make(Paper.self) as Paper
                _ = try? metaController.make(Flaky.self) as Flaky
                _ = try metaController.make(Middle.self) as Middle
                return Service([])
            }
        }
        let report = metaController.verify()
        let kinds = report.problems.map(\.kind)
        #expect(report.problems.count == 5, "\(report)")
        #expect(
            Set(kinds) == [.missingFactory, .factoryThrew, .unfilledRead, .notOnMainActor, .circularFactories],
            "\(report)")
        let missing = report.problems.first { $0.kind == .missingFactory }
        // The longest chain: an upper service, a lower one, Middle, the missing type.
        #expect(missing?.chain.count == 4, "\(report)")
    }

    @Test("one missing registration under 1,200 registrations and billions of paths is one problem, found in one run each")
    func oneMissingRegistrationInALargeGraph() throws {
        let metaController = MetaController()
        let runs = Counter()
        // 30 layers of 40 services; each needs three of the layer below; the bottom layer needs Unregistered.
        let layers = 30
        let width = 40
        for layer in 0..<layers {
            for index in 0..<width {
                metaController.register(Service.self, name: "\(layer).\(index)") { metaController in
                    runs.increment()
                    guard layer + 1 < layers else {
                        _ = try metaController.make(Unregistered.self) as Unregistered
                        return Service([])
                    }
                    let below = [index, (index + 1) % width, (index + 7) % width]
                    return Service(
                        try below.map { try metaController.make(Service.self, name: "\(layer + 1).\($0)") })
                }
            }
        }
        let report = metaController.verify()
        let problem = try #require(report.problems.first)
        #expect(report.problems.count == 1, "\(report)")
        #expect(problem.kind == .missingFactory)
        #expect(problem.chain.count == layers + 1 && problem.chain.last == "Unregistered", "\(problem)")
        #expect(report.factoriesChecked == layers * width)
        // Each factory ran once, though each of the top layer reaches the bottom by 3^29 paths.
        #expect(runs.value == layers * width)
    }

    // MARK: Linear time (issue 37)

    @Test("a chain of 500 per-request factories runs each factory once")
    func aDeepChainRunsEachFactoryOnce() {
        let metaController = MetaController()
        let runs = Counter()
        registerChain(500, in: metaController, runs: runs)
        let report = metaController.verify()
        #expect(report.isSatisfied, "\(report)")
        #expect(report.factoriesMade == 500)
        #expect(runs.value == 500)
    }

    @Test("within one verification a per-request product is made once per requesting MetaController and Hashable argument")
    func productsAreReusedWithinOneVerification() {
        struct Page: Hashable, Sendable { let number: Int }
        let metaController = MetaController()
        let pages = Lock<[Int]>([])
        let items = Lock<[Int]>([])
        metaController.register(Middle.self, argument: Page.self, sample: Page(number: 1)) { _, page in
            pages.withLock { $0.append(page.number) }
            return Middle()
        }
        // Item is not Hashable: requests with one cannot be told apart, and each is made.
        metaController.register(DetailScreen.self, argument: Item.self, sample: Item(id: 1)) { _, item in
            items.withLock { $0.append(item.id) }
            return DetailScreen(item: item)
        }
        metaController.register(Top.self) { metaController in
            for number in [1, 2, 2] {
                _ = try metaController.make(Middle.self, argument: Page(number: number)) as Middle
                _ = try metaController.make(DetailScreen.self, argument: Item(id: number)) as DetailScreen
            }
            return Top()
        }
        #expect(metaController.verify().isSatisfied)
        // The sample's product is the one Top gets for page 1; page 2's is made once.
        #expect(pages.withLock { $0 }.sorted() == [1, 2])
        #expect(items.withLock { $0 }.sorted() == [1, 1, 2, 2])
        // A new verification makes them again.
        #expect(metaController.verify().isSatisfied)
        #expect(pages.withLock { $0 }.count == 4)
    }

    // MARK: Misuse, counts and the stack (issue 37)

    @Test("a factory that calls verify while the graph is verified gets a report of that, and the graph's report says so")
    func verifyFromAFactoryIsReported() throws {
        let metaController = MetaController()
        let inner = Lock<[MetaControllerVerification]>([])
        metaController.register(Top.self) { @MainActor metaController in
            let report = metaController.verify()
            inner.withLock { $0.append(report) }
            return Top()
        }
        metaController.register(Middle.self) { _ in Middle() }
        let report = metaController.verify()
        let problem = try #require(report.problems.first)
        #expect(report.problems.count == 1, "\(report)")
        #expect(problem.kind == .verifyCalledWhileVerifying)
        #expect(problem.chain == ["Top"])
        let innerReports = inner.withLock { $0 }
        #expect(innerReports.count == 1)
        #expect(innerReports.first?.problems == [problem])
        #expect(innerReports.first?.factoriesChecked == 0)
        // Made for real, the factory's own verification runs, and meets the same call inside it.
        _ = try metaController.make(Top.self) as Top
        #expect(inner.withLock { $0 }.last?.problems.map(\.kind) == [.verifyCalledWhileVerifying])
    }

    @Test("the report counts the factories checked, and says how many were made")
    func countsWhatWasChecked() {
        let metaController = MetaController()
        metaController.register(Top.self) {
            _ = try $0.make(Unregistered.self) as Unregistered; return Top()
        }
        metaController.register(Flaky.self) { _ in throw FlakyFailed() }
        let broken = metaController.verify()
        #expect(broken.factoriesChecked == 2)
        #expect(broken.factoriesMade == 0)
        #expect(broken.description.hasPrefix("verified 2 factories (0 made) and 0 consumer types: 2 problems\n"))
        metaController.register(Unregistered.self) { _ in Unregistered() }
        metaController.register(Flaky.self) { _ in Flaky() }
        let fixed = metaController.verify()
        #expect(fixed.factoriesChecked == 3 && fixed.factoriesMade == 3)
        #expect(fixed.description == "verified 3 factories and 0 consumer types: no problems")
    }

    @Test("verifying a chain of factories takes no more stack per level than making it")
    func verifyTakesNoMoreStackThanMake() throws {
        let depth = 200
        let metaController = MetaController()
        let stack = Lock([Int](repeating: 0, count: depth))
        registerChain(depth, in: metaController, runs: Counter(), stack: stack)
        _ = try metaController.make(Link.self, name: "0") as Link
        let made = stack.withLock { $0 }
        #expect(metaController.verify().isSatisfied)
        let verified = stack.withLock { $0 }
        // From level 1: level 0 is called by make, or by the verification's loop; each level below by a factory.
        let madePerLevel = (made[1] - made[depth - 1]) / (depth - 2)
        let verifiedPerLevel = (verified[1] - verified[depth - 1]) / (depth - 2)
        #expect(madePerLevel > 0)
        #expect(verifiedPerLevel <= madePerLevel, "verify: \(verifiedPerLevel) bytes a level, make: \(madePerLevel)")
    }
}

/// Registers `count` services: chains of per-request and shared factories,
/// named variants and factories that take an `Item`, each depending on up to
/// three before it.
@MainActor
private func registerServices(_ count: Int, in metaController: MetaController) {
    for index in 0..<count {
        // The ones that take an argument are asked for by the test alone.
        let dependencies = [index - 1, index - 7, index - 31].filter { $0 >= 0 && $0 % 4 != 2 }
        let name = "service \(index)"
        let make: @Sendable (MetaController) throws -> Service = { metaController in
            Service(try dependencies.map { try metaController.make(Service.self, name: "service \($0)") })
        }
        switch index % 4 {
        case 0: metaController.registerShared(Service.self, name: name, factory: make)
        case 1: metaController.register(Service.self, name: name, factory: make)
        case 2:
            metaController.register(Service.self, name: name, argument: Item.self) { metaController, _ in
                try make(metaController)
            }
        default: metaController.registerShared(Service.self, name: name, factory: make)
        }
    }
}

/// Registers a chain of `depth` per-request factories of `Link` named "0",
/// "1", …: each makes the next. Each run is counted, and the address of a
/// local of the factory's frame recorded in `stack`, by level.
@MainActor
private func registerChain(_ depth: Int, in metaController: MetaController, runs: Counter, stack: Lock<[Int]>? = nil) {
    for level in 0..<depth {
        metaController.register(Link.self, name: "\(level)") { metaController in
            runs.increment()
            if let stack {
                let address = stackAddress()
                stack.withLock { $0[level] = address }
            }
            if level + 1 < depth { _ = try metaController.make(Link.self, name: "\(level + 1)") as Link }
            return Link()
        }
    }
}

/// The address of a local in the caller's callee: where the stack stands.
@inline(never)
private func stackAddress() -> Int {
    var marker = 0
    return withUnsafeMutablePointer(to: &marker) { Int(bitPattern: $0) }
}
