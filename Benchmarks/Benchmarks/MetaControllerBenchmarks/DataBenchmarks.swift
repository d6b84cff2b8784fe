import Benchmark
import Foundation
import MetaController

/// Scenario 5: FileDataController save and fetch of a small Codable value against
/// `JSONEncoder` plus an atomic `Data.write`, and `Data(contentsOf:)` plus `JSONDecoder`.
enum DataBenchmarks {
    struct Settings: Codable {
        var userName = "ada"
        var theme = "dark"
        var fontSize = 14
        var notifications = true
    }

    static func register() {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("data-bench-\(UUID().uuidString)")
        let store = try! FileDataController(directory: root.appendingPathComponent("store"))
        let plain = root.appendingPathComponent("plain.json")
        let value = Settings()
        try! JSONEncoder().encode(value).write(to: plain, options: .atomic)
        try! store.save(value, forKey: "settings")

        // Each save syncs to disk: a few hundred per benchmark.
        let saves = Workload.single(maxDuration: .seconds(2), maxIterations: 500)
        Benchmark("data-save-direct", configuration: saves) { _ in
            try! JSONEncoder().encode(value).write(to: plain, options: .atomic)
        }
        // The same, made as durable as the store's save: the directory synced after the rename,
        // so that the rename itself survives a power loss (Docs/Performance.md, "DataController").
        let directory = root.path
        Benchmark("data-save-direct-durable", configuration: saves) { _ in
            try! JSONEncoder().encode(value).write(to: plain, options: .atomic)
            let descriptor = open(directory, O_RDONLY | O_DIRECTORY)
            precondition(descriptor >= 0 && fsync(descriptor) == 0, "data benchmark: cannot sync \(directory)")
            close(descriptor)
        }
        Benchmark("data-save", configuration: saves) { _ in
            try! store.save(value, forKey: "settings")
        }

        let fetches = Workload.single(maxDuration: .seconds(1), maxIterations: 5_000)
        Benchmark("data-fetch-direct", configuration: fetches) { _ in
            blackHole(try! JSONDecoder().decode(Settings.self, from: Data(contentsOf: plain)))
        }
        Benchmark(
            "data-fetch",
            configuration: Workload.single(
                maxDuration: .seconds(1), maxIterations: 5_000,
                teardown: { try? FileManager.default.removeItem(at: root) })
        ) { _ in
            blackHole(try! store.fetch(Settings.self, forKey: "settings"))
        }
    }
}
