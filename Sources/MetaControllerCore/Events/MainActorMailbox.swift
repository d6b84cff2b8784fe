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
/// A hand-over takes only the values that were waiting when it began (and
/// those the handler itself adds meanwhile): values other threads add during
/// it are left for a new task. So a set on the main thread is never held by a
/// background thread that goes on setting, and the main actor gets a turn
/// between batches.
///
/// The mailbox holds values, not the subscriber: the subscriber object is
/// loaded (weakly) just before each call, so a pending hop keeps nothing alive.
final class MainActorMailbox<Value: Sendable>: Sendable {
    private struct State {
        var pending = FIFOQueue<Value>()
        /// How many of the first values in `pending` the hand-over under way
        /// takes; the rest are left for a task.
        var batch = 0
        /// Whether a task is on its way to hand values over.
        var isScheduled = false
        /// Whether values are being handed over on the main actor now.
        var isDraining = false
    }

    private let state = Lock(State())

    /// Hands `value` to `call` at once, after the values already waiting,
    /// unless `call` is running already: then the running hand-over takes it.
    @MainActor
    func deliverNow(_ value: Value, call: @escaping @MainActor @Sendable (Value) -> Void) {
        let drains = state.withLock { state in
            state.pending.append(value)
            // From the handler itself (a hand-over is under way on this, the
            // main, thread): the running hand-over goes on to this value.
            state.batch = state.pending.count
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        if drains { drain(call) }
    }

    /// Keeps `value` for a task on the main actor, which it starts unless one
    /// is on its way or a hand-over is under way (that one starts it if needed).
    func post(_ value: Value, call: @escaping @MainActor @Sendable (Value) -> Void) {
        let schedules = state.withLock { state in
            state.pending.append(value)
            guard !state.isScheduled, !state.isDraining else { return false }
            state.isScheduled = true
            return true
        }
        if schedules { schedule(call) }
    }

    /// Starts a task on the main actor that hands over the values waiting when it runs.
    private func schedule(_ call: @escaping @MainActor @Sendable (Value) -> Void) {
        Task { @MainActor in
            let drains = self.state.withLock { state in
                state.isScheduled = false
                guard !state.isDraining, !state.pending.isEmpty else { return false }
                state.isDraining = true
                state.batch = state.pending.count
                return true
            }
            if drains { self.drain(call) }
        }
    }

    /// Hands over the waiting values one by one, in order, up to `batch`; what
    /// other threads added meanwhile is left for a new task.
    @MainActor
    private func drain(_ call: @escaping @MainActor @Sendable (Value) -> Void) {
        var schedules = false
        while let value = state.withLock({ state -> Value? in
            guard state.batch > 0 else {
                state.isDraining = false
                if !state.pending.isEmpty, !state.isScheduled {
                    state.isScheduled = true
                    schedules = true
                }
                return nil
            }
            state.batch -= 1
            return state.pending.removeFirst()
        }) {
            call(value)
        }
        if schedules { schedule(call) }
    }
}
