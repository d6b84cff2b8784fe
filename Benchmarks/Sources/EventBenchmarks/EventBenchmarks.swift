import Dispatch
import MetaController

/// Signals dispatch and Property set against arrays of closures, in one run.
///
/// Prints a Markdown table: median nanoseconds per operation and the ratio to
/// the closure-array baseline measured just before.
@main
struct EventBenchmarks {
    static let ping = Signal<Int>("ping")

    /// A listener object; its handler does as little as the baseline closures do.
    final class Listener: Sendable {}

    static func main() {
        var rows: [(String, Double, Double)] = []

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
            rows.append(("Signals dispatch to \(count) listener\(count == 1 ? "" : "s")", dispatch, baseline))
            rows.append(("  baseline: array of \(count) closure\(count == 1 ? "" : "s")", baseline, baseline))
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
            rows.append(("Property set with 10 subscribers", set, baseline))
            rows.append(("  baseline: store and call 10 closures", baseline, baseline))
        }

        print("| operation | median ns/op | ratio to baseline |")
        print("| --- | ---: | ---: |")
        for (name, nanoseconds, baseline) in rows {
            print("| \(name) | \(format(nanoseconds)) | \(format(nanoseconds / baseline))x |")
        }
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return String(describing: rounded)
    }
}
