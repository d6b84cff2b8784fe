import Benchmark
import Foundation
import MetaController

/// Reads of a FileDataController on Swift's cooperative pool while two tasks
/// save without pause, as a server's GET requests while other requests POST.
///
/// One iteration is one "request": a new task that fetches a small Codable
/// value, awaited. Three runs: no saves (the baseline), two tasks calling the
/// synchronous `save` (each blocks a thread of the pool, fsync included, and
/// the pool has as many threads as there are cores), and two tasks calling the
/// async `save` (the blocking work runs on the store's queues). Benchmarks/run
/// reports the median (p50) and the 99th percentile of the read.
enum DataUnderLoadBenchmarks {
    struct Note: Codable {
        var title = "Groceries"
        var body = "Milk, eggs, bread"
        var tags = ["home", "errands"]
    }

    /// The saving tasks of one benchmark, started by its setup and cancelled by its teardown.
    actor Savers {
        private var tasks: [Task<Void, Never>] = []

        func start(_ count: Int, _ save: @escaping @Sendable (_ key: String) async -> Void) {
            tasks = (0..<count).map { number in
                Task {
                    // Like a handler between requests, each saver lets other tasks run
                    // after each save: a loop that never suspends would hold its thread for good.
                    while !Task.isCancelled {
                        await save("saver-\(number)")
                        await Task.yield()
                    }
                }
            }
        }

        func stop() async {
            for task in tasks { task.cancel() }
            for task in tasks { await task.value }
            tasks = []
        }
    }

    static func register() {
        let note = Note()
        // Each benchmark has its own store, removed by its teardown.
        func register(_ name: String, saving save: (@Sendable (_ store: FileDataController, _ key: String) async -> Void)?) {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
            let store = try! FileDataController(directory: root)
            try! store.save(note, forKey: "note")
            let savers = Savers()
            let configuration = Workload.single(
                maxDuration: .seconds(2), maxIterations: 2_000,
                setup: { if let save { await savers.start(2) { key in await save(store, key) } } },
                teardown: {
                    await savers.stop()
                    try? FileManager.default.removeItem(at: root)
                })
            Benchmark(name, configuration: configuration) { _ in
                blackHole(await Task { try! await store.fetch(Note.self, forKey: "note") }.value)
            }
        }

        register("data-read-alone", saving: nil)
        register("data-read-sync-saves") { store, key in
            // A synchronous function: here Swift can only pick the blocking save.
            func saveBlocking() { try! store.save(note, forKey: key) }
            saveBlocking()
        }
        register("data-read-async-saves") { store, key in try! await store.save(note, forKey: key) }
    }
}
