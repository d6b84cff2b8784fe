/// The payloads a recording bus keeps, so that a listener a key's test or preview value adds
/// hears what was dispatched before the value was made (see ``Signals/init(recordingUpTo:reportingMissed:seams:)``).
///
/// A ring of the last ``limit`` dispatches, of every signal, in dispatch order: a test that
/// dispatches without end keeps that many and no more. What falls out of it is counted per
/// signal, so that a listener that catches up can be told what it missed.
struct DispatchRecord: Sendable {
    /// One dispatch: its signal's number, its place in dispatch order, and its payload.
    struct Dispatch: Sendable {
        let number: Int
        let sequence: UInt64
        let payload: any Sendable
    }

    /// The most dispatches kept; the oldest go first.
    let limit: Int
    /// The dispatches kept; once full, a ring whose oldest is at ``oldest``.
    private var dispatches: [Dispatch] = []
    private var oldest = 0
    private var nextSequence: UInt64 = 1
    /// How many dispatches of each signal fell out of the ring.
    private var dropped: [Int: Int] = [:]
    /// The entries catching up now, which are not listeners yet, by id: their signal, their
    /// listener object, and whether a `remove` or `removeSignal` removed them meanwhile.
    private var catchingUp: [UInt64: (number: Int, object: ObjectIdentifier?, removed: Bool)] = [:]

    init(limit: Int) {
        precondition(limit > 0, "DispatchRecord: the limit must be at least 1")
        self.limit = limit
    }

    /// The number of dispatches kept now.
    var count: Int { dispatches.count }

    /// Keeps `payload` of signal `number`, letting go of the oldest dispatch when the ring is full.
    mutating func append(_ payload: any Sendable, of number: Int) {
        let dispatch = Dispatch(number: number, sequence: nextSequence, payload: payload)
        nextSequence += 1
        if dispatches.count < limit {
            dispatches.append(dispatch)
        } else {
            dropped[dispatches[oldest].number, default: 0] += 1
            dispatches[oldest] = dispatch
            oldest = oldest + 1 == limit ? 0 : oldest + 1
        }
    }

    /// The payloads of signal `number` kept with a sequence past `sequence`, oldest first, and the
    /// sequence of the last dispatch made (of any signal), to ask from next time.
    func payloads<Payload>(of number: Int, as type: Payload.Type, after sequence: UInt64) -> (payloads: [Payload], through: UInt64) {
        var found: [Payload] = []
        for index in dispatches.indices {
            let dispatch = dispatches[(oldest + index) % dispatches.count]
            guard dispatch.number == number, dispatch.sequence > sequence else { continue }
            // The number stands for the payload type (see `Signals.State.channels`).
            if let payload = dispatch.payload as? Payload { found.append(payload) }
        }
        return (found, nextSequence - 1)
    }

    /// Notes that entry `id` of signal `number` catches up, until ``stopCatchingUp(_:)``.
    mutating func startCatchingUp(_ id: UInt64, of number: Int, object: ObjectIdentifier?) {
        catchingUp[id] = (number, object, false)
    }

    mutating func stopCatchingUp(_ id: UInt64) {
        catchingUp[id] = nil
    }

    /// Whether entry `id` was removed while it caught up.
    func wasRemoved(_ id: UInt64) -> Bool { catchingUp[id]?.removed ?? false }

    /// Marks removed the entries of signal `number` catching up now (of `object` only, when
    /// given). - Returns: Whether there was one.
    mutating func removeCatchingUp(of number: Int, object: ObjectIdentifier?) -> Bool {
        var found = false
        for (id, entry) in catchingUp where entry.number == number && (object == nil || entry.object == object) {
            catchingUp[id]?.removed = true
            found = true
        }
        return found
    }

    /// How many dispatches of signal `number` fell out of the ring.
    func droppedCount(of number: Int) -> Int { dropped[number] ?? 0 }

    /// Forgets every dispatch of signal `number` (``Signals/removeSignal(_:)``).
    mutating func forget(_ number: Int) {
        _ = removeCatchingUp(of: number, object: nil)
        guard !dispatches.isEmpty else {
            dropped[number] = nil
            return
        }
        let ordered = dispatches.indices.map { dispatches[(oldest + $0) % dispatches.count] }
        dispatches = ordered.filter { $0.number != number }
        oldest = 0
        dropped[number] = nil
    }
}

extension Signals {
    /// How many dispatches, of all signals together, the bus of a test or preview
    /// MetaController keeps for the listeners of declared values to catch up with.
    package static let recordedDispatchLimit = 10_000

    /// Points where a test holds one side of a race with a catching-up listener (see `SignalsCatchUpTests`).
    struct CatchUpSeams: Sendable {
        /// Called by a listener that catches up, after it took the recorded payloads it hears and
        /// before it hears them; it is not a listener yet, so a dispatch made meanwhile is not delivered to it.
        var took: @Sendable () -> Void = {}
        /// Called by ``MetaController/declaredValue(_:)`` after it made a key's value and before it
        /// stores it: where two threads reading the same empty slot race.
        var made: @Sendable () -> Void = {}
    }

    /// What a recording bus is told and does beside recording.
    struct Recording: Sendable {
        /// Told the signal's name, the listener's type name (`nil` for a token) and how many of the
        /// signal's payloads fell out of the record before the listener caught up.
        let reportMissed: (@Sendable (_ signal: String, _ listener: String?, _ missed: Int) -> Void)?
        let seams: CatchUpSeams
    }

    /// The bus whose listeners catch up on this thread now: set while a key's declared value is
    /// handed its MetaController (``catchingUp(_:)``).
    static let catchingUpBus = ThreadLocalPointer()

    /// Runs `body` (the push of a key's declared value) so that a listener it adds on this bus,
    /// on this thread, first hears what was dispatched before. On a bus that does not record, `body` alone.
    func catchingUp(_ body: () -> Void) {
        guard records else { return body() }
        let saved = Self.catchingUpBus.value
        Self.catchingUpBus.value = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        defer { Self.catchingUpBus.value = saved }
        body()
    }

    /// Whether a listener added now, on this thread, catches up (``catchingUp(_:)``).
    var catchesUpHere: Bool {
        records && Self.catchingUpBus.value == UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }
}
