extension MetaControllerGraph {
    /// The graph as text, one line per node and per edge, grouped by scope:
    /// what a test compares with a file kept in the repository.
    ///
    /// ```text
    /// graph: 1 scope, 1 slot, 2 registrations, 1 consumer type, 1 problem
    /// scope 0: MetaController
    ///   slot apiController: FakeApiController
    ///   registration CheckoutScreen (per request)
    ///     requests PaymentClient
    ///     requires apiController
    ///   registration PaymentClient (shared)
    ///     requests TokenStore [missingFactory]
    /// missing
    ///   product TokenStore
    ///     problem: CheckoutScreen -> PaymentClient -> TokenStore: no factory makes TokenStore; ...
    /// ```
    ///
    /// The order is the graph's, so the same graph prints the same text.
    public var description: String {
        let slots = nodes.filter { $0.kind == .slot }.count
        let registrations = nodes.filter { $0.kind == .registration }.count
        let problems = verification.problems.count
        var lines = [
            "graph: "
                + [
                    Self.count(scopes.count, "scope"), Self.count(slots, "slot"), Self.count(registrations, "registration"),
                    Self.count(verification.consumerTypesChecked, "consumer type"), Self.count(problems, "problem"),
                ].joined(separator: ", ")
        ]
        let outgoing = Dictionary(grouping: edges, by: \.from)
        func append(_ node: Node, as title: String) {
            lines.append("  " + title)
            for problem in node.problems { lines.append("    problem: \(problem)") }
            for edge in outgoing[node.id] ?? [] {
                let marks = edge.problems.isEmpty ? "" : " [\(Self.kinds(of: edge.problems))]"
                lines.append("    " + edge.kind.description + " " + edge.to.name + marks)
            }
        }
        for (index, scope) in scopes.enumerated() {
            lines.append("scope \(index): \(scope)")
            for node in nodes where node.scope == index {
                switch node.kind {
                case .slot: append(node, as: "slot \(node.name): \(node.typeName ?? "?")")
                default: append(node, as: "registration \(node.name) (\(Self.lifetime(of: node)))")
                }
            }
        }
        let unscoped = nodes.filter { $0.scope == nil && ($0.kind == .registration || $0.kind == .slot) }
        if !unscoped.isEmpty {
            lines.append("no scope")
            for node in unscoped { append(node, as: node.kind.description + " " + node.name) }
        }
        let consumers = nodes.filter { $0.kind == .consumer }
        if !consumers.isEmpty {
            lines.append("consumers")
            for node in consumers { append(node, as: "consumer \(node.name)") }
        }
        let missing = nodes.filter { $0.kind == .missingProduct || $0.kind == .missingSlot }
        if !missing.isEmpty {
            lines.append("missing")
            for node in missing { append(node, as: "\(node.kind == .missingSlot ? "slot" : "product") \(node.name)") }
        }
        return lines.map(Self.oneLine).joined(separator: "\n")
    }

    /// `text` on one line: a line break in a name becomes a space.
    private static func oneLine(_ text: String) -> String {
        text.contains(where: \.isNewline) ? String(text.map { $0.isNewline ? " " : $0 }) : text
    }

