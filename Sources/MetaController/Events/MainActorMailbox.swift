/// The values waiting for one main-actor handler, so that it receives them in
/// order, one call at a time, whichever thread they come from.
///
/// A value delivered on the main thread (the main actor's thread) is handed
/// to the handler at once, after any values still waiting. A value delivered
/// elsewhere waits here, and a task on the main actor hands over everything
/// waiting. A value delivered while the handler is being called (by the
/// handler itself, on the main thread) waits until that call returns: the
/// handler is never re-entered.
///
/// The mailbox holds values, not the subscriber: the subscriber object is
/// loaded (weakly) just before each call, so a pending hop keeps nothing alive.
final class MainActorMailbox<Value: Sendable>: Sendable {
    private struct State {
        var pending: [Value] = []
        /// The index of the next value to hand over in `pending`.
        var next = 0
        /// Whether a task is on its way to hand values over.
        var isScheduled = false
        /// Whether values are being handed over on the main actor now.
        var isDraining = false
    }

    private let state = Lock(State())

    /// Hands `value` to `call` at once, after the values already waiting,
    /// unless `call` is running already: then the running hand-over takes it.
    @MainActor
    func deliverNow(_ value: Value, call: @MainActor (Value) -> Void) {
        let drains = state.withLock { state in
            state.pending.append(value)
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        if drains { drain(call) }
    }

    /// Keeps `value` for a task on the main actor, which it starts unless one
    /// is on its way or a hand-over is under way.
    func post(_ value: Value, call: @escaping @MainActor @Sendable (Value) -> Void) {
        let schedules = state.withLock { state in
            state.pending.append(value)
            guard !state.isScheduled, !state.isDraining else { return false }
            state.isScheduled = true
            return true
        }
        guard schedules else { return }
        Task { @MainActor in
            let drains = self.state.withLock { state in
                state.isScheduled = false
                guard !state.isDraining, state.next < state.pending.count else { return false }
                state.isDraining = true
                return true
            }
            if drains { self.drain(call) }
        }
    }

    /// Hands over the waiting values one by one, in order, until none is left.
    @MainActor
    private func drain(_ call: @MainActor (Value) -> Void) {
        while let value = state.withLock({ state -> Value? in
            guard state.next < state.pending.count else {
                state.pending.removeAll(keepingCapacity: state.pending.count <= 64)
                state.next = 0
                state.isDraining = false
                return nil
            }
            defer { state.next += 1 }
            return state.pending[state.next]
        }) {
            call(value)
        }
    }
}
