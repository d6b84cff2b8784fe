import Foundation
import Testing

import MetaController
@testable import MetaControllerCore
import MetaControllerTestSupport

// The async factories as the docs use them: a main-actor screen asked for from a background
// actor (Docs/CustomControllers.md), a model made before its view's first render
// (Docs/SwiftUI.md), a request handler that awaits a product (Docs/Server.md).

/// A main-actor screen, made by a main-actor factory: it records where it was made and
/// where it received its MetaController.
@MainActor
private final class ReceiptScreen: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
    let madeOnMain: Bool
    private(set) var arrivedOnMain: Bool?

    init() { madeOnMain = MainActorContext.isCurrent(nil) }

    func metaControllerDidArrive() { arrivedOnMain = MainActorContext.isCurrent(nil) }
}

/// A background actor that asks for screens, as a coordinator off the main actor would.
private actor Coordinator {
    let metaController: MetaController
    init(metaController: MetaController) { self.metaController = metaController }

    func receipt() async throws -> ReceiptScreen {
        try await metaController.product(ReceiptScreen.self)
    }

    func history() async throws -> HistoryModel {
        try await metaController.product(HistoryModel.self)
    }
}

/// A view model whose product is made asynchronously, on the main actor.
@MainActor
private final class HistoryModel: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
    let orders: [String]
    private(set) var arrivals = 0

    init(orders: [String]) { self.orders = orders }

    func metaControllerDidArrive() { arrivals += 1 }
}

/// What the history model loads before it is made.
private func loadOrders(_ gate: AsyncGate?) async -> [String] {
    await gate?.pass()
    return ["milk", "bread"]
}

/// An app-wide store that opens asynchronously, shared by every request.
private final class OrderStore: MetaControllerConsumer, Sendable {
    private let reference = WeakMetaControllerReference()
    var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }
    let number: Int
    init(number: Int) { self.number = number }
}

/// A request's own object, made per request by an async factory.
private final class RequestAudit: MetaControllerConsumer, Sendable {
    private let reference = WeakMetaControllerReference()
    var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }
    let madeWith: MetaController
    init(madeWith: MetaController) { self.madeWith = madeWith }
}

/// A request handler as Docs/Server.md shows it: a reader of the request's scope.
private struct OrdersHandler: MetaControllerReader, Sendable {
    let metaController: MetaController?

    func handle() async throws -> (OrderStore, RequestAudit) {
        guard let metaController else { throw CancellationError() }
        let store = try await metaController.product(OrderStore.self)
        let audit = try await metaController.product(RequestAudit.self)
        return (store, audit)
    }
}

@Suite("Async factories as the docs use them")
struct AsyncFactoryUsageTests {
    @Test func aMainActorFactoryAskedFromABackgroundActorMakesAndHandsOverOnTheMainActor() async throws {
        let metaController = MetaController()
        metaController.register(ReceiptScreen.self) { @MainActor _ in ReceiptScreen() }
        let screen = try await Coordinator(metaController: metaController).receipt()
        await MainActor.run {
            #expect(screen.madeOnMain)
            #expect(screen.metaController === metaController)
            #expect(screen.arrivedOnMain == true)
        }
    }

    @Test @MainActor func anAsyncMainActorFactoryAskedFromTheMainActorHandsItsModelOverBeforeReturningIt() async throws {
        let metaController = MetaController()
        let gate = AsyncGate()
        metaController.register(HistoryModel.self) { @MainActor _ in
            HistoryModel(orders: await loadOrders(gate))
        }
        // A view's `.task`: a placeholder until the model is there.
        var model: HistoryModel?
        let task = Task { @MainActor in
            model = try await metaController.product(HistoryModel.self)
        }
        await gate.arrived()
        #expect(model == nil)
        gate.open()
        try await task.value
        let made = try #require(model)
        #expect(made.orders == ["milk", "bread"])
        #expect(made.metaController === metaController)
        #expect(made.arrivals == 1)
    }

    @Test func anAsyncMainActorFactoryAskedFromABackgroundActorHandsItsModelOver() async throws {
        let metaController = MetaController()
        metaController.register(HistoryModel.self) { @MainActor _ in
            HistoryModel(orders: await loadOrders(nil))
        }
        let model = try await Coordinator(metaController: metaController).history()
        await MainActor.run {
            #expect(model.orders == ["milk", "bread"])
            #expect(model.metaController === metaController)
            #expect(model.arrivals == 1)
        }
    }

    @Test @MainActor func aSharedAsyncMainActorModelAskedFromTheMainActorHoldsItsMetaController() async throws {
        let metaController = MetaController()
        metaController.registerShared(HistoryModel.self) { @MainActor _ in
            HistoryModel(orders: await loadOrders(nil))
        }
        let model = try await metaController.product(HistoryModel.self)
        #expect(model.orders == ["milk", "bread"])
        #expect(model.metaController === metaController)
        #expect(model.arrivals == 1)
    }

    @Test func requestHandlersAwaitOneSharedStoreMadeWithTheAppAndTheirOwnProductsMadeWithTheirScope() async throws {
        let app = MetaController()
        let gate = AsyncGate()
        let constructions = Lock(0)
        app.registerShared(OrderStore.self) { _ in
            let number = constructions.withLock {
                $0 += 1; return $0
            }
            await gate.pass()
            return OrderStore(number: number)
        }
        app.register(RequestAudit.self) { requester in
            await Task.yield()
            return RequestAudit(madeWith: requester)
        }
        let scopes = (0..<20).map { _ in MetaController(parent: app, signals: Signals()) }
        let results = try await withThrowingTaskGroup(of: (Int, OrderStore, RequestAudit).self) { group in
            for (index, scope) in scopes.enumerated() {
                group.addTask {
                    let (store, audit) = try await OrdersHandler(metaController: scope).handle()
                    return (index, store, audit)
                }
            }
            await gate.arrived()
            gate.open()
            return try await group.reduce(into: [(Int, OrderStore, RequestAudit)]()) { $0.append($1) }
        }
        #expect(results.count == 20)
        #expect(constructions.withLock { $0 } == 1)
        #expect(Set(results.map { ObjectIdentifier($0.1) }).count == 1)
        #expect(results.allSatisfy { $0.1.metaController === app })
        #expect(results.allSatisfy { $0.2.madeWith === scopes[$0.0] && $0.2.metaController === scopes[$0.0] })
    }
}
