import Foundation
import MetaController
import MetaControllerTesting
import Testing

typealias GNode = MetaControllerGraph.Node
typealias GID = MetaControllerGraph.Node.ID

// MARK: - What the graph holds (Docs/SeeingTheGraph.md, MetaController.graph(consumers:samples:))

@Suite("MetaControllerGraph: what it holds")
@MainActor
struct GraphContentTests {
    @Test func aFilledSlotIsANodeWithTheConcreteTypeOfItsValue() {
        let graph = checkoutGraphMetaController().graph()
        let slot = graph.node(GID(.slot, "apiController"))
        #expect(slot?.kind == .slot)
        #expect(slot?.typeName == "FakeApiController")
        #expect(slot?.scope == 0)
    }

    @Test func everyRegistrationIsANodeWithItsLifetime() {
        let graph = checkoutGraphMetaController().graph()
        #expect(graph.node(GID(.registration, "Checkout"))?.lifetime == .perRequest)
        #expect(graph.node(GID(.registration, "PaymentClient"))?.lifetime == .shared)
        #expect(graph.node(GID(.slot, "apiController"))?.lifetime == nil)
    }

    @Test func aRegistrationNodeKnowsItsNameAndArgumentType() {
        let metaController = MetaController()
        metaController.register(DetailScreen.self, name: "B", argument: GraphItem.self, sample: GraphItem(id: 1)) { _, item in DetailScreen(item: item) }
        let graph = metaController.graph()
        let node = graph.node(GID(.registration, "DetailScreen named \"B\" from GraphItem"))
        #expect(node != nil, "\(graph.nodes.map(\.id))")
        #expect(node?.factoryName == "B")
        #expect(node?.argumentType == "GraphItem")
        #expect(node?.typeName == "DetailScreen")
    }

    @Test func theProductsAFactoryRequestedAreRequestEdges() {
        let graph = checkoutGraphMetaController().graph()
        let edge = graph.edges.first { $0.from == GID(.registration, "Checkout") }
        #expect(edge?.to == GID(.registration, "PaymentClient"))
        #expect(edge?.kind == .requests)
        #expect(edge?.problems.isEmpty == true)
    }

    @Test func aProductNoFactoryMakesIsAMissingProductWithItsProblem() {
        let graph = checkoutGraphMetaController().graph()
        let missing = graph.node(GID(.missingProduct, "TokenStore"))
        #expect(missing?.kind == .missingProduct)
        #expect(missing?.scope == nil)
        #expect(missing?.problems.map(\.kind) == [.missingFactory])
        let edge = graph.edges.first { $0.to == GID(.missingProduct, "TokenStore") }
        #expect(edge?.from == GID(.registration, "PaymentClient"))
        #expect(edge?.problems.map(\.kind) == [.missingFactory])
    }

    @Test func aListedConsumerIsANodeWithRequirementEdgesToTheSlotsItRequires() {
        let metaController = MetaController()
        metaController.apiController = FakeApiController()
        let graph = metaController.graph(consumers: [FeedScreen.self])
        let consumer = graph.node(GID(.consumer, "FeedScreen"))
        #expect(consumer?.kind == .consumer)
        #expect(consumer?.scope == nil)
        let required = graph.edges.filter { $0.from == GID(.consumer, "FeedScreen") }
        #expect(required.allSatisfy { $0.kind == .requires })
        #expect(Set(required.map(\.to)) == [GID(.slot, "apiController"), GID(.missingSlot, "logController")])
    }

    @Test func aRequiredSlotNothingFillsIsAMissingSlotOnAnEdgeWithTheProblem() {
        let graph = MetaController().graph(consumers: [FeedScreen.self])
        #expect(graph.node(GID(.missingSlot, "logController"))?.typeName == nil)
        let edge = graph.edges.first { $0.to == GID(.missingSlot, "logController") }
        #expect(edge?.problems.map(\.kind) == [.unfilledRequirement])
        #expect(graph.node(GID(.consumer, "FeedScreen"))?.problems.map(\.kind) == [.unfilledRequirement])
    }

    @Test func aConsumerThatIsListedAndRegisteredIsDrawnOnceAsItsRegistration() {
        let metaController = MetaController()
        metaController[CheckoutControllerKey.self] = LiveCheckoutController()
        metaController[ProfileControllerKey.self] = LiveProfileController()
        metaController.register(CheckoutScreen.self) { _ in CheckoutScreen() }
        let graph = metaController.graph(consumers: [CheckoutScreen.self])
        #expect(graph.nodes.filter { $0.name == "CheckoutScreen" }.map(\.kind) == [.registration])
        let required = graph.edges.filter { $0.from == GID(.registration, "CheckoutScreen") }.map(\.to)
        #expect(required == [GID(.slot, "checkoutController"), GID(.slot, "profileController")])
    }

