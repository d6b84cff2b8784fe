import Dispatch
import Foundation
import MetaController
@testable import MetaControllerStorage
import Testing
import MetaControllerTestSupport
import MetaControllerTesting

/// DataController.md, "Order": "Async saves and destroys of one key run one at a time, in the
/// order they were called (the work is queued before the call first suspends)", for callers on
/// the main actor, on another actor and on none, with many tasks started in a row (issue 37).
///
/// Each call is made as the docs make it, through the MetaController's `dataController` and the
/// Codable helpers. The store's `queued` seam records, at the moment a call queues its work,
/// which call the caller was making and where it ran: on the caller's actor, before the call
/// suspends, the calls queue in the order they were made, every run, on a busy machine or not.
extension FileDataControllerTests {
    /// A draft the tests save; its number says which call saved it.
    struct Draft: Codable, Equatable {
        let number: Int
    }

    /// One call of a row: a save of draft `number`, or a destroy.
    enum Change: Equatable {
        case save(Int)
        case destroy
    }

    /// A row of `count` saves and destroys of one key, from a seeded generator: more saves than destroys.
    static func row(_ count: Int, seed: UInt64) -> [Change] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { number in generator.next() % 3 == 0 ? .destroy : .save(number) }
    }

    /// What a store holds after `row`, and the changes its bus carries, worked out without a store.
    static func outcome(of row: [Change]) -> (value: Draft?, changes: [DataChange.Kind]) {
        var value: Draft?
        var changes: [DataChange.Kind] = []
        for change in row {
            switch change {
            case .save(let number):
                value = Draft(number: number)
                changes.append(.saved)
            case .destroy:
                if value != nil { changes.append(.destroyed) }
                value = nil
            }
        }
        return (value, changes)
    }

    /// Where each call queued its work: which call the caller was making then, and whether
    /// that was on the caller's actor.
    final class QueueLog: Sendable {
        /// The number of the call being made now, set by the caller just before it calls.
        let calling = Lock(-1)
        let entries = Lock<[(call: Int, onCaller: Bool)]>([])

        func seams(onCaller: @escaping @Sendable () -> Bool) -> StoreSeams {
            StoreSeams(queued: { [self] _ in
                let call = calling.withLock { $0 }
                entries.withLock { $0.append((call, onCaller())) }
            })
        }

        var calls: [Int] { entries.withLock { $0.map(\.call) } }
        var offCaller: Int { entries.withLock { $0.filter { !$0.onCaller }.count } }
    }

    private static func orderDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("store-order-\(UUID().uuidString)")
    }

    /// Sixty tasks started in a row on the main actor, five rounds: each call queues its work on
    /// the main actor before it suspends, the calls queue in the order the tasks started, and the
    /// entry ends as the last call left it, with the bus carrying every change in that order.
    @Test @MainActor func asyncChangesStartedInARowOnTheMainActorRunInCallOrder() async throws {
        for round in 0..<5 {
            let directory = Self.orderDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let log = QueueLog()
            let store = try FileDataController(
                directory: directory, maximumEntryBytes: 1 << 20, seams: log.seams(onCaller: { MainQueue.isCurrent }))
            let metaController = MetaController()
            metaController.dataController = store
            let changes = metaController.signals.record(DataChange.signal)
            let row = Self.row(60, seed: UInt64(round))
            var tasks: [Task<Void, any Error>] = []
            for (number, change) in row.enumerated() {
                tasks.append(
                    Task {
                        log.calling.withLock { $0 = number }
                        switch change {
                        case .save(let draft): try await metaController.dataController?.save(Draft(number: draft), forKey: "draft")
                        case .destroy: try await metaController.dataController?.destroy("draft")
                        }
                    })
            }
            for task in tasks { try await task.value }
            #expect(log.offCaller == 0, "round \(round): \(log.offCaller) calls queued their work off the main actor")
            #expect(log.calls == Array(0..<60), "round \(round): queued out of call order")
            let expected = Self.outcome(of: row)
            #expect(try await store.fetch(Draft.self, forKey: "draft") == expected.value, "round \(round)")
            #expect(changes.values.map(\.kind) == expected.changes, "round \(round)")
        }
    }

    /// The same from another actor: tasks started in a row in one of its methods queue their
    /// work on that actor, in the order they started. The actor runs on a Dispatch queue of the
    /// test's, so the seam can tell whether a call queued its work there.
    @Test func asyncChangesStartedInARowOnAnActorRunInCallOrder() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) else { return }
        for round in 0..<5 {
            let directory = Self.orderDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let log = QueueLog()
            let store = try FileDataController(
                directory: directory, maximumEntryBytes: 1 << 20,
                seams: log.seams(onCaller: { DispatchQueue.getSpecific(key: QueueExecutor.marker) == true }))
            let editor = DraftEditor(store: store, log: log)
            let row = Self.row(60, seed: 100 + UInt64(round))
            for task in await editor.start(row) { try await task.value }
            #expect(log.offCaller == 0, "round \(round): \(log.offCaller) calls queued their work off the actor")
            #expect(log.calls == Array(0..<60), "round \(round): queued out of call order")
            #expect(try await store.fetch(Draft.self, forKey: "draft") == Self.outcome(of: row).value, "round \(round)")
        }
    }

    /// On no actor, calls are ordered as their tasks are: tasks started with `Task.immediate`
    /// in a row from synchronous code each queue their work before the next one starts.
    @Test func asyncChangesStartedImmediatelyInARowOnNoActorRunInCallOrder() async throws {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        for round in 0..<5 {
            let directory = Self.orderDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let log = QueueLog()
            let store = try FileDataController(directory: directory, maximumEntryBytes: 1 << 20, seams: log.seams(onCaller: { true }))
            let row = Self.row(60, seed: 200 + UInt64(round))
            let tasks = Self.startImmediately(row, on: store, log: log)
            for task in tasks { try await task.value }
            #expect(log.calls == Array(0..<60), "round \(round): queued out of call order")
            #expect(try await store.fetch(Draft.self, forKey: "draft") == Self.outcome(of: row).value, "round \(round)")
        }
    }

    /// Starts one `Task.immediate` per change, from synchronous code on no actor.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    nonisolated static func startImmediately(_ row: [Change], on store: FileDataController, log: QueueLog) -> [Task<Void, any Error>] {
        row.enumerated().map { number, change in
            Task.immediate {
                log.calling.withLock { $0 = number }
                switch change {
                case .save(let draft): try await store.save(Draft(number: draft), forKey: "draft")
                case .destroy: try await store.destroy("draft")
                }
            }
        }
    }
}

