import Benchmark
import MetaController

/// Scenario 2: passing a MetaController down a tree of consumers, against
/// walking the same tree and assigning by hand.
///
/// Before each measured pass every node's MetaController is cleared (outside
/// the measurement), so each pass really assigns all of them: passing is
/// write-once and would otherwise only re-visit nodes that already hold it.
enum PassingBenchmarks {
    /// A consumer with children, as a screen with child screens. The children are
    /// kept twice: typed for the hand walk, and as the `[AnyObject]` the container
    /// protocol returns, so that neither walk pays for converting one to the other.
    final class Node: MetaControllerConsumer, MetaControllerContainer {
        var metaController: MetaController?
        private(set) var children: [Node] = []
        private(set) var metaControllerChildren: [AnyObject] = []

        func add(_ child: Node) {
            children.append(child)
            metaControllerChildren.append(child)
        }
    }

    /// A tree of `count` nodes, ten children to a node, filled level by level.
    static func makeTree(_ count: Int) -> Node {
        let root = Node()
        var nodes = [root]
        var parent = 0
        while nodes.count < count {
            let child = Node()
            if nodes[parent].children.count == 10 { parent += 1 }
            nodes[parent].add(child)
            nodes.append(child)
        }
        return root
    }

    /// The baseline: a recursive walk that assigns `metaController` to every node.
    static func assign(_ metaController: MetaController?, from node: Node) {
        node.metaController = metaController
        for child in node.children { assign(metaController, from: child) }
    }

    static func count(_ node: Node, holding metaController: MetaController) -> Int {
        node.children.reduce(node.metaController === metaController ? 1 : 0) { $0 + count($1, holding: metaController) }
    }

    static func register() {
        for size in [1_000, 10_000, 100_000] {
            let root = makeTree(size)
            let metaController = MetaController()
            metaController.passMetaController(to: root)
            precondition(count(root, holding: metaController) == size)

            let configuration = Workload.single(maxDuration: .seconds(2), maxIterations: size == 100_000 ? 60 : 1_000, warmupIterations: 3)
            Benchmark("passing-\(size)", configuration: configuration) { benchmark in
                assign(nil, from: root)
                benchmark.startMeasurement()
                metaController.passMetaController(to: root)
                benchmark.stopMeasurement()
            }
            Benchmark("passing-by-hand-\(size)", configuration: configuration) { benchmark in
                assign(nil, from: root)
                benchmark.startMeasurement()
                assign(metaController, from: root)
                benchmark.stopMeasurement()
            }
        }
    }
}