    @Test func aRegistrationWhoseProductIsAConsumerRequiresItsSlots() {
        let metaController = MetaController()
        metaController.register(CheckoutScreen.self) { _ in CheckoutScreen() }
        let graph = metaController.graph()
        let edges = graph.edges.filter { $0.from == GID(.registration, "CheckoutScreen") }
        #expect(edges.map(\.to) == [GID(.missingSlot, "checkoutController"), GID(.missingSlot, "profileController")])
        #expect(edges.allSatisfy { $0.kind == .requires && $0.problems.map(\.kind) == [.unfilledRequirement] })
    }

    @Test func aFactoryThatThrowsMarksItsNode() {
        let metaController = MetaController()
        metaController.register(Thrower.self) { _ in throw SomeError() }
        let graph = metaController.graph()
        #expect(graph.node(GID(.registration, "Thrower"))?.problems.map(\.kind) == [.factoryThrew])
    }

    @Test func aProductThatReadsAnEmptySlotWhileMadeMarksItsNode() {
        let metaController = MetaController()
        metaController.register(ReadsApiWhileMade.self) { _ in ReadsApiWhileMade() }
        let graph = metaController.graph()
        #expect(graph.verification.problems.map(\.kind) == [.unfilledRead])
        #expect(graph.node(GID(.registration, "ReadsApiWhileMade"))?.problems.map(\.kind) == [.unfilledRead])
    }

    @Test func aMainActorFactoryAskedOffTheMainActorMarksTheEdge() {
        let metaController = MetaController()
        metaController.register(MainOnly.self) { @MainActor _ in MainOnly() }
        metaController.register(AsksMainOnly.self) { m in
            _ = try m.make(MainOnly.self)
            return AsksMainOnly()
        }
        let graph = metaController.graph()
        let edge = graph.edges.first { $0.from == GID(.registration, "AsksMainOnly") }
        #expect(edge?.to == GID(.registration, "MainOnly"))
        #expect(edge?.problems.map(\.kind) == [.notOnMainActor])
    }

    @Test func aCircleMarksAnEdgeOfTheCircle() {
        let metaController = MetaController()
        registerCircle(metaController, length: 3)
        let graph = metaController.graph()
        let marked = graph.edges.filter { $0.problems.contains { $0.kind == .circularFactories } }
        #expect(!marked.isEmpty)
        #expect(graph.edges.count == 3)
    }

    @Test func theScopesAreTheOneAskedThenItsParents() {
        let grandparent = MetaController()
        let parent = MetaController(parent: grandparent)
        let child = MetaController(parent: parent)
        #expect(child.graph().scopes == ["MetaController", "parent 1", "parent 2"])
    }

    @Test func aSlotIsDrawnInTheNearestScopeThatFillsIt() {
        let parent = MetaController()
        parent.apiController = FakeApiController()
        parent.dataController = MemoryDataController()
        let child = MetaController(parent: parent)
        child.apiController = FakeApiController()
        let graph = child.graph()
        #expect(graph.node(GID(.slot, "apiController"))?.scope == 0)
        #expect(graph.node(GID(.slot, "dataController"))?.scope == 1)
        #expect(graph.nodes.filter { $0.name == "apiController" }.count == 1)
    }

    @Test func aRegistrationIsDrawnInTheScopeARequestFindsItIn() {
        let parent = MetaController()
        parent.register(Orders.self) { _ in Orders() }
        parent.register(Profile.self) { _ in Profile() }
        let child = MetaController(parent: parent)
        child.register(Profile.self) { _ in Profile() }
        let graph = child.graph()
        #expect(graph.node(GID(.registration, "Orders"))?.scope == 1)
        #expect(graph.node(GID(.registration, "Profile"))?.scope == 0)
        #expect(graph.nodes.filter { $0.name == "Profile" }.count == 1)
    }

