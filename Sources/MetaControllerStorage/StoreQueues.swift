import Dispatch

/// The Dispatch queues on which a store's `async` operations do their blocking
/// work, so that a task awaiting them leaves its thread of Swift's cooperative
/// pool free for other tasks (the pool has as many threads as the machine has
/// cores: on two cores, two saves blocked in `fsync` would stall every task).
///
/// Writes (saves and destroys) go to one of a few serial lanes chosen by the
/// key, so the writes of one key run one at a time, in the order they were
/// called, and writes of different keys can overlap. Reads (fetches and key
/// lists) go to a concurrent queue and never wait behind a write.
struct StoreQueues: Sendable {
    private let lanes: [DispatchQueue]
    private let reads: DispatchQueue

    /// Marks every queue of every store, so a test can tell where work runs.
    static let marker = DispatchSpecificKey<Bool>()

    init(label: String, lanes count: Int = 4) {
        lanes = (0..<count).map { DispatchQueue(label: "\(label).writes.\($0)") }
        reads = DispatchQueue(label: "\(label).reads", attributes: .concurrent)
        for queue in lanes + [reads] {
            queue.setSpecific(key: Self.marker, value: true)
        }
    }

    /// Whether the calling code runs on one of these queues (of any store).
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) ?? false }

    /// Runs `work` on the write lane of `key` (a key in normalization form C) and returns what it returns or throws.
    ///
    /// - Parameter queued: Called right after the work is queued, on the caller (a test's seam).
    nonisolated(nonsending) func write<Value: Sendable>(
        _ key: String, queued: (@Sendable (String) -> Void)? = nil, _ work: @escaping @Sendable () throws(DataStoreError) -> Value
    ) async throws(DataStoreError) -> Value {
        try await run(on: lanes[Int(UInt(bitPattern: key.hashValue) % UInt(lanes.count))], queued: { queued?(key) }, work)
    }

    /// Runs `work` on the read queue and returns what it returns or throws.
    nonisolated(nonsending) func read<Value: Sendable>(
        _ work: @escaping @Sendable () throws(DataStoreError) -> Value
    ) async throws(DataStoreError) -> Value {
        try await run(on: reads, queued: {}, work)
    }

    // `nonisolated(nonsending)`: this runs on the caller's actor, as do the store's async
    // methods that call it, so the work is queued before the call first suspends, while
    // the caller still holds its actor: calls made one after another on an actor (tasks
    // started in a row on the main actor, say) reach the lane in the order they were made.
    // A plain `nonisolated async` function would first leave the caller's actor, and calls
    // would race each other to the lane. Cancellation does not stop the work: a save that
    // was called is carried out, and the caller gets its result.
    private nonisolated(nonsending) func run<Value: Sendable>(
        on queue: DispatchQueue, queued: () -> Void, _ work: @escaping @Sendable () throws(DataStoreError) -> Value
    ) async throws(DataStoreError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, DataStoreError>, Never>) in
            queue.async { continuation.resume(returning: Result { () throws(DataStoreError) -> Value in try work() }) }
            queued()
        }
        return try result.get()
    }
}
