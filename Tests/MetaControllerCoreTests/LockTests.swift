import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

struct LockTests {
    @Test func withLockGivesExclusiveAccess() async {
        let lock = Lock(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 { lock.withLock { $0 += 1 } }
                }
            }
        }
        #expect(lock.withLock { $0 } == 8_000)
    }

    @Test func withLockReturnsAndRethrows() {
        struct Failure: Error {}
        let lock = Lock("a")
        #expect(
            lock.withLock { state -> Int in
                state += "b"
                return state.count
            } == 2)
        #expect(throws: Failure.self) { try lock.withLock { _ in throw Failure() } }
        #expect(lock.withLock { $0 } == "ab")   // usable again after a throw
    }

    @Test func copiesOfALockShareOneState() {
        let lock = Lock(0)
        let copy = lock
        copy.withLock { $0 = 7 }
        #expect(lock.withLock { $0 } == 7)
    }
}