    @Test func aSharedProductMadeBeforeIsMarkedAndNotMadeAgain() throws {
        let runs = Locked(0)
        let metaController = MetaController()
        metaController.registerShared(SharedCounted.self) { m in
            runs.withLock { $0 += 1 }
            _ = try? m.make(Extra.self)
            return SharedCounted()
        }
        metaController.register(Extra.self) { _ in Extra() }
        _ = try metaController.make(SharedCounted.self)
        let graph = metaController.graph()
        let node = graph.node(GID(.registration, "SharedCounted"))
        #expect(node?.wasMadeBefore == true)
        #expect(runs.get == 1)
        #expect(graph.dependencies(of: GID(.registration, "SharedCounted")).isEmpty)
    }

    @Test func aMissingProductAFactoryCaughtIsDrawnMissingWithNoProblem() {
        let metaController = MetaController()
        metaController.register(Orders.self) { m in
            _ = (try? m.make(Analytics.self)) ?? Analytics()
            return Orders()
        }
        let graph = metaController.graph()
        #expect(graph.verification.isSatisfied)
        let missing = graph.node(GID(.missingProduct, "Analytics"))
        #expect(missing != nil)
        #expect(missing?.problems.isEmpty == true)
        #expect(graph.edges.first { $0.to == GID(.missingProduct, "Analytics") }?.problems.isEmpty == true)
    }

    @Test func aRequestMadeOnAnotherThreadDrawsNoEdge() {
        let metaController = MetaController()
        metaController.register(Orders.self) { _ in Orders() }
        metaController.register(BackgroundRequester.self) { m in
            // A thread of its own (a sync block on a global queue may run on the calling thread).
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = try? m.make(Orders.self); done.signal()
            }.start()
            done.wait()
            return BackgroundRequester()
        }
        let graph = metaController.graph()
        #expect(graph.dependencies(of: GID(.registration, "BackgroundRequester")).isEmpty)
    }

    @Test func aRequestToACapturedMetaControllerDrawsNoEdge() {
        let metaController = MetaController()
        metaController.register(Captured.self) { _ in Captured() }
        metaController.register(CapturingRequester.self) { [unowned metaController] _ in
            _ = try metaController.make(Captured.self)
            return CapturingRequester()
        }
        let graph = metaController.graph()
        #expect(graph.dependencies(of: GID(.registration, "CapturingRequester")).isEmpty)
    }

    @Test func aControllerInASlotHasEdgesToWhatItRequiresButNoProblem() {
        let metaController = MetaController()
        metaController[SyncControllerKey.self] = NeedsDataController()
        let graph = metaController.graph()
        #expect(graph.verification.isSatisfied)
        let edges = graph.edges.filter { $0.from == GID(.slot, "syncController") }
        #expect(edges.map(\.to) == [GID(.missingSlot, "dataController")])
        #expect(edges.first?.kind == .requires)
        #expect(edges.first?.problems.isEmpty == true)
    }

    @Test func nodeForAnUnknownIdentityIsNil() {
        #expect(checkoutGraphMetaController().graph().node(GID(.registration, "Nothing")) == nil)
    }

    @Test func nodesAreInOrderOfKindThenName() {
        let metaController = checkoutGraphMetaController()
        metaController.register(Avatar.self) { _ in Avatar() }
        let graph = metaController.graph(consumers: [FeedScreen.self, PlainScreen.self])
        let ids = graph.nodes.map(\.id)
        #expect(ids == ids.sorted())
        let kinds: [GNode.Kind] = [.slot, .registration, .consumer, .missingProduct, .missingSlot]
        #expect(kinds == kinds.sorted())
        #expect(graph.nodes.map(\.kind) == graph.nodes.map(\.kind).sorted())
    }

    @Test func edgesAreInOrderOfTheNodeTheyLeaveThenKindThenTheNodeTheyReach() {
        let metaController = checkoutGraphMetaController()
        metaController.register(Orders.self) { m in
            _ = try? m.make(Profile.self)
            _ = try? m.make(Avatar.self)
            return Orders()
        }
        metaController.register(Profile.self) { _ in Profile() }
        metaController.register(Avatar.self) { _ in Avatar() }
        let graph = metaController.graph(consumers: [FeedScreen.self])
        let position = Dictionary(uniqueKeysWithValues: graph.nodes.enumerated().map { ($1.id, $0) })
        let keys = graph.edges.map { (position[$0.from]!, $0.kind == .requests ? 0 : 1, position[$0.to]!) }
        #expect(keys.map { [$0.0, $0.1, $0.2] } == keys.map { [$0.0, $0.1, $0.2] }.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func identitiesAndEdgesDescribeThemselvesAsDocumented() {
        #expect(GID(.slot, "apiController").description == "slot:apiController")
        let graph = checkoutGraphMetaController().graph()
        let edge = graph.edges.first { $0.from == GID(.registration, "Checkout") }
        #expect(edge?.description == "registration:Checkout requests registration:PaymentClient")
        #expect(MetaControllerGraph.Edge.Kind.requests < .requires)
        #expect(MetaControllerGraph.Edge.Kind.requests.description == "requests")
        #expect(GNode.Kind.registration.description == "registration")
    }

    @Test func aNodeDescribesItselfInOneLine() {
        let metaController = MetaController()
        metaController[CheckoutControllerKey.self] = LiveCheckoutController()
        metaController[ProfileControllerKey.self] = LiveProfileController()
        metaController.register(CheckoutScreen.self) { _ in CheckoutScreen() }
        let node = metaController.graph().node(GID(.registration, "CheckoutScreen"))
        #expect(node?.description == "registration CheckoutScreen (per request, scope 0)")
    }

    @Test func twoGraphsOfTheSameMetaControllerAreEqualAndPrintTheSameText() {
        let metaController = checkoutGraphMetaController()
        let first = metaController.graph(consumers: [FeedScreen.self])
        let second = metaController.graph(consumers: [FeedScreen.self])
        #expect(first == second)
        #expect(first.description == second.description)
        #expect(first.mermaid == second.mermaid)
        #expect(first.dot == second.dot)
    }

    @Test func theOrderOfRegistrationDoesNotChangeTheText() {
        func make(_ reversed: Bool) -> MetaController {
            let metaController = MetaController()
            let names = reversed ? ["z", "m", "a"] : ["a", "m", "z"]
            for name in names { metaController.register(Named.self, name: name) { _ in Named() } }
            return metaController
        }
        let first = make(false).graph(consumers: [FeedScreen.self, PlainScreen.self])
        let second = make(true).graph(consumers: [PlainScreen.self, FeedScreen.self])
        #expect(first.description == second.description)
        #expect(first.mermaid == second.mermaid)
        #expect(first.dot == second.dot)
    }
}