/// Whether code runs on the main queue, which the main actor runs its work on (drained by the
/// main thread in an app, by a pool thread in a test runner that parked its main thread).
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true }
}

/// A serial executor over a Dispatch queue the test can recognize (`ExecutorJob`: macOS 14 and its peers).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class QueueExecutor: SerialExecutor {
    static let marker = DispatchSpecificKey<Bool>()
    private let queue = DispatchQueue(label: "FileDataControllerOrderTests.actor")

    init() { queue.setSpecific(key: Self.marker, value: true) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// An actor that saves and destroys drafts, as a server's session or an app's editor would.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
actor DraftEditor {
    private let executor = QueueExecutor()
    private let store: FileDataController
    private let log: FileDataControllerTests.QueueLog
    private var started = 0

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(store: FileDataController, log: FileDataControllerTests.QueueLog) {
        self.store = store
        self.log = log
    }

    /// Starts one task per change, in a row; each runs on this actor (it reads `started`).
    func start(_ row: [FileDataControllerTests.Change]) -> [Task<Void, any Error>] {
        row.enumerated().map { number, change in
            Task {
                started += 1
                log.calling.withLock { $0 = number }
                switch change {
                case .save(let draft): try await store.save(FileDataControllerTests.Draft(number: draft), forKey: "draft")
                case .destroy: try await store.destroy("draft")
                }
            }
        }
    }
}
