import Testing

import MetaController
import MetaControllerCore
import MetaControllerTestSupport

// The products of the graph below, each with a type of its own.
private final class Database: Sendable {}
private final class Repository: Sendable {}
private final class Legacy: Sendable {}
private final class Analytics: Sendable {}
private final class Left: Sendable {}
private final class Right: Sendable {}

@Suite("MetaController: verifiedGraph(consumers:samples:), the graph of async factories")
@MainActor
struct VerifiedGraphTests {
    /// An async shared database, an async repository that requests it and a synchronous shared
    /// analytics, and a synchronous factory that asks for the async repository with `make`.
    private func graph() -> MetaController {
        let metaController = MetaController()
        metaController.registerShared(Database.self) { _ in
            await Task.yield()
            return Database()
        }
        metaController.register(Repository.self) { metaController in
            _ = try await metaController.product(Database.self) as Database
            _ = try metaController.make(Analytics.self) as Analytics
            return Repository()
        }
        metaController.registerShared(Analytics.self) { _ in Analytics() }
        metaController.register(Legacy.self) {
            _ = try $0.make(Repository.self) as Repository; return Legacy()
        }
        return metaController
    }

    @Test func theRequestsOfAsyncFactoriesAreEdgesAndAsyncRegistrationsAreMarkedInTheText() async {
        let graph = await graph().verifiedGraph()
        #expect(
            graph.description == """
                graph: 1 scope, 0 slots, 4 registrations, 0 consumer types, 1 problem
                scope 0: MetaController
                  registration Analytics (shared)
                  registration Database (shared, async)
                  registration Legacy (per request)
                    requests Repository [asyncFactory]
                  registration Repository (per request, async)
                    requests Analytics
                    requests Database
                """, "\(graph)")
        #expect(graph.verification.factoriesChecked == 4 && graph.verification.factoriesMade == 3)
        let repository = graph.node(.init(.registration, "Repository"))
        #expect(repository?.isAsync == true && repository?.lifetime == .perRequest)
        #expect(graph.node(.init(.registration, "Database"))?.isAsync == true)
        #expect(graph.node(.init(.registration, "Analytics"))?.isAsync == false)
        #expect(repository?.description == "registration Repository (per request, async, scope 0)")
    }

    @Test func anAsyncFactorysRequestIsAnEdgeToTheRegistrationThatAnsweredIt() async {
        // Repository's request for Database is answered by the verified MetaController's
        // registration, through the verification's stand-in: an edge to it, no missing product.
        let graph = await graph().verifiedGraph()
        let dependencies = graph.dependencies(of: .init(.registration, "Repository")).map(\.id)
        #expect(dependencies.contains(.init(.registration, "Database")), "\(dependencies)")
        #expect(graph.node(.init(.missingProduct, "Database")) == nil)
    }

    @Test func mermaidAndDOTMarkAnAsyncRegistrationInItsLabel() async {
        let graph = await graph().verifiedGraph()
        #expect(graph.mermaid.contains("registration_Database[\"Database<br/>shared, async\"]"), "\(graph.mermaid)")
        #expect(graph.mermaid.contains("registration_Repository(\"Repository<br/>per request, async\")"), "\(graph.mermaid)")
        #expect(graph.mermaid.contains("registration_Analytics[\"Analytics<br/>shared\"]"), "\(graph.mermaid)")
        #expect(graph.dot.contains("registration_Database [label=\"Database\\nshared, async\"];"), "\(graph.dot)")
        #expect(
            graph.dot.contains("registration_Repository [label=\"Repository\\nper request, async\", style=rounded];"),
            "\(graph.dot)")
        #expect(graph.dot.contains("registration_Analytics [label=\"Analytics\\nshared\"];"), "\(graph.dot)")
    }

    @Test func theSynchronousGraphMarksAsyncRegistrationsItCannotMakeAsProblems() {
        let graph = graph().graph()
        #expect(graph.node(.init(.registration, "Database"))?.isAsync == true)
        #expect(graph.node(.init(.registration, "Repository"))?.problems.map(\.kind) == [.asyncFactory])
        #expect(graph.description.contains("  registration Database (shared, async)\n"), "\(graph)")
        #expect(graph.mermaid.contains("registration_Repository(\"Repository<br/>per request, async\")"), "\(graph.mermaid)")
        #expect(graph.dot.contains("label=\"Database\\nshared, async\""), "\(graph.dot)")
        #expect(graph.verification.problems.filter { $0.kind == .asyncFactory }.count == 3, "\(graph.verification)")
    }

    @Test func aGraphWithNoAsyncRegistrationIsDrawnAsBefore() async {
        let metaController = MetaController()
        metaController.registerShared(Analytics.self) { _ in Analytics() }
        metaController.register(Legacy.self) {
            _ = try $0.make(Analytics.self) as Analytics; return Legacy()
        }
        let synchronous = metaController.graph()
        let verified = await metaController.verifiedGraph()
        #expect(synchronous == verified)
        #expect(!synchronous.description.contains("async") && !synchronous.mermaid.contains("async"))
    }

    @Test func theGraphIsTheSameWhicheverTaskMadeWhatFirst() async {
        let metaController = MetaController()
        metaController.registerShared(Database.self) { _ in
            await Task.yield(); return Database()
        }
        metaController.register(Left.self) {
            _ = try await $0.product(Database.self) as Database; return Left()
        }
        metaController.register(Right.self) {
            _ = try await $0.product(Database.self) as Database; return Right()
        }
        let first = await metaController.verifiedGraph()
        for _ in 0..<20 {
            let again = await metaController.verifiedGraph()
            #expect(again == first)
        }
        #expect(first.dependents(of: .init(.registration, "Database")).map(\.name) == ["Left", "Right"])
    }
}
