import Benchmark
import MetaController

/// `verify(consumers:samples:)` on graphs that used to take it far longer than
/// making their products (issue 37): a deep chain of per-request factories,
/// and thousands of failing registrations. Each is compared with making the
/// same products once, by hand, in the same run; the ratio staying put as the
/// size grows is what says the verification grows as making does.
enum VerifyBenchmarks {
    static func register() {
        for depth in [150, 500, 1_000] {
            let chain = makeChain(depth)
            let single = Workload.single(maxDuration: .seconds(2), maxIterations: 200)
            Benchmark("verify-chain-\(depth)-make", configuration: single) { _ async in
                blackHole(await makeTop(of: chain))
            }
            Benchmark("verify-chain-\(depth)-verify", configuration: single) { _ async in
                let report = await chain.verify()
                precondition(report.isSatisfied && report.factoriesMade == depth, "verify benchmark: \(report)")
                blackHole(report)
            }
        }
        let failing = makeFailing(3_200)
        let single = Workload.single(maxDuration: .seconds(2), maxIterations: 200)
        Benchmark("verify-failing-3200-make", configuration: single) { _ async in
            blackHole(await makeEach(of: failing, count: 3_200))
        }
        Benchmark("verify-failing-3200-verify", configuration: single) { _ async in
            let report = await failing.verify()
            precondition(report.problems.count == 3_200 && report.factoriesMade == 0, "verify benchmark: \(report)")
            blackHole(report)
        }
    }

    final class Link: Sendable {}
    final class Absent: Sendable {}

    /// `depth` per-request factories of `Link`, named "0", "1", …, each making the next.
    static func makeChain(_ depth: Int) -> MetaController {
        let metaController = MetaController()
        for level in 0..<depth {
            metaController.register(Link.self, name: "\(level)") { metaController in
                if level + 1 < depth { _ = try metaController.make(Link.self, name: "\(level + 1)") as Link }
                return Link()
            }
        }
        return metaController
    }

    /// `count` per-request factories of `Link`, each requesting an `Absent` of its own name, which none makes.
    static func makeFailing(_ count: Int) -> MetaController {
        let metaController = MetaController()
        for index in 0..<count {
            metaController.register(Link.self, name: "\(index)") { metaController in
                _ = try metaController.make(Absent.self, name: "\(index)") as Absent
                return Link()
            }
        }
        return metaController
    }

    /// The top of the chain, made as the app would: every factory once. On the
    /// main actor, as `verify` runs, so that both use the same thread's stack.
    @MainActor static func makeTop(of chain: MetaController) -> Link? {
        try? chain.make(Link.self, name: "0")
    }

    /// Each of `count` failing registrations requested once: the errors they throw, counted.
    @MainActor static func makeEach(of metaController: MetaController, count: Int) -> Int {
        var failed = 0
        for index in 0..<count where (try? metaController.make(Link.self, name: "\(index)")) == nil { failed += 1 }
        return failed
    }
}
