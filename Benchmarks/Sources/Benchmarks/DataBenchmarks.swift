import Foundation
import MetaController

/// FileDataController save and fetch of a small Codable value against
/// `JSONEncoder` plus an atomic `Data.write`, and `JSONDecoder` plus `Data(contentsOf:)`.
enum DataBenchmarks {
    struct Settings: Codable {
        var userName = "ada"
        var theme = "dark"
        var fontSize = 14
        var notifications = true
    }

    static func run() -> [Row] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("data-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        guard let store = try? FileDataController(directory: root.appendingPathComponent("store")) else {
            print("cannot open the benchmark store")
            return []
        }
        let plain = root.appendingPathComponent("plain.json")
        let value = Settings()
        // Each save syncs to disk, so fewer iterations than the in-memory benchmarks.
        let direct = Benchmark("direct save", rounds: 7, iterations: 300).run {
            try? JSONEncoder().encode(value).write(to: plain, options: .atomic)
        }
        let save = Benchmark("store save", rounds: 7, iterations: 300).run {
            try? store.save(value, forKey: "settings")
        }
        let directRead = Benchmark("direct fetch", rounds: 7, iterations: 3000).run {
            blackHole(try? JSONDecoder().decode(Settings.self, from: Data(contentsOf: plain)))
        }
        let fetch = Benchmark("store fetch", rounds: 7, iterations: 3000).run {
            blackHole(try? store.fetch(Settings.self, forKey: "settings"))
        }
        return [
            Row("FileDataController save of a small Codable value", save, direct),
            Row("  baseline: JSONEncoder + Data.write(options: .atomic)", direct, direct),
            Row("FileDataController fetch of the same value", fetch, directRead),
            Row("  baseline: Data(contentsOf:) + JSONDecoder", directRead, directRead),
        ]
    }
}
