import Benchmark
import MetaController

/// Scenario 4: `debugLog` at a disabled level and to an in-memory destination.
enum LoggingBenchmarks {
    final class Screen: MetaControllerConsumer {
        var metaController: MetaController?
    }

    static func register() {
        let memory = MemoryLogDestination(capacity: 1024)
        var counter = 0

        // Disabled: the controller keeps info and above.
        let quiet = MetaController()
        quiet.logController = StandardLogController(minimumLevel: .info, destinations: [memory])
        let quietScreen = Screen()
        quietScreen.metaController = quiet
        Benchmark("log-accessor", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(quietScreen.logController) }
        }
        Benchmark("log-disabled", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations {
                counter &+= 1
                quietScreen.debugLog("value \(counter)")
            }
        }

        // Enabled, to memory: the message is built and the entry kept.
        let verbose = MetaController()
        verbose.logController = StandardLogController(minimumLevel: .debug, destinations: [memory])
        let verboseScreen = Screen()
        verboseScreen.metaController = verbose
        var lines: [String] = []
        lines.reserveCapacity(1024)
        Benchmark("log-build-and-append", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations {
                counter &+= 1
                if lines.count == 1024 { lines.removeAll(keepingCapacity: true) }
                lines.append("value \(counter)")
            }
            blackHole(lines)
        }
        Benchmark("log-memory", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations {
                counter &+= 1
                verboseScreen.debugLog("value \(counter)")
            }
        }
    }
}
