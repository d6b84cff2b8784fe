#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension POSIXFile {
    /// Runs `body`, which writes to `descriptor`, so that a write to a pipe or socket whose reader is
    /// gone fails with `EPIPE` instead of ending the process with `SIGPIPE`, without changing how
    /// the process handles `SIGPIPE` (an app or a server may rely on the default, or have set its own).
    ///
    /// On Linux the kernel sends `SIGPIPE` to the thread that wrote: it is blocked on this thread for
    /// the time of `body` (`pthread_sigmask`), one that `body` raised is taken off the thread's pending
    /// signals (`sigtimedwait` with no wait), and the thread's mask is restored, as libpq does around
    /// its socket writes. One that was already pending before is left pending. On Darwin the signal
    /// is sent to the process, so a thread's mask does not stop it: the descriptor is marked
    /// `F_SETNOSIGPIPE`, which holds for its open file description, so a write by other code to a
    /// descriptor that shares it (standard error, say) also fails with `EPIPE` instead of the signal.
    package static func withoutBrokenPipeSignal<Result>(writingTo descriptor: Int32, _ body: () -> Result) -> Result {
        #if canImport(Darwin)
        _ = fcntl(descriptor, F_SETNOSIGPIPE, 1)
        return body()
        #else
        var brokenPipe = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &brokenPipe, &previous)
        let wasBlocked = sigismember(&previous, SIGPIPE) == 1
        var pending = sigset_t()
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        defer {
            sigpending(&pending)
            if !wasPending, sigismember(&pending, SIGPIPE) == 1 {
                var noWait = timespec(tv_sec: 0, tv_nsec: 0)
                while sigtimedwait(&brokenPipe, nil, &noWait) < 0, errno == EINTR {}
            }
            if !wasBlocked { pthread_sigmask(SIG_UNBLOCK, &brokenPipe, nil) }
        }
        return body()
        #endif
    }
}