// MARK: - The text form

@Suite("MetaControllerGraph.description")
@MainActor
struct GraphTextTests {
    @Test func theDocsCheckoutGraphPrintsAsTheDocShowsIt() {
        let expected = """
            graph: 1 scope, 1 slot, 2 registrations, 0 consumer types, 1 problem
            scope 0: MetaController
              slot apiController: FakeApiController
              registration Checkout (per request)
                requests PaymentClient
              registration PaymentClient (shared)
                requests TokenStore [missingFactory]
            missing
              product TokenStore
                problem: Checkout -> PaymentClient -> TokenStore: no factory makes TokenStore; register one with register(_:name:factory:)
            """
        #expect(checkoutGraphMetaController().graph().description == expected)
    }

    @Test func theTextHasOneLinePerNodeAndPerEdgePlusHeadersAndProblems() {
        let graph = checkoutGraphMetaController().graph(consumers: [FeedScreen.self])
        let lines = graph.description.split(separator: "\n", omittingEmptySubsequences: false)
        let problemLines = lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("problem:") }.count
        let headers = 1 + graph.scopes.count + 2   // summary, scopes, "consumers", "missing"
        #expect(lines.count == headers + graph.nodes.count + graph.edges.count + problemLines)
    }
}

// MARK: - Mermaid

@Suite("MetaControllerGraph.mermaid")
@MainActor
struct GraphMermaidTests {
    func featureModulesMetaController() -> MetaController {
        let metaController = MetaController()
        metaController[CheckoutControllerKey.self] = LiveCheckoutController()
        metaController.dataController = MemoryDataController()
        metaController.logController = StandardLogController(destinations: [MemoryLogDestination()])
        metaController[ProfileControllerKey.self] = LiveProfileController()
        metaController.register(CheckoutScreen.self) { _ in CheckoutScreen() }
        return metaController
    }

    @Test func theFeatureModulesGraphIsTheDocsPicture() {
        let expected = """
            flowchart LR
              subgraph scope_0["MetaController"]
                slot_checkoutController[("checkoutController<br/>LiveCheckoutController")]
                slot_dataController[("dataController<br/>MemoryDataController")]
                slot_logController[("logController<br/>StandardLogController")]
                slot_profileController[("profileController<br/>LiveProfileController")]
                registration_CheckoutScreen("CheckoutScreen<br/>per request")
              end
              registration_CheckoutScreen -.-> slot_checkoutController
              registration_CheckoutScreen -.-> slot_profileController
              classDef problem stroke:#d22,stroke-width:3px
              classDef missing stroke:#d22,stroke-width:3px,stroke-dasharray:5 5
            """
        let graph = featureModulesMetaController().graph(consumers: [CheckoutScreen.self])
        #expect(graph.verification.isSatisfied)
        #expect(graph.mermaid == expected)
    }

