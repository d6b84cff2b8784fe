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
