import Dispatch

/// Times an operation: several rounds of many iterations, and the median
/// nanoseconds per operation of the rounds. Each benchmark is compared with a
/// baseline timed in the same run, because these machines are shared and their
/// absolute speed varies from run to run.
struct Benchmark {
    let name: String
    let rounds: Int
    let iterations: Int

    init(_ name: String, rounds: Int = 15, iterations: Int = 100_000) {
        self.name = name
        self.rounds = rounds
        self.iterations = iterations
    }

    /// The median nanoseconds per call of `operation`.
    func run(_ operation: () -> Void) -> Double {
        for _ in 0..<(iterations / 10) { operation() }   // warm up
        var perCall: [Double] = []
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { operation() }
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            perCall.append(Double(elapsed) / Double(iterations))
        }
        perCall.sort()
        return perCall[perCall.count / 2]
    }
}

/// Keeps the optimizer from deleting work whose result is never used.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// One line of the table: an operation, its median time, and its baseline's.
struct Row {
    let name: String
    let nanoseconds: Double
    let baseline: Double

    init(_ name: String, _ nanoseconds: Double, _ baseline: Double) {
        self.name = name
        self.nanoseconds = nanoseconds
        self.baseline = baseline
    }
}
