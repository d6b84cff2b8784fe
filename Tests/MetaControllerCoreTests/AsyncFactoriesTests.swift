import Foundation
import Testing

import MetaController
@testable import MetaControllerCore
import MetaControllerTestSupport

/// A product that takes time to make, numbered by its construction.
private final class Slow: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// Counts constructions across tasks.
private final class Counter: Sendable {
    private let count = Lock(0)
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
    var value: Int { count.withLock { $0 } }
}

private struct Failed: Error, Equatable { let number: Int }

@MainActor private final class MainScreen: Sendable {
    let onMain: Bool
    init() { onMain = MainActorContext.isCurrent(nil) }
}

@Suite("Async factories")
struct AsyncFactoriesTests {
    @Test func aPerRequestAsyncFactoryMakesANewProductEachTime() async throws {
        let metaController = MetaController()
        let counter = Counter()
        metaController.register(Slow.self) { _ in
            await Task.yield()
            return Slow(counter.next())
        }
        let first = try await metaController.product(Slow.self)
        let second = try await metaController.product(Slow.self)
        #expect(first.number == 1 && second.number == 2)
    }

    @Test func aSharedAsyncProductIsMadeOnceByOneConstructionForEveryTaskAskingAtOnce() async throws {
        let metaController = MetaController()
        let counter = Counter()
        let gate = AsyncGate()
        metaController.registerShared(Slow.self) { _ in
            await gate.pass()
            return Slow(counter.next())
        }
        let key = FactoryKey(Slow.self)
        let products = await withTaskGroup(of: Slow?.self) { group in
            for _ in 0..<1_000 { group.addTask { try? await metaController.product(Slow.self) } }
            await gate.arrived()
            await metaController.asyncConstruction(key)?.waitUntil(waiting: 1_000)
            gate.open()
            return await group.reduce(into: [Slow?]()) { $0.append($1) }
        }
        #expect(counter.value == 1)
        #expect(products.count == 1_000)
        #expect(Set(products.map { $0.map(ObjectIdentifier.init) }).count == 1)
        #expect(products.allSatisfy { $0?.number == 1 })
        #expect(gate.arrivals == 1)
    }

    @Test func aSynchronousMakeOfAnAsyncFactoryThrowsAsyncFactoryNamingWhatToCall() throws {
        let metaController = MetaController()
        metaController.register(Slow.self, name: "b", argument: Int.self) { _, n async in Slow(n) }
        metaController.registerShared(Slow.self) { _ in await Task.yield(); return Slow(0) }
        #expect {
            _ = try metaController.make(Slow.self)
        } throws: { error in
            let error = error as? MetaControllerError
            return error?.code == .asyncFactory
                && error?.description == "the factory of Slow is async and make cannot wait for it; request it with try await product(_:name:)"
        }
        #expect {
            _ = try metaController.make(Slow.self, name: "b", argument: 1)
        } throws: { error in
            (error as? MetaControllerError)?.description
                == "the factory of Slow named \"b\" from Int is async and make cannot wait for it; request it with try await product(_:name:argument:)"
        }
    }

    @Test func aMainActorFactoryAskedFromABackgroundTaskIsMadeOnTheMainActor() async throws {
        let metaController = MetaController()
        metaController.register(MainScreen.self) { @MainActor _ in MainScreen() }
        let screen = try await Task.detached { try await metaController.product(MainScreen.self) }.value
        #expect(screen.onMain)
        #expect(throws: MetaControllerError.self) {
            _ = try metaController.make(MainScreen.self, isolation: nil)
        }
    }
}
