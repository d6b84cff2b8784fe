import Foundation
import Testing

import MetaController
import MetaControllerCore
import MetaControllerTestSupport
import MetaControllerTesting

// Docs/Bootstrapping.md, "A controller that sets up asynchronously": launch code starts a
// task that awaits the controller's set-up and then sets its slot; consumers passed before
// read `nil` until then and the controller from then on, with no pass of their own. An
// AsyncGate holds the set-up at its critical point, so that the reads before the set happen
// every run.

/// The app's own store, in a key's slot: a consumer, so the set hands it the MetaController.
private protocol OrderStore: AnyObject, Sendable {
    var orders: [String] { get }
}

private final class OpenedOrderStore: OrderStore, WeakMetaControllerConsumer {
    let metaControllerReference = WeakMetaControllerReference()
    let orders: [String]
    private let arrivals = Lock(0)
    var timesArrived: Int { arrivals.withLock { $0 } }

    init(orders: [String]) { self.orders = orders }

    func metaControllerDidArrive() { arrivals.withLock { $0 += 1 } }

    /// The store's async set-up: opening its directory, held at `gate` until the test opens it.
    static func open(at gate: AsyncGate) async throws -> OpenedOrderStore {
        await gate.pass()
        return OpenedOrderStore(orders: ["first"])
    }
}

private struct OpenFailed: Error {}

private enum OrderStoreKey: MetaControllerKey {
    typealias Value = any OrderStore
}

private enum FakeOrderStoreKey: MetaControllerKey {
    typealias Value = any OrderStore
    static var testValue: Value? { OpenedOrderStore(orders: ["fake"]) }
}

extension MetaControllerReader {
    fileprivate var orderStore: (any OrderStore)? { self[OrderStoreKey.self] }
    fileprivate var fakeableOrderStore: (any OrderStore)? { self[FakeOrderStoreKey.self] }
}

/// A screen passed its MetaController at launch, before the store is open.
@MainActor
private final class OrdersScreen: @MainActor MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.custom(OrderStoreKey.self)]
    var metaController: MetaController?
    /// What the screen shows: the orders, or a placeholder while the store opens.
    var shown: String { orderStore.map { $0.orders.joined(separator: ", ") } ?? "opening…" }
}

/// A reader that is not on the main actor (a background sync engine).
private actor SyncEngine: MetaControllerReader {
    let metaController: MetaController?
    init(metaController: MetaController?) { self.metaController = metaController }
    func storedOrders() -> [String]? { orderStore?.orders }
    func data() -> (any DataController)? { dataController }
}

@Suite("A slot filled by async work at launch")
struct AsyncLaunchTests {
    @Test @MainActor func consumersPassedBeforeTheSetReadNilThenTheControllerWithNoPassOfTheirOwn() async throws {
        let metaController = MetaController()
        metaController.logController = FakeLogController()
        let gate = AsyncGate()
        // Launch: start the set-up, do not wait for it.
        let launch = Task {
            let store = try await OpenedOrderStore.open(at: gate)
            metaController[OrderStoreKey.self] = store
            return store
        }
        let screen = OrdersScreen()
        metaController.passMetaController(to: screen)
        let engine = SyncEngine(metaController: metaController)
        await gate.arrived()

        // Until the set: nil through every accessor, and the slot is not filled.
        #expect(screen.shown == "opening…")
        #expect(screen.orderStore == nil)
        #expect(metaController.orderStore == nil)
        #expect(metaController[OrderStoreKey.self] == nil)
        #expect(await engine.storedOrders() == nil)
        #expect(!metaController.contains(.custom(OrderStoreKey.self)))
        #expect(!metaController.audit(screen).isSatisfied)

        gate.open()
        let store = try await launch.value

        // From the set on: every consumer reads it, with no pass; the store was handed the MetaController once.
        #expect(screen.shown == "first")
        #expect(screen.orderStore === store)
        #expect(await engine.storedOrders() == ["first"])
        #expect(metaController.contains(.custom(OrderStoreKey.self)))
        #expect(metaController.audit(screen).isSatisfied)
        #expect(store.metaController === metaController)
        #expect(store.timesArrived == 1)
        #expect(screen.metaController === metaController)
    }

    @Test func aBuiltInSlotIsReadAsAKeysSlotIs() async throws {
        let metaController = MetaController()
        let gate = AsyncGate()
        let launch = Task {
            await gate.pass()
            metaController.dataController = MemoryDataController()
        }
        let engine = SyncEngine(metaController: metaController)
        await gate.arrived()
        #expect(metaController.dataController == nil)
        #expect(await engine.data() == nil)
        #expect(!metaController.contains(.data))
        gate.open()
        await launch.value
        #expect(metaController.dataController is MemoryDataController)
        #expect(await engine.data() is MemoryDataController)
        #expect(metaController.contains(.data))
    }

