import MetaControllerCore

/// A gate async code waits at until a test opens it, and that counts who arrived: the
/// seam that holds an async factory at its critical point while the test does the rest.
package final class AsyncGate: Sendable {
    private struct State: Sendable {
        var isOpen = false
        var arrived = 0
        var held: [CheckedContinuation<Void, Never>] = []
        var watchers: [(count: Int, done: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())

    package init() {}

    /// How many callers have arrived at the gate so far.
    package var arrivals: Int { state.withLock { $0.arrived } }

    /// Arrives, and waits until the gate is open.
    package func pass() async {
        let watchers = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.arrived += 1
            let count = state.arrived
            let ready = state.watchers.filter { $0.count <= count }.map(\.done)
            state.watchers.removeAll { $0.count <= count }
            return ready
        }
        for watcher in watchers { watcher.resume() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.held.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    /// Returns once `count` callers have arrived.
    package func arrived(_ count: Int = 1) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.arrived >= count { return true }
                state.watchers.append((count, done))
                return false
            }
            if now { done.resume() }
        }
    }

    /// Opens the gate: every caller held goes on, and later ones pass at once.
    package func open() {
        let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}
