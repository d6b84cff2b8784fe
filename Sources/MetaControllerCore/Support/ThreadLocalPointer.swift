#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(WinSDK)
import WinSDK
#else
#error("ThreadLocalPointer: unsupported platform; add its thread-local storage here.")
#endif

/// A pointer with a value of its own on each thread, `nil` until set there.
///
/// For state that lives exactly as long as some synchronous code on one thread,
/// such as the chain of factories being run: a task-local value would do the
/// same, but costs an allocation and a lookup per use.
struct ThreadLocalPointer: Sendable {
    #if canImport(WinSDK)
    private let key: DWORD
    #else
    private let key: pthread_key_t
    #endif

    /// Creates a slot. Slots are few on every system (128 at least): make each
    /// once, in a `static let`, and keep it.
    init() {
        #if canImport(WinSDK)
        key = TlsAlloc()
        precondition(key != TLS_OUT_OF_INDEXES, "ThreadLocalPointer: no thread-local slot left")
        #else
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "ThreadLocalPointer: no thread-local slot left (\(status))")
        self.key = key
        #endif
    }

    /// The current thread's pointer.
    var value: UnsafeRawPointer? {
        get {
            #if canImport(WinSDK)
            TlsGetValue(key).map { UnsafeRawPointer($0) }
            #else
            pthread_getspecific(key).map { UnsafeRawPointer($0) }
            #endif
        }
        nonmutating set {
            #if canImport(WinSDK)
            TlsSetValue(key, newValue.map { UnsafeMutableRawPointer(mutating: $0) })
            #else
            pthread_setspecific(key, newValue)
            #endif
        }
    }
}