    @Test func shapesFollowTheTableOfReadingAPicture() {
        let graph = checkoutGraphMetaController().graph(consumers: [FeedScreen.self])
        let text = graph.mermaid
        #expect(text.contains("slot_apiController[(\"apiController<br/>FakeApiController\")]"))   // cylinder
        #expect(text.contains("registration_Checkout(\"Checkout<br/>per request\")"))   // rounded box
        #expect(text.contains("registration_PaymentClient[\"PaymentClient<br/>shared\"]"))   // box
        #expect(text.contains("consumer_FeedScreen([\"FeedScreen\"])"))   // stadium
        #expect(text.contains("registration_Checkout --> registration_PaymentClient"))   // solid arrow
        #expect(text.contains("consumer_FeedScreen -.-> slot_apiController"))   // dotted arrow
    }

    @Test func missingNodesAreOfTheMissingClassAndProblemNodesOfTheProblemClass() {
        let metaController = checkoutGraphMetaController()
        metaController.register(Thrower.self) { _ in throw SomeError() }
        let text = metaController.graph().mermaid
        let classLines = text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("class ") }
        #expect(classLines.contains { $0.contains("missingProduct_TokenStore") && $0.hasSuffix(" missing") })
        #expect(classLines.contains { $0.contains("registration_Thrower") && $0.hasSuffix(" problem") })
    }

    @Test func theLinkStyleLineNumbersExactlyTheMarkedEdges() {
        let metaController = checkoutGraphMetaController()
        registerCircle(metaController, length: 2)
        let graph = metaController.graph(consumers: [FeedScreen.self])
        let edgeLines = mermaidEdgeLines(graph.mermaid)
        #expect(edgeLines.count == graph.edges.count)
        let marked = Set(edgeLines.enumerated().filter { $0.element.contains("-->|") || $0.element.contains("-.->|") }.map(\.offset))
        let linkStyle = graph.mermaid.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("linkStyle ") }
        let numbers = linkStyle.map { line in
            Set(line.trimmingCharacters(in: .whitespaces).split(separator: " ")[1].split(separator: ",").compactMap { Int($0) })
        }
        #expect(numbers == marked)
        #expect(marked.count == graph.edges.filter { !$0.problems.isEmpty }.count)
    }

    @Test func aMarkedEdgeIsLabelledWithItsProblemsKind() {
        let text = checkoutGraphMetaController().graph().mermaid
        #expect(text.contains("registration_PaymentClient -->|\"missingFactory\"| missingProduct_TokenStore"))
    }

    @Test func eachScopeIsASubgraphNamedAsDocumented() {
        let parent = MetaController()
        parent.apiController = FakeApiController()
        let child = MetaController(parent: parent)
        child.dataController = MemoryDataController()
        let text = child.graph().mermaid
        #expect(text.contains("subgraph scope_0[\"MetaController\"]"))
        #expect(text.contains("subgraph scope_1[\"parent 1\"]"))
    }

    @Test func aChangeToTheGraphChangesOnlyTheLinesItTouches() {
        let before = checkoutGraphMetaController()
        let after = checkoutGraphMetaController()
        after.register(Unused.self) { _ in Unused() }
        let old = before.graph().mermaid.split(separator: "\n").filter { !$0.contains("linkStyle") }
        let new = after.graph().mermaid.split(separator: "\n").filter { !$0.contains("linkStyle") }
        let added = new.filter { !old.contains($0) }
        #expect(old.allSatisfy { new.contains($0) })
        #expect(added.count == 1 && added.first?.contains("registration_Unused") == true)
    }

    @Test(.enabled(if: Tools.hasMermaid, "needs node and mermaid-parser-py"))
    func mermaidsOwnParserReadsTheDocsGraphsWithEveryNodeAndEdge() async throws {
        let metaController = checkoutGraphMetaController()
        registerCircle(metaController, length: 3)
        metaController.register(Thrower.self) { _ in throw SomeError() }
        let graph = metaController.graph(consumers: [FeedScreen.self])
        let parsed = try await parseMermaid(graph.mermaid)
        #expect(parsed.ok, "\(parsed.error ?? "")")
        #expect(parsed.vertices == graph.nodes.count)
        #expect(parsed.edges == graph.edges.count)
    }
}

