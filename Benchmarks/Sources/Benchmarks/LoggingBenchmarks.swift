import MetaController

/// `debugLog` at a disabled level and to an in-memory destination.
enum LoggingBenchmarks {
    final class Screen: MetaControllerConsumer {
        var metaController: MetaController?
    }

    static func run() -> [Row] {
        var rows: [Row] = []
        let metaController = MetaController()
        let memory = MemoryLogDestination(capacity: 1024)
        let screen = Screen()
        screen.metaController = metaController
        var counter = 0

        // Disabled: the controller keeps info and above.
        metaController.logController = StandardLogController(minimumLevel: .info, destinations: [memory])
        let accessor = Benchmark("accessor").run {
            blackHole(screen.logController)
        }
        let disabled = Benchmark("debugLog disabled").run {
            counter &+= 1
            screen.debugLog("value \(counter)")
        }
        rows.append(Row("debugLog at a disabled level", disabled, accessor))
        rows.append(Row("  baseline: reading the logController accessor", accessor, accessor))

        // Enabled, to memory: the message is built and the entry kept.
        metaController.logController = StandardLogController(minimumLevel: .debug, destinations: [memory])
        var lines: [String] = []
        lines.reserveCapacity(1024)
        let building = Benchmark("build and store").run {
            counter &+= 1
            if lines.count == 1024 { lines.removeAll(keepingCapacity: true) }
            lines.append("value \(counter)")
        }
        let enabled = Benchmark("debugLog to memory").run {
            counter &+= 1
            screen.debugLog("value \(counter)")
        }
        blackHole(lines)
        rows.append(Row("debugLog to an in-memory destination", enabled, building))
        rows.append(Row("  baseline: build the message and append it to an array", building, building))
        return rows
    }
}
