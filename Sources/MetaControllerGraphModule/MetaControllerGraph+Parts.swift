extension MetaControllerGraph {
    /// The part of the graph made of the nodes `isIncluded` keeps, with the
    /// edges between them: one scope, one feature's registrations, whatever a
    /// reader wants to see of a graph too big to draw whole.
    ///
    /// A big app's picture is past what a Mermaid viewer draws with its
    /// default settings (50,000 characters and 500 edges); the part of it a
    /// change is about is not.
    ///
    /// ```swift
    /// // The registrations of the parent scope, and the slots they fill.
    /// let appWide = graph.filter { $0.scope == 1 }
    /// // One feature's registrations, by the names of its types.
    /// let checkout = graph.filter { $0.kind == .registration && $0.name.hasPrefix("Checkout") }
    /// print(checkout.mermaid)
    /// ```
    ///
    /// The part is a graph of its own: its ``nodes`` and ``edges`` are the
    /// graph's, in the graph's order, each node with its scope and its
    /// problems, each edge with its marks, and its queries (``longestChain``,
    /// ``dependents(of:)``, ``unusedRegistrations``) see the part alone: a
    /// registration whose requesters were left out is unused in the part. Its
    /// ``verification`` is the whole graph's, but its ``description`` counts
    /// what it shows (the scopes it holds nodes of, its consumer types, and
    /// the problems on its nodes and edges), and its pictures draw only the
    /// scopes it holds nodes of.
    ///
    /// - Parameter isIncluded: Whether a node is in the part.
    /// - Returns: The nodes kept, in the graph's order, and the edges between them.
    public func filter(_ isIncluded: (Node) throws -> Bool) rethrows -> MetaControllerGraph {
        var kept: [Int] = []
        for index in nodes.indices where try isIncluded(nodes[index]) { kept.append(index) }
        return part(keeping: kept)
    }

    /// The part of the graph within `distance` edges of the node `id`,
    /// whichever way the edges point: what it needs and what needs it, then
    /// what those need and what needs them, `distance` steps out.
    ///
    /// ```swift
    /// let database = MetaControllerGraph.Node.ID(.registration, "Database")
    /// print(graph.neighborhood(of: database, within: 2).mermaid)
    /// ```
    ///
    /// The part is a graph, as ``filter(_:)`` makes one: the nodes reached
    /// and every edge between them.
    ///
    /// - Parameters:
    ///   - id: The node in the middle.
    ///   - distance: How many edges out to go: `0` for the node alone, `1`
    ///     (the default) for its neighbours. Below `0`, taken as `0`.
    /// - Returns: The nodes reached, in the graph's order, and the edges
    ///   between them; no node when the graph has none of identity `id`.
    public func neighborhood(of id: Node.ID, within distance: Int = 1) -> MetaControllerGraph {
        guard let start = nodes.firstIndex(where: { $0.id == id }) else { return part(keeping: []) }
        var neighbours = [[Int]](repeating: [], count: nodes.count)
        for end in ends {
            neighbours[end.from].append(end.to)
            neighbours[end.to].append(end.from)
        }
        // Breadth first, one ring of nodes a step.
        var reached = [Bool](repeating: false, count: nodes.count)
        reached[start] = true
        var ring = [start]
        var steps = 0
        while steps < distance, !ring.isEmpty {
            var next: [Int] = []
            for node in ring {
                for neighbour in neighbours[node] where !reached[neighbour] {
                    reached[neighbour] = true
                    next.append(neighbour)
                }
            }
            ring = next
            steps += 1
        }
        return part(keeping: nodes.indices.filter { reached[$0] })
    }

    /// The part of the graph made of the nodes at positions `kept`, in increasing order.
    private func part(keeping kept: [Int]) -> MetaControllerGraph {
        var position = [Int?](repeating: nil, count: nodes.count)
        for (new, old) in kept.enumerated() { position[old] = new }
        var partEdges: [Edge] = []
        var partEnds: [Ends] = []
        for index in edges.indices {
            guard let from = position[ends[index].from], let to = position[ends[index].to] else { continue }
            partEdges.append(edges[index])
            partEnds.append(Ends(from: from, to: to))
        }
        let partNodes = kept.map { nodes[$0] }
        let ids = Set(partNodes.map(\.id))
        return MetaControllerGraph(
            scopes: scopes, nodes: partNodes, edges: partEdges, verification: verification,
            listedRegistrations: listedRegistrations.filter { ids.contains($0) }, ends: partEnds,
            consumerTypes: kept.map { consumerTypes[$0] }, isPart: true)
    }
}