// MARK: - DOT

@Suite("MetaControllerGraph.dot")
@MainActor
struct GraphDotTests {
    /// Each MetaController is a cluster, the one asked first, then its parents; a node is declared
    /// by the identifier SeeingTheGraph.md describes, the same as in Mermaid, inside the cluster
    /// of its scope.
    @Test func eachScopeIsAClusterAndNodesAreNamedByTheirIdentity() {
        let parent = MetaController()
        parent.apiController = FakeApiController()
        let child = MetaController(parent: parent)
        child.register(Checkout.self) { _ in Checkout() }
        for name in ["api-v1", "api.v1", "a b", "a_b", "a  b"] {
            child.register(Named.self, name: name) { _ in Named() }
        }
        let graph = child.graph()
        let dot = graph.dot
        #expect(dot.hasPrefix("digraph"))
        let lines = dot.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        /// The lines of the cluster `index`, between its `subgraph` line and its closing brace.
        func cluster(_ index: Int) -> [String] {
            guard let start = lines.firstIndex(of: "subgraph cluster_\(index) {") else { return [] }
            return Array(lines[(start + 1)...].prefix { $0 != "}" })
        }
        #expect(cluster(0).contains("label=\"MetaController\";"))
        #expect(cluster(1).contains("label=\"parent 1\";"))
        #expect(cluster(0).contains { $0.hasPrefix("registration_Checkout [") })
        #expect(cluster(1).contains { $0.hasPrefix("slot_apiController [") })
        #expect(pictureIdentifier(GID(.registration, "Named named \"api-v1\"")) == "registration_Named_named__20x22_api__2D_v1__22_")
        let declared = lines.filter { $0.contains(" [label=") && !$0.contains(" -> ") }.map { String($0.prefix { $0 != " " }) }
        #expect(declared.sorted() == graph.nodes.map { pictureIdentifier($0.id) }.sorted())
        #expect(Set(declared).count == graph.nodes.count)
        #expect(graph.mermaid.contains("registration_Named_named__20x22_api__2E_v1__22_(\""))
        #expect(dot.contains("\n    registration_Named_named__20x22_api__2E_v1__22_ [label="))
    }

    /// SeeingTheGraph.md, "Reading a picture", the DOT column.
    @Test func shapesAndLinesFollowTheTableOfReadingAPicture() {
        let dot = checkoutGraphMetaController().graph(consumers: [FeedScreen.self]).dot
        let lines = dot.split(separator: "\n").map(String.init)
        func line(_ prefix: String) -> String { lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) } ?? "" }
        func node(_ kind: GNode.Kind, _ name: String) -> String { line(pictureIdentifier(GID(kind, name)) + " [") }
        func edge(_ from: GID, _ to: GID) -> String {
            let arrow = pictureIdentifier(from) + " -> " + pictureIdentifier(to)
            return lines.first { line in
                let text = line.trimmingCharacters(in: .whitespaces)
                return text.hasPrefix(arrow + ";") || text.hasPrefix(arrow + " [")
            } ?? ""
        }
        #expect(dot.contains("node [shape=box]"))   // a registration: a box
        #expect(node(.slot, "apiController").contains("shape=cylinder"))
        #expect(node(.registration, "Checkout").contains("rounded"))
        #expect(!node(.registration, "PaymentClient").contains("rounded"))
        #expect(!node(.registration, "PaymentClient").contains("shape="))
        #expect(node(.consumer, "FeedScreen").contains("shape=oval"))
        let missing = node(.missingProduct, "TokenStore")
        #expect(missing.contains("dashed") && missing.contains("red"), "\(missing)")
        let missingSlot = node(.missingSlot, "logController")
        #expect(missingSlot.contains("dashed") && missingSlot.contains("red"), "\(missingSlot)")
        #expect(edge(GID(.consumer, "FeedScreen"), GID(.slot, "apiController")).contains("dotted"))
        let request = edge(GID(.registration, "Checkout"), GID(.registration, "PaymentClient"))
        #expect(!request.isEmpty && !request.contains("dotted") && !request.contains("red"), "\(request)")
        let marked = edge(GID(.registration, "PaymentClient"), GID(.missingProduct, "TokenStore"))
        #expect(marked.contains("red") && marked.contains("label=\"missingFactory\""), "\(marked)")
        let unfilled = edge(GID(.consumer, "FeedScreen"), GID(.missingSlot, "logController"))
        #expect(unfilled.contains("dotted") && unfilled.contains("red") && unfilled.contains("label=\"unfilledRequirement\""), "\(unfilled)")
    }

    @Test func aNodeWhereAProblemAroseIsRed() {
        let metaController = MetaController()
        metaController.register(Thrower.self) { _ in throw SomeError() }
        metaController.register(Orders.self) { _ in Orders() }
        let lines = metaController.graph().dot.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func node(_ name: String) -> String? { lines.first { $0.hasPrefix(pictureIdentifier(GID(.registration, name)) + " [") } }
        #expect(node("Thrower")?.contains("red") == true)
        #expect(node("Orders")?.contains("red") == false)
    }

    @Test(.enabled(if: Tools.hasDot, "needs graphviz and python3"))
    func graphvizDrawsTheDocsGraphWithEveryNodeAndEdge() async throws {
        let metaController = checkoutGraphMetaController()
        registerCircle(metaController, length: 3)
        let graph = metaController.graph(consumers: [FeedScreen.self])
        let render = try await renderDot(graph.dot)
        #expect(render.accepted, "\(render.dotError)")
        #expect(render.wellFormed, "\(render.xmlError)")
        #expect(render.nodeCount == graph.nodes.count)
        #expect(render.edgeCount == graph.edges.count)
    }
}