    /// The graph as a [Mermaid](https://mermaid.js.org) flowchart, which
    /// GitHub and most Markdown viewers draw from a ` ```mermaid ` block.
    ///
    /// Each scope is a subgraph; slots are cylinders, registrations boxes
    /// (rounded for per request), consumers stadiums. A request is a solid
    /// arrow, a requirement a dotted one. What went wrong is red: a node
    /// where a problem arose, a missing product or slot (dashed), and an edge
    /// where one arose (labelled with the problem's kind, such as
    /// `circularFactories`). Node identifiers come from the nodes' names, so
    /// a change to the graph changes only the lines it touches, and the
    /// `linkStyle` line, which numbers the marked edges.
    public var mermaid: String {
        let ids = Self.identifiers(for: nodes)
        var text = "flowchart LR\n"
        text.reserveCapacity(64 * (nodes.count + edges.count))
        func declare(_ position: Int, indent: String) {
            let node = nodes[position]
            text += indent + ids[position] + Self.mermaidShape(of: node, label: Self.label(of: node)) + "\n"
        }
        for (index, scope) in scopes.enumerated() {
            text += "  subgraph scope_\(index)[\"\(Self.mermaidEscaped(scope))\"]\n"
            for position in nodes.indices where nodes[position].scope == index { declare(position, indent: "    ") }
            text += "  end\n"
        }
        for position in nodes.indices where nodes[position].scope == nil { declare(position, indent: "  ") }
        var marked: [Int] = []
        for index in edges.indices {
            // One piece at a time: `a + b + c` makes a string for each `+`.
            text += "  "
            text += ids[ends[index].from]
            text += edges[index].kind == .requires ? " -.->" : " -->"
            if !edges[index].problems.isEmpty {
                text += "|\""
                text += Self.kinds(of: edges[index].problems)
                text += "\"|"
                marked.append(index)
            }
            text += " "
            text += ids[ends[index].to]
            text += "\n"
        }
        text += "  classDef problem stroke:#d22,stroke-width:3px\n"
        text += "  classDef missing stroke:#d22,stroke-width:3px,stroke-dasharray:5 5"
        let missing = nodes.indices.filter { nodes[$0].kind == .missingProduct || nodes[$0].kind == .missingSlot }
        let problems = nodes.indices.filter {
            !nodes[$0].problems.isEmpty && nodes[$0].kind != .missingProduct && nodes[$0].kind != .missingSlot
        }
        if !missing.isEmpty { text += "\n  class " + missing.map { ids[$0] }.joined(separator: ",") + " missing" }
        if !problems.isEmpty { text += "\n  class " + problems.map { ids[$0] }.joined(separator: ",") + " problem" }
        if !marked.isEmpty {
            text += "\n  linkStyle " + marked.map(String.init).joined(separator: ",") + " stroke:#d22,stroke-width:3px"
        }
        return text
    }

    /// The graph in [GraphViz](https://graphviz.org) DOT, for `dot -Tsvg`.
    ///
    /// Each scope is a cluster; slots are cylinders, registrations boxes
    /// (rounded for per request), consumers ovals. A request is a solid edge,
    /// a requirement a dotted one. What went wrong is red: a node where a
    /// problem arose, a missing product or slot (dashed), and an edge where
    /// one arose (labelled with the problem's kind). Nodes are named by their
    /// identity (`"registration:CheckoutScreen"`).
    public var dot: String {
        let names = nodes.map { Self.dotQuoted($0.id.description) }
        var text = "digraph MetaController {\n  rankdir=LR;\n  node [shape=box];\n"
        text.reserveCapacity(64 * (nodes.count + edges.count))
        func declare(_ position: Int, indent: String) {
            let node = nodes[position]
            text += indent + names[position] + " [label=" + Self.dotQuoted(Self.label(of: node))
            switch node.kind {
            case .slot: text += ", shape=cylinder"
            case .consumer: text += ", shape=oval"
            case .registration where node.lifetime == .perRequest: text += ", style=rounded"
            default: break
            }
            if node.kind == .missingProduct || node.kind == .missingSlot {
                text += ", style=dashed, color=red"
            } else if !node.problems.isEmpty {
                text += ", color=red, penwidth=2"
            }
            text += "];\n"
        }
        for (index, scope) in scopes.enumerated() {
            text += "  subgraph cluster_\(index) {\n    label=" + Self.dotQuoted(scope) + ";\n"
            for position in nodes.indices where nodes[position].scope == index { declare(position, indent: "    ") }
            text += "  }\n"
        }
        for position in nodes.indices where nodes[position].scope == nil { declare(position, indent: "  ") }
        for index in edges.indices {
            text += "  "
            text += names[ends[index].from]
            text += " -> "
            text += names[ends[index].to]
            let dotted = edges[index].kind == .requires
            let problems = edges[index].problems
            if dotted || !problems.isEmpty {
                var attributes: [String] = []
                if dotted { attributes.append("style=dotted") }
                if !problems.isEmpty {
                    attributes += ["color=red", "penwidth=2", "label=" + Self.dotQuoted(Self.kinds(of: problems))]
                }
                text += " ["
                text += attributes.joined(separator: ", ")
                text += "]"
            }
            text += ";\n"
        }
        text += "}"
        return text
    }

