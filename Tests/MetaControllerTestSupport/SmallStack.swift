import Foundation

/// Runs `body` on a new thread with a 512 KB stack (a secondary thread's size on
/// Apple platforms) and returns what it returns: deep input must not need more.
/// Parsers are tested there so that any recursion per token of input crashes the test.
package func onSmallStack<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 512 * 1024
        thread.start()
    }
}

/// ``onSmallStack(_:)`` for a body that throws: the error is thrown to the caller.
package func onSmallStack<Value: Sendable>(throwing body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await onSmallStack { Result { try body() } }.get()
}

/// Lets go of a deeply nested value a level at a time, outermost first:
/// releasing it at once would recurse once per level.
package func dismantle<Value>(_ root: inout Value?) {
    var pending: [Any] = root.map { [$0] } ?? []
    root = nil
    while let node = pending.popLast() {
        if let dictionary = node as? [AnyHashable: Any] {
            pending.append(contentsOf: dictionary.values)
        } else if let array = node as? [Any] {
            pending.append(contentsOf: array)
        }
    }
}

/// Runs `body` on a new thread with a stack of `bytes` and waits for it on this one.
package func onThread<Value: Sendable>(stackBytes bytes: Int, _ body: @escaping @Sendable () -> Value) -> Value {
    let result = Inbox<Value>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.record(body())
        done.signal()
    }
    thread.stackSize = bytes
    thread.start()
    done.wait()
    return result.values[0]
}
