import Foundation
import MetaController
import MetaControllerTesting
import Testing

/// A MetaController with one problem of every kind `verify` reports (except verify-in-verify).
@MainActor
func everyProblemMetaController() -> MetaController {
    let metaController = checkoutGraphMetaController()   // missingFactory
    registerCircle(metaController, length: 3)   // circularFactories
    metaController.register(Thrower.self) { _ in throw SomeError() }   // factoryThrew
    metaController.register(MainOnly.self) { @MainActor _ in MainOnly() }
    metaController.register(AsksMainOnly.self) { m in   // notOnMainActor
        _ = try m.make(MainOnly.self)
        return AsksMainOnly()
    }
    metaController.register(ReadsDataWhileMade.self) { _ in ReadsDataWhileMade() }   // unfilledRead
    metaController.register(DetailScreen.self, argument: GraphItem.self) { _, item in DetailScreen(item: item) }   // missingSample
    return metaController
}

@Suite("graph(consumers:samples:) agrees with verify(consumers:samples:)")
@MainActor
struct GraphVerifyAgreementTests {
    @Test func theGraphsVerificationIsTheReportVerifyReturns() {
        let graph = everyProblemMetaController().graph(consumers: [FeedScreen.self])
        let report = everyProblemMetaController().verify(consumers: [FeedScreen.self])
        #expect(graph.verification.problems.map(\.description).sorted() == report.problems.map(\.description).sorted())
        #expect(graph.verification.factoriesChecked == report.factoriesChecked)
        #expect(graph.verification.factoriesMade == report.factoriesMade)
        #expect(graph.verification.consumerTypesChecked == report.consumerTypesChecked)
        #expect(graph.verification.description == report.description)
    }

    @Test func everyProblemOfTheVerificationIsAttachedToANodeOrAnEdge() {
        let graph = everyProblemMetaController().graph(consumers: [FeedScreen.self])
        let attached = Set(graph.nodes.flatMap(\.problems).map(\.description) + graph.edges.flatMap(\.problems).map(\.description))
        for problem in graph.verification.problems {
            #expect(attached.contains(problem.description), "\(problem) is attached nowhere")
        }
    }

    @Test func thereIsOneRegistrationNodeForEveryFactoryChecked() {
        let graph = everyProblemMetaController().graph()
        #expect(graph.nodes.filter { $0.kind == .registration }.count == graph.verification.factoriesChecked)
    }

    @Test func eachFactoryRunsOncePerGraphHoweverManyAskForItsProduct() {
        let runs = Locked(0)
        let metaController = MetaController()
        metaController.registerShared(Database.self) { _ in
            runs.withLock { $0 += 1 }; return Database()
        }
        for name in ["a", "b", "c", "d"] {
            metaController.register(Orders.self, name: name) { m in
                _ = try m.make(Database.self); return Orders()
            }
        }
        let graph = metaController.graph()
        #expect(runs.get == 1)
        #expect(graph.dependents(of: GID(.registration, "Database")).count == 4)
    }

    @Test func aPerRequestFactoryAskedByManyRunsOncePerGraph() {
        let runs = Locked(0)
        let metaController = MetaController()
        metaController.register(Counted.self) { _ in
            runs.withLock { $0 += 1 }; return Counted()
        }
        for name in ["a", "b", "c"] {
            metaController.register(Orders.self, name: name) { m in
                _ = try m.make(Counted.self); return Orders()
            }
        }
        _ = metaController.graph()
        #expect(runs.get == 1)
    }

    @Test func nothingIsKeptAfterTheGraph() throws {
        let runs = Locked(0)
        let metaController = MetaController()
        metaController.registerShared(SharedCounted.self) { _ in
            runs.withLock { $0 += 1 }; return SharedCounted()
        }
        _ = metaController.graph()
        #expect(runs.get == 1)
        _ = try metaController.make(SharedCounted.self)
        #expect(runs.get == 2)
    }