    @Test @MainActor func aScreenPassedBeforeTheSetIsWarnedAboutOnceInDebugBuildsAndNotAgain() async throws {
        let metaController = MetaController()
        let log = FakeLogController()
        metaController.logController = log
        let gate = AsyncGate()
        let launch = Task {
            metaController[OrderStoreKey.self] = try await OpenedOrderStore.open(at: gate)
        }
        await gate.arrived()
        let screen = OrdersScreen()
        metaController.passMetaController(to: screen)
        gate.open()
        try await launch.value
        #if DEBUG
        #expect(log.diagnostics.map(\.message) == ["OrdersScreen requires orderStore, which this MetaController lacks"])
        #else
        #expect(log.diagnostics.isEmpty)
        #endif
        #expect(screen.shown == "first")
        let later = OrdersScreen()
        metaController.passMetaController(to: later)
        #expect(log.diagnostics.count <= 1)
    }

    @Test @MainActor func aStrictTestMetaControllerReportsTheReadsBeforeTheSetAndNoneAfter() async throws {
        let reports = Lock([String]())
        let metaController = MetaController.strict { report in reports.withLock { $0.append("\(report)") } }
        metaController.logController = FakeLogController()   // the pass's warning goes there
        let gate = AsyncGate()
        let launch = Task {
            metaController[OrderStoreKey.self] = try await OpenedOrderStore.open(at: gate)
        }
        let screen = OrdersScreen()
        metaController.passMetaController(to: screen)
        await gate.arrived()
        #expect(screen.shown == "opening…")
        #expect(reports.withLock { $0 } == ["OrdersScreen read orderStore, which the test did not fill"])
        gate.open()
        try await launch.value
        #expect(screen.shown == "first")
        #expect(reports.withLock { $0.count } == 1)
    }

    @Test @MainActor func inATestMetaControllerAReadBeforeTheSetFindsTheKeysTestValueAndTheSetReplacesIt() async throws {
        let metaController = MetaController.withFakes()
        let gate = AsyncGate()
        let launch = Task {
            let store = try await OpenedOrderStore.open(at: gate)
            metaController[FakeOrderStoreKey.self] = store
            return store
        }
        await gate.arrived()
        // The built-in slots hold their fakes from the first line; a key's slot its test value, made at this read.
        #expect(metaController.dataController is FakeDataController)
        let fake = try #require(metaController.fakeableOrderStore)
        #expect(fake.orders == ["fake"])
        gate.open()
        let store = try await launch.value
        #expect(metaController.fakeableOrderStore === store)
        #expect(store.metaController === metaController)
    }

    @Test @MainActor func aSetUpThatFailsLeavesTheSlotEmpty() async throws {
        let metaController = MetaController()
        let log = FakeLogController()
        metaController.logController = log
        let screen = OrdersScreen()
        metaController.passMetaController(to: screen)
        await Task {
            do {
                metaController[OrderStoreKey.self] = try await Self.openThatFails()
            } catch {
                metaController.errorLog("the order store did not open: \(error)")
            }
        }.value
        #expect(screen.shown == "opening…")
        #expect(!metaController.contains(.custom(OrderStoreKey.self)))
        #expect(log.entries.map(\.message) == ["the order store did not open: OpenFailed()"])
    }

    private static func openThatFails() async throws -> OpenedOrderStore {
        await Task.yield()
        throw OpenFailed()
    }

    // The alternative for a product: registerShared with an async factory, started at launch,
    // awaited where it is needed.

    @Test @MainActor func aSharedAsyncProductStartedAtLaunchIsTheOneEveryConsumerAwaits() async throws {
        let metaController = MetaController()
        let gate = AsyncGate()
        let constructions = Lock(0)
        metaController.registerShared(OpenedOrderStore.self) { _ in
            constructions.withLock { $0 += 1 }
            return try await OpenedOrderStore.open(at: gate)
        }
        // Launch: start making it, do not wait.
        let launch = Task { try await metaController.product(OpenedOrderStore.self) }
        await gate.arrived()
        // Meanwhile a synchronous make cannot wait for it, and says what to call.
        #expect(throws: MetaControllerError.self) { _ = try metaController.make(OpenedOrderStore.self) }
        // A consumer that needs it awaits the same construction.
        let engine = Task.detached { try await metaController.product(OpenedOrderStore.self) }
        gate.open()
        let first = try await launch.value
        let second = try await engine.value
        #expect(first === second)
        #expect(constructions.withLock { $0 } == 1)
        #expect(first.metaController === metaController)
        // Once made, make returns it too.
        #expect(try metaController.make(OpenedOrderStore.self) === first)
    }
}
