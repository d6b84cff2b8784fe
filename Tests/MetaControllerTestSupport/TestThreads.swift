package import Dispatch
import Foundation

/// Threads for the tests under load: a thread started for one body, and a wait
/// for a condition that yields the thread between checks.
package enum TestThreads {
    /// Waits up to `seconds` for `condition`, checking it between short yields of
    /// the thread (no fixed sleep decides the outcome). - Returns: Whether it held.
    package static func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            sched_yield()
        }
        return true
    }

    /// Waits up to `seconds` for `condition`, checking it between yields of the task.
    /// - Returns: Whether it held.
    package static func waitUntilAsync(seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            await Task.yield()
        }
        return true
    }

    /// Starts `body` on a thread of its own. - Returns: A semaphore signalled when it ends.
    package static func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done
    }
}
