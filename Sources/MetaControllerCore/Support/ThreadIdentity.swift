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
#error("ThreadIdentity: unsupported platform; add its current-thread identifier here.")
#endif

/// The identity of the thread running now, as a number that no other thread
/// alive at the same time has.
///
/// For a property's delivery queue, which must tell a set made by the thread
/// that is delivering (from inside a handler) from a set made by another
/// thread. Reading it costs about as much as reading a thread-local variable.
enum ThreadIdentity {
    /// The current thread's identity.
    @inline(__always)
    static var current: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #elseif canImport(WinSDK)
        UInt(GetCurrentThreadId())
        #else
        UInt(pthread_self())
        #endif
    }
}