    @Test func aCircleMetFromEachOfItsFactoriesIsOneProblem() {
        let metaController = MetaController()
        registerCircle(metaController, length: 4)
        let graph = metaController.graph()
        #expect(graph.verification.problems.map(\.kind) == [.circularFactories])
        #expect(graph.verification.problems.first?.chain.count == 5)
    }

    @Test func aThrowingSharedFactoryNeededByManyIsOneProblem() {
        let metaController = MetaController()
        metaController.registerShared(Database.self) { _ in throw SomeError() }
        for name in ["a", "b", "c"] {
            metaController.register(Orders.self, name: name) { m in
                _ = try m.make(Database.self); return Orders()
            }
        }
        let graph = metaController.graph()
        #expect(graph.verification.problems.filter { $0.kind == .factoryThrew }.count == 1)
        #expect(graph.node(GID(.registration, "Database"))?.problems.map(\.kind) == [.factoryThrew])
    }

    @Test func aSampleLetsAFactoryWithAnArgumentBeMadeAndDrawn() {
        let metaController = MetaController()
        metaController.register(DetailScreen.self, argument: GraphItem.self) { m, item in
            _ = try m.make(Orders.self)
            return DetailScreen(item: item)
        }
        metaController.register(Orders.self) { _ in Orders() }
        let without = metaController.graph()
        #expect(without.verification.problems.map(\.kind) == [.missingSample])
        let with = metaController.graph(samples: [FactorySample(GraphItem(id: 1))])
        #expect(with.verification.isSatisfied)
        #expect(with.dependencies(of: GID(.registration, "DetailScreen from GraphItem")).map(\.name) == ["Orders"])
    }

    @Test func aFactoryThatCallsVerifyWhileTheGraphIsDrawnIsReported() {
        let inner = Locked<[String]>([])
        let metaController = MetaController()
        metaController.register(CallsVerify.self) { @MainActor m in
            let report = m.verify()
            inner.withLock { $0 = report.problems.map(\.kind.description) }
            return CallsVerify()
        }
        let graph = metaController.graph()
        #expect(inner.get == ["verifyCalledWhileVerifying"])
        #expect(graph.verification.problems.map(\.kind) == [.verifyCalledWhileVerifying])
    }

    @Test func onAStrictMetaControllerEachProblemOfTheGraphGoesToTheReporter() {
        let reports = Locked<[String]>([])
        let metaController = MetaController.strict { report in reports.withLock { $0.append("\(report)") } }
        metaController.register(Checkout.self) { m in
            _ = try m.make(TokenStore.self); return Checkout()
        }
        metaController.register(Thrower.self) { _ in throw SomeError() }
        let graph = metaController.graph()
        #expect(graph.verification.problems.count == 2)
        #expect(reports.get.count == 2)
        for problem in graph.verification.problems {
            #expect(reports.get.contains { $0.contains(problem.message) }, "\(reports.get)")
        }
    }

    @Test func aGraphOfAChildFindsTheParentsRegistrationsAsVerifyDoes() {
        let parent = MetaController()
        parent.register(Orders.self) { m in
            _ = try m.make(Profile.self); return Orders()
        }
        let child = MetaController(parent: parent)
        child.register(Profile.self) { _ in Profile() }
        let graph = child.graph()
        #expect(graph.verification.isSatisfied == child.verify().isSatisfied)
        #expect(graph.verification.factoriesChecked == 2)
    }

    @Test func anEmptyMetaControllersGraphIsSatisfiedAndEmpty() {
        let graph = MetaController().graph()
        #expect(graph.verification.isSatisfied)
        #expect(graph.nodes.isEmpty && graph.edges.isEmpty)
        #expect(graph.longestChain.isEmpty && graph.unusedRegistrations.isEmpty)
        #expect(graph.description.hasPrefix("graph: 1 scope, 0 slots, 0 registrations, 0 consumer types, 0 problems"))
    }
}