    private static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    private static func kinds(of problems: [MetaControllerVerification.Problem]) -> String {
        var seen: Set<String> = []
        return problems.map(\.kind.description).filter { seen.insert($0).inserted }.joined(separator: ", ")
    }

    private static func lifetime(of node: Node) -> String {
        var text = node.lifetime == .perRequest ? "per request" : "shared"
        if node.wasMadeBefore { text += ", made before" }
        return text
    }

    /// A node's label in a picture: its name, then what it is, one per line.
    private static func label(of node: Node) -> [String] {
        switch node.kind {
        case .slot: [node.name, node.typeName ?? "?"]
        case .registration: [node.name, lifetime(of: node)]
        case .missingProduct, .missingSlot: [node.name, "missing"]
        default: [node.name]
        }
    }

    private static func mermaidShape(of node: Node, label: [String]) -> String {
        let text = "\"" + label.map(mermaidEscaped).joined(separator: "<br/>") + "\""
        switch node.kind {
        case .slot: return "[(" + text + ")]"
        case .consumer: return "([" + text + "])"
        case .registration where node.lifetime == .perRequest: return "(" + text + ")"
        default: return "[" + text + "]"
        }
    }

    /// Text for inside a quoted Mermaid label: its entity codes for the
    /// characters that would end the label or start markup.
    static func mermaidEscaped(_ text: String) -> String {
        guard !isPlain(text, except: mermaidSpecials) else { return text }
        var escaped = ""
        for character in text {
            switch character {
            case "#": escaped += "#35;"
            case "\"": escaped += "#quot;"
            case "<": escaped += "#lt;"
            case ">": escaped += "#gt;"
            case let character where character.isNewline: escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static let mermaidSpecials: [UInt8] = Array("#\"<>".utf8)
    private static let dotSpecials: [UInt8] = Array("\\\"".utf8)

    /// Whether `text` is printable ASCII with none of `specials`: it needs no escaping.
    private static func isPlain(_ text: String, except specials: [UInt8]) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && !specials.contains($0) }
    }

    /// `lines` as one DOT string, the lines joined by DOT's `\n`.
    private static func dotQuoted(_ lines: [String]) -> String {
        "\"" + lines.map(dotEscaped).joined(separator: "\\n") + "\""
    }

    private static func dotQuoted(_ text: String) -> String {
        "\"" + dotEscaped(text) + "\""
    }

    private static func dotEscaped(_ text: String) -> String {
        guard !isPlain(text, except: dotSpecials) else { return text }
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case let character where character.isNewline: escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A Mermaid identifier for each node, by position, from its kind and
    /// name: letters, digits and `_`, made unique in the nodes' order.
    private static func identifiers(for nodes: [Node]) -> [String] {
        var ids: [String] = []
        ids.reserveCapacity(nodes.count)
        var taken: Set<String> = []
        for node in nodes {
            var base = node.kind.description + "_"
            for scalar in node.name.unicodeScalars {
                let isPlain = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                base.unicodeScalars.append(isPlain ? scalar : "_")
            }
            var id = base
            var count = 1
            while !taken.insert(id).inserted {
                count += 1
                id = "\(base)_\(count)"
            }
            ids.append(id)
        }
        return ids
    }
}