// MARK: - What a reviewer asks

@Suite("MetaControllerGraph: unused registrations, dependents, dependencies, longest chain")
@MainActor
struct GraphQueryTests {
    @Test func aRegistrationNothingAsksForIsUnused() {
        let metaController = checkoutGraphMetaController()
        metaController.register(Unused.self) { _ in Unused() }
        let unused = metaController.graph().unusedRegistrations.map(\.name)
        #expect(unused == ["Checkout", "Unused"])
    }

    @Test func aRegistrationWhoseProductIsAListedConsumerIsNotUnused() {
        let metaController = MetaController()
        metaController.register(CheckoutScreen.self) { _ in CheckoutScreen() }
        #expect(metaController.graph().unusedRegistrations.map(\.name) == ["CheckoutScreen"])
        #expect(metaController.graph(consumers: [CheckoutScreen.self]).unusedRegistrations.isEmpty)
    }

    @Test func aSharedProductMadeBeforeIsNotUnused() throws {
        let metaController = MetaController()
        metaController.registerShared(SharedCounted.self) { _ in SharedCounted() }
        _ = try metaController.make(SharedCounted.self)
        #expect(metaController.graph().unusedRegistrations.isEmpty)
    }

    @Test func dependentsAreTheRegistrationsThatRequestedAProduct() {
        let metaController = MetaController()
        metaController.registerShared(Database.self) { _ in Database() }
        metaController.register(Orders.self) { m in
            _ = try m.make(Database.self); return Orders()
        }
        metaController.register(Profile.self) { m in
            _ = try m.make(Database.self); return Profile()
        }
        metaController.register(Avatar.self) { _ in Avatar() }
        let graph = metaController.graph()
        #expect(graph.dependents(of: GID(.registration, "Database")).map(\.name) == ["Orders", "Profile"])
    }

    @Test func dependentsOfASlotAreTheConsumersThatRequireIt() {
        let metaController = MetaController()
        metaController.apiController = FakeApiController()
        let graph = metaController.graph(consumers: [FeedScreen.self, PlainScreen.self])
        #expect(graph.dependents(of: GID(.slot, "apiController")).map(\.name) == ["FeedScreen"])
    }

    @Test func dependenciesAreWhatANodeRequestedAndRequiresInNodeOrder() {
        let metaController = MetaController()
        metaController.apiController = FakeApiController()
        metaController.register(Profile.self) { _ in Profile() }
        metaController.register(Avatar.self) { _ in Avatar() }
        metaController.register(ReadsNothingButRequires.self) { m in
            _ = try m.make(Profile.self)
            _ = try m.make(Avatar.self)
            return ReadsNothingButRequires()
        }
        let graph = metaController.graph()
        let ids = graph.dependencies(of: GID(.registration, "ReadsNothingButRequires")).map(\.id)
        #expect(ids == [GID(.slot, "apiController"), GID(.registration, "Avatar"), GID(.registration, "Profile")])
    }

