import Benchmark
import Foundation
import MetaController

/// How long one set of a `Property` keeps its thread while another thread sets
/// the same property without pause (Property.md, "Order, threads and
/// reentrancy"): the set waits for the broadcast under way, if any, then
/// broadcasts its own value, and is never held by the other thread's later sets.
///
/// One iteration is one set, on the benchmark's thread, to a property whose one
/// subscriber does about a microsecond of work. The baseline is the same set
/// with nobody else setting; beside the producer, a set costs at most about
/// two broadcasts (the one under way and its own). Benchmarks/run reports the
/// median and the 99th percentile.
enum PropertyUnderLoadBenchmarks {
    /// About a microsecond of work that the optimizer cannot remove.
    @inline(never)
    static func work(_ value: Int) {
        var hash = UInt64(truncatingIfNeeded: value)
        for _ in 0..<2_000 { hash = hash &* 0x9E37_79B9_7F4A_7C15 &+ 1 }
        blackHole(hash)
    }

    /// The thread that sets the property without pause, from setup to teardown.
    final class Producer: Sendable {
        private let stop = DispatchSemaphore(value: 0)
        private let stopped = DispatchSemaphore(value: 0)

        func start(_ property: Property<Int>) {
            Thread { [self] in
                var value = 0
                while stop.wait(timeout: .now()) == .timedOut {
                    value &+= 1
                    property.value = -value
                }
                stopped.signal()
            }.start()
        }

        func finish() {
            stop.signal()
            stopped.wait()
        }
    }

    static func register() {
        for beside in [false, true] {
            let property = Property(0)
            let token = property.observe { work($0) }
            let producer = Producer()
            let configuration = Workload.single(
                maxDuration: .seconds(2), maxIterations: 20_000,
                setup: { if beside { producer.start(property) } },
                teardown: { if beside { producer.finish() } })
            Benchmark(beside ? "property-held-beside-producer" : "property-held-alone", configuration: configuration) { benchmark in
                for index in benchmark.scaledIterations { property.value = index }
                blackHole(token)
            }
        }
    }
}
