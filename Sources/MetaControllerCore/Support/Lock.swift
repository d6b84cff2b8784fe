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
/// ``withLock(_:)`` is inlinable, so that a slot's read, which is inlined into the
/// app's code (the value is generic), is specialized there with the lock around it;
/// taking and releasing the mutex stay calls into this module. The lock is the
/// core's, with `package` access: every other module depends on the core and
/// uses it, and a lock in another module could not be inlined into the app.
///
/// This is the package's only `@unchecked Sendable` type. It is sound because
/// the state is touched only inside ``withLock(_:)``, between locking and
/// unlocking the mutex, and because `State` itself must be `Sendable`, so no
/// value read out of the lock can carry unsynchronised references with it.
/// (The storage cannot be `Sendable` itself: `ManagedBuffer` is marked not to be.)
@usableFromInline
package struct Lock<State: Sendable>: @unchecked Sendable {
    @usableFromInline let storage: LockStorage<State>

    /// Creates a lock guarding `initialState`.
    package init(_ initialState: State) {
        storage = LockStorage.make(initialState)
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    ///
    @inlinable
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
@usableFromInline
final class LockStorage<State: Sendable>: ManagedBuffer<State, UInt64> {
    #if canImport(Darwin)
    typealias Primitive = os_unfair_lock
    #elseif canImport(WinSDK)
    typealias Primitive = SRWLOCK
    #else
    typealias Primitive = pthread_mutex_t
    #endif

    /// The mutex, in the buffer's elements: 64-bit words, enough of them to hold it. The
    /// elements' type is not the mutex's own, which belongs to the system's module: a type
    /// that inlinable code reaches may not name it.
    static var words: Int { (MemoryLayout<Primitive>.size + 7) / 8 }

    /// Runs `body` with the mutex.
    @inline(__always)
    func withPrimitive<Result>(_ body: (UnsafeMutablePointer<Primitive>) -> Result) -> Result {
        withUnsafeMutablePointerToElements { words in
            UnsafeMutableRawPointer(words).withMemoryRebound(to: Primitive.self, capacity: 1, body)
        }
    }

    /// A storage holding `initialState`, with its mutex ready.
    static func make(_ initialState: State) -> LockStorage {
        // `create` makes an instance of the class it is called on.
        let storage = unsafeDowncast(create(minimumCapacity: words) { _ in initialState }, to: LockStorage.self)
        storage.withPrimitive { primitive in
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
        withPrimitive { primitive in
            #if !canImport(Darwin) && !canImport(WinSDK)
            pthread_mutex_destroy(primitive)
            #endif
            // Discarded, so the closure returns nothing on every platform: on Apple's, where this is
            // its only statement, it would otherwise return the pointer, unused.
            _ = primitive.deinitialize(count: 1)
        }
    }

    /// Runs `body` with exclusive access to the state (see ``Lock/withLock(_:)``).
    @inlinable
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try withUnsafeMutablePointerToHeader { try body(&$0.pointee) }
    }

    /// Takes the mutex. Not inlinable: the system's lock functions stay out of other modules' code.
    @usableFromInline @inline(__always)
    func lock() {
        withPrimitive { primitive in
            #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
            #elseif canImport(WinSDK)
            AcquireSRWLockExclusive(primitive)
            #else
            _ = pthread_mutex_lock(primitive)
            #endif
        }
    }

    /// Releases the mutex.
    @usableFromInline @inline(__always)
    func unlock() {
        withPrimitive { primitive in
            #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
            #elseif canImport(WinSDK)
            ReleaseSRWLockExclusive(primitive)
            #else
            _ = pthread_mutex_unlock(primitive)
            #endif
        }
    }
}
