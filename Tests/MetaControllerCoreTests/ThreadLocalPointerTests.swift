import Foundation
import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

struct ThreadLocalPointerTests {
    private static let pointer = ThreadLocalPointer()

    @Test func eachThreadHasItsOwnValueNilUntilSetThere() {
        let mine = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        let theirs = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        defer {
            mine.deallocate()
            theirs.deallocate()
        }
        // Addresses cross threads as numbers (pointers are not `Sendable`).
        let (mineAddress, theirsAddress) = (UInt(bitPattern: mine), UInt(bitPattern: theirs))
        let current: @Sendable () -> UInt? = { Self.pointer.value.map { UInt(bitPattern: $0) } }
        // Two new threads, so neither has set the pointer before; the semaphores order their steps.
        let seen = Lock<[UInt?]>([])
        let otherStarted = DispatchSemaphore(value: 0)
        let ownSet = DispatchSemaphore(value: 0)
        let otherDone = DispatchSemaphore(value: 0)
        let ownDone = DispatchSemaphore(value: 0)
        Thread {
            seen.withLock { $0.append(current()) }   // nil: never set on this thread
            otherStarted.signal()
            ownSet.wait()
            seen.withLock { $0.append(current()) }   // still nil: set on the other thread only
            Self.pointer.value = UnsafeRawPointer(bitPattern: theirsAddress)
            seen.withLock { $0.append(current()) }
            otherDone.signal()
        }.start()
        Thread {
            otherStarted.wait()
            Self.pointer.value = UnsafeRawPointer(bitPattern: mineAddress)
            ownSet.signal()
            otherDone.wait()
            seen.withLock { $0.append(current()) }   // still its own after the other set one
            Self.pointer.value = nil
            seen.withLock { $0.append(current()) }
            ownDone.signal()
        }.start()
        ownDone.wait()
        #expect(seen.withLock { $0 } == [nil, nil, theirsAddress, mineAddress, nil])
    }
}
