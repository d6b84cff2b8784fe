#if canImport(Darwin)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(WinSDK)
import WinSDK
#else
#error("Lock: unsupported platform; add its mutex here.")
#endif

/// Mutable state guarded by an operating-system mutex.
///
/// This is the package's only `@unchecked Sendable` type. It is sound because
/// `state` is touched only inside ``withLock(_:)``, between locking and
/// unlocking the mutex, and because `State` itself must be `Sendable`, so no
/// value read out of the lock can carry unsynchronised references with it.
///
/// It wraps `os_unfair_lock` on Apple platforms and `pthread_mutex_t`
/// elsewhere rather than `Synchronization.Mutex`: `Mutex` needs iOS 18 and
/// macOS 15, and on Linux the thread sanitizer cannot see its futex and
/// reports false races, while it understands a pthread mutex.
///
/// The lock is not recursive: calling ``withLock(_:)`` from inside the body
/// on the same lock deadlocks. Callers copy what they need out of the lock and
/// call user code (observers, factories) after releasing it.
package final class Lock<State: Sendable>: @unchecked Sendable {
    #if canImport(Darwin)
    private typealias Primitive = os_unfair_lock
    #elseif canImport(WinSDK)
    private typealias Primitive = SRWLOCK
    #else
    private typealias Primitive = pthread_mutex_t
    #endif

    private let primitive: UnsafeMutablePointer<Primitive>
    // Behind a pointer rather than in a stored `var`: a class's `var` is
    // checked for exclusive access at run time on every access, which the
    // mutex already guarantees, and that check cost as much as the mutex.
    private let state: UnsafeMutablePointer<State>

    /// Creates a lock guarding `initialState`.
    package init(_ initialState: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initialState)
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
        #elseif canImport(WinSDK)
        InitializeSRWLock(primitive)
        #else
        primitive.initialize(to: pthread_mutex_t())
        // Default attributes: a normal, non-recursive mutex. It cannot fail
        // with default attributes other than for lack of memory.
        pthread_mutex_init(primitive, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin) && !canImport(WinSDK)
        pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        defer { os_unfair_lock_unlock(primitive) }
        #elseif canImport(WinSDK)
        AcquireSRWLockExclusive(primitive)
        defer { ReleaseSRWLockExclusive(primitive) }
        #else
        pthread_mutex_lock(primitive)
        defer { pthread_mutex_unlock(primitive) }
        #endif
        return try body(&state.pointee)
    }
}
