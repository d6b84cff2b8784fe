import Dispatch
import MetaController

/// Signals dispatch and Property set against arrays of closures, in one run.
enum EventBenchmarks {
    static let ping = Signal<Int>("ping")

    /// A listener object; its handler does as little as the baseline closures do.
    final class Listener: Sendable {}

    static func run() -> [Row] {
        var rows: [Row] = []

        for count in [1, 10, 100] {
            let closures: [@Sendable (Int) -> Void] = (0..<count).map { _ in { blackHole($0) } }
            let baseline = Benchmark("closures \(count)").run {
                for closure in closures { closure(1) }
            }

            let signals = Signals()
            let listeners = (0..<count).map { _ in Listener() }
            for listener in listeners {
                try? signals.add(listener, to: ping) { _, value in blackHole(value) }
            }
            let dispatch = Benchmark("dispatch \(count)").run {
                signals.dispatch(ping, 1)
            }
            blackHole(listeners)
            rows.append(Row("Signals dispatch to \(count) listener\(count == 1 ? "" : "s")", dispatch, baseline))
            rows.append(Row("  baseline: array of \(count) closure\(count == 1 ? "" : "s")", baseline, baseline))
        }

        do {
            let closures: [@Sendable (Int) -> Void] = (0..<10).map { _ in { blackHole($0) } }
            var stored = 0
            let baseline = Benchmark("set closures 10").run {
                stored &+= 1
                for closure in closures { closure(stored) }
            }
            let property = Property(0)
            let subscribers = (0..<10).map { _ in Listener() }
            for subscriber in subscribers {
                property.subscribe(subscriber) { _, value in blackHole(value) }
            }
            var next = 0
            let set = Benchmark("property set 10").run {
                next &+= 1
                property.value = next
            }
            blackHole(subscribers)
            rows.append(Row("Property set with 10 subscribers", set, baseline))
            rows.append(Row("  baseline: store and call 10 closures", baseline, baseline))
        }

        return rows
    }
}
