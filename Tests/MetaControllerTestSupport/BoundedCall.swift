import Foundation
import MetaController

/// Runs a call that may block for ever (opening a FIFO) on a thread of its own, and waits for
/// it a bounded time, so that a test of such a call fails instead of hanging.
package enum BoundedCall {
    /// - Returns: What `body` returned, or `nil` when it had not returned within `seconds`;
    ///   then `release` runs to unblock it, and the thread is given as long again to end.
    package static func run<Value: Sendable>(
        within seconds: Int, release: () -> Void, _ body: @escaping @Sendable () -> Value
    ) -> Value? {
        let result = Inbox<Value>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.record(body())
            done.signal()
        }
        thread.start()
        if done.wait(timeout: .now() + .seconds(seconds)) == .timedOut {
            release()
            _ = done.wait(timeout: .now() + .seconds(seconds))
            return nil
        }
        return result.values.first
    }
}
