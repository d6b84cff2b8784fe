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
/// It wraps `os_unfair_lock` on Apple platforms and `pthread_mutex_t`
/// elsewhere rather than `Synchronization.Mutex`: `Mutex` needs iOS 18 and
/// macOS 15, and on Linux the thread sanitizer cannot see its futex and
/// reports false races, while it understands a pthread mutex.
///
/// The lock is not recursive: calling ``withLock(_:)`` from inside the body
/// on the same lock deadlocks. Callers copy what they need out of the lock and
/// call user code (observers, factories) after releasing it.
///
/// A `Lock` is a reference: copies share one mutex and one state. The state
/// and the mutex live in one allocation (``LockStorage``), since a lock is
/// made for every MetaController, bus and property.
///
/// This is the package's only `@unchecked Sendable` type. It is sound because
/// the state is touched only inside ``withLock(_:)``, between locking and
/// unlocking the mutex, and because `State` itself must be `Sendable`, so no
/// value read out of the lock can carry unsynchronised references with it.
/// (The storage cannot be `Sendable` itself: `ManagedBuffer` is marked not to be.)
package struct Lock<State: Sendable>: @unchecked Sendable {
    private let storage: LockStorage<State>

    /// Creates a lock guarding `initialState`.
    package init(_ initialState: State) {
        storage = LockStorage.make(initialState)
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}

/// The state of a ``Lock`` and its mutex, in one allocation: the state is the
/// buffer's header and the mutex its one element. Only ``Lock`` uses it.
///
/// The state is reached through the buffer's pointers, not a stored `var`: a
/// class's `var` is checked for exclusive access at run time on every access,
/// which the mutex already guarantees, and that check cost as much as the mutex.
final class LockStorage<State: Sendable>: ManagedBuffer<State, LockStorage.Primitive> {
    #if canImport(Darwin)
    typealias Primitive = os_unfair_lock
    #elseif canImport(WinSDK)
    typealias Primitive = SRWLOCK
    #else
    typealias Primitive = pthread_mutex_t
    #endif

    /// A storage holding `initialState`, with its mutex ready.
    static func make(_ initialState: State) -> LockStorage {
        // `create` makes an instance of the class it is called on.
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in initialState }, to: LockStorage.self)
        storage.withUnsafeMutablePointerToElements { primitive in
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
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { primitive in
            #if !canImport(Darwin) && !canImport(WinSDK)
            pthread_mutex_destroy(primitive)
            #endif
            primitive.deinitialize(count: 1)
        }
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, primitive in
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
}
