import Foundation

/// Runs `body` on a new thread with a 512 KB stack, the size of a background
/// thread's on Apple platforms, and returns what it returned or threw. Parsers
/// are tested there so that any recursion per token of input crashes the test.
func onSmallStack<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 512 * 1024
        thread.start()
    }
}