    @Test func dependentsAreTheReverseOfDependencies() {
        let metaController = checkoutGraphMetaController()
        registerCircle(metaController, length: 4)
        let graph = metaController.graph(consumers: [FeedScreen.self])
        for node in graph.nodes {
            for dependency in graph.dependencies(of: node.id) {
                #expect(graph.dependents(of: dependency.id).contains { $0.id == node.id })
            }
        }
    }

    @Test func theLongestChainIsTheDocsCheckoutPaymentTokenStore() {
        let graph = checkoutGraphMetaController().graph()
        #expect(graph.longestChain.map(\.name).joined(separator: " -> ") == "Checkout -> PaymentClient -> TokenStore")
    }

    @Test func theLongestChainIsEmptyWhenNoFactoryRequestedAnything() {
        let metaController = MetaController()
        metaController.register(Orders.self) { _ in Orders() }
        #expect(metaController.graph().longestChain.isEmpty)
    }

    @Test func ofChainsEquallyLongTheOneThatStartsFirstInNodesIsTaken() {
        let metaController = MetaController()
        metaController.register(Named.self, name: "b1") { m in
            _ = try m.make(Named.self, name: "b2"); return Named()
        }
        metaController.register(Named.self, name: "b2") { _ in Named() }
        metaController.register(Named.self, name: "a1") { m in
            _ = try m.make(Named.self, name: "a2"); return Named()
        }
        metaController.register(Named.self, name: "a2") { _ in Named() }
        let chain = metaController.graph().longestChain.map(\.factoryName)
        #expect(chain == ["a1", "a2"])
    }

    @Test func theLongestChainNeverGoesRoundACircle() {
        let metaController = MetaController()
        registerCircle(metaController, length: 5)
        let chain = metaController.graph().longestChain.map(\.id)
        #expect(Set(chain).count == chain.count)
        #expect(chain.count == 5)
    }

    @Test func theLongestChainOfADeepChainIsTheWholeChain() {
        let metaController = MetaController()
        let depth = 600
        for index in 0..<depth {
            metaController.register(Named.self, name: "\(index)") { m in
                if index + 1 < depth { _ = try m.make(Named.self, name: "\(index + 1)") }
                return Named()
            }
        }
        let graph = metaController.graph()
        #expect(graph.verification.isSatisfied)
        #expect(graph.longestChain.count == depth)
        #expect(graph.longestChain.first?.factoryName == "0")
        #expect(graph.longestChain.last?.factoryName == "\(depth - 1)")
    }
}

/// A product that requires the API slot.
final class ReadsNothingButRequires: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.api]
    var metaController: MetaController?
}

// MARK: - The demo's graph (Docs/SeeingTheGraph.md, "The demo's graph")

/// The Mermaid block that follows `marker` in a documentation file.
func documentedBlock(_ file: String, after marker: String) -> String? {
    let text = readText(Tools.docs.appendingPathComponent(file).path)
    guard let start = text.range(of: marker) else { return nil }
    let rest = text[start.upperBound...]
    guard let open = rest.range(of: "\n"), let close = rest.range(of: "\n```", range: open.upperBound..<rest.endIndex) else { return nil }
    return String(rest[open.upperBound..<close.lowerBound])
}

@Suite("The demo's graph", .enabled(if: Tools.demo != nil, "build it with: swift build --product metacontroller-demo"))
struct DemoGraphTests {
    @Test func theDemoPrintsTheGraphTheDocsShow() async throws {
        let expected = try #require(documentedBlock("SeeingTheGraph.md", after: "```mermaid from:Sources/MetaControllerDemo/Graph.mmd"))
        let result = try await run(Tools.demo!, ["--graph"], timeout: 120)
        #expect(result.status == 0)
        #expect(result.out.trimmingCharacters(in: .newlines) == expected.trimmingCharacters(in: .newlines))
    }

    @Test(.enabled(if: Tools.hasMermaid && Tools.hasDot, "needs node, mermaid-parser-py, graphviz"))
    func theDemosPicturesAreReadByMermaidAndGraphviz() async throws {
        let mermaid = try await run(Tools.demo!, ["--graph"], timeout: 120)
        let parsed = try await parseMermaid(mermaid.out)
        #expect(parsed.ok, "\(parsed.error ?? "")")
        let dot = try await run(Tools.demo!, ["--graph", "dot"], timeout: 120)
        let render = try await renderDot(dot.out)
        #expect(render.accepted && render.wellFormed)
        #expect(render.nodeCount == parsed.vertices)
    }
}
