import Benchmark

// `Benchmarks/run` (from the repository root) runs these and writes the table in
// Docs/Performance.md. Each benchmark's name is the key the script looks it up by,
// and every comparison's baseline is measured in the same run.
//
// Benchmarks that take nanoseconds run `Workload.micro` operations per measured
// iteration (the scaling factor); the others run one. Benchmarks/run divides by
// the same figures, so a change here must be made there too.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 1_000
    )

    AccessorBenchmarks.register()
    PassingBenchmarks.register()
    EventBenchmarks.register()
    PropertyUnderLoadBenchmarks.register()
    LoggingBenchmarks.register()
    DataBenchmarks.register()
    DataUnderLoadBenchmarks.register()
    ApiBenchmarks.register()
    GraphBenchmarks.register()
    VerifyBenchmarks.register()
    AsyncFactoryBenchmarks.register()
}

/// How much one measured iteration of a benchmark does.
enum Workload {
    /// For operations of nanoseconds: 1,000 operations per iteration.
    static func micro(maxDuration: Duration = .seconds(1)) -> Benchmark.Configuration {
        var configuration = Benchmark.defaultConfiguration
        configuration.scalingFactor = .kilo
        configuration.maxDuration = maxDuration
        configuration.maxIterations = 20_000
        return configuration
    }

    /// For operations of microseconds or more: one operation per iteration.
    static func single(
        maxDuration: Duration = .seconds(2),
        maxIterations: Int = 10_000,
        warmupIterations: Int = 10,
        setup: Benchmark.BenchmarkSetupHook? = nil,
        teardown: Benchmark.BenchmarkTeardownHook? = nil
    ) -> Benchmark.Configuration {
        var configuration = Benchmark.defaultConfiguration
        configuration.maxDuration = maxDuration
        configuration.maxIterations = maxIterations
        configuration.warmupIterations = warmupIterations
        configuration.setup = setup
        configuration.teardown = teardown
        return configuration
    }
}
