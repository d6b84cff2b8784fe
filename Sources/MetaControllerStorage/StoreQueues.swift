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
    func write<Value: Sendable>(
        _ key: String, _ work: @escaping @Sendable () throws(DataStoreError) -> Value
    ) async throws(DataStoreError) -> Value {
        try await run(on: lanes[Int(UInt(bitPattern: key.hashValue) % UInt(lanes.count))], work)
    }

    /// Runs `work` on the read queue and returns what it returns or throws.
    func read<Value: Sendable>(_ work: @escaping @Sendable () throws(DataStoreError) -> Value) async throws(DataStoreError) -> Value {
        try await run(on: reads, work)
    }

    // The work is enqueued before the first suspension, so calls reach the lane
    // in the order they were made. Cancellation does not stop it: a save that
    // was called is carried out, and the caller gets its result.
    private func run<Value: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws(DataStoreError) -> Value
    ) async throws(DataStoreError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, DataStoreError>, Never>) in
            queue.async { continuation.resume(returning: Result { () throws(DataStoreError) -> Value in try work() }) }
        }
        return try result.get()
    }
}
