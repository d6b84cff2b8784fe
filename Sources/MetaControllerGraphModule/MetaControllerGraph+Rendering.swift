import MetaControllerCore

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
    ///   registration SessionStore (shared, async)
    /// missing
    ///   product TokenStore
    ///     problem: CheckoutScreen -> PaymentClient -> TokenStore: no factory makes TokenStore; ...
    /// ```
    ///
    /// A registration's line says its lifetime, then `async` for an async
    /// factory, then `made before` for a shared product made before the
    /// graph was drawn. The order is the graph's, so the same graph prints the same text. The
    /// first line counts the graph's scopes, slots and registrations, and the
    /// verification's consumer types and problems; a part of a graph
    /// (``filter(_:)``) counts the scopes it holds nodes of, the consumer types
    /// among its nodes and the problems on its nodes and edges, and lists
    /// only those scopes. A line break in a name is a space, and a control
    /// character its escape (`\u{1B}`), so each line is one node or edge and
    /// printing the text sends no control sequence to a terminal.
    public var description: String {
        let slots = nodes.filter { $0.kind == .slot }.count
        let registrations = nodes.filter { $0.kind == .registration }.count
        let shownScopes = scopesDrawn
        var lines = [
            "graph: "
                + [
                    Self.count(shownScopes.count, "scope"), Self.count(slots, "slot"),
                    Self.count(registrations, "registration"), Self.count(consumerTypeCount, "consumer type"),
                    Self.count(problemCount, "problem"),
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
        for index in shownScopes {
            lines.append("scope \(index): \(scopes[index])")
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
        return lines.map(Self.shown).joined(separator: "\n")
    }

    /// `text` as the text form and the descriptions show it: on one line, a
    /// line break as a space and a control character as its escape (a name's
    /// ESC would otherwise reach the terminal that prints the graph), as
    /// ``forEachShown(_:_:)`` writes them for the pictures.
    static func shown(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        forEachShown(text) { scalars.append($0) }
        return String(scalars)
    }

    /// The positions in ``scopes`` that are drawn and listed: all of them, or
    /// in a part, those it holds nodes of.
    private var scopesDrawn: [Int] {
        guard isPart else { return Array(scopes.indices) }
        let held = Set(nodes.compactMap(\.scope))
        return scopes.indices.filter { held.contains($0) }
    }

    /// The consumer types the text counts: the verification's, or in a part, those among its nodes.
    private var consumerTypeCount: Int {
        isPart ? Set(consumerTypes.compactMap { $0 }).count : verification.consumerTypesChecked
    }

    /// The problems the text counts: the verification's, or in a part, those on its nodes and edges.
    private var problemCount: Int {
        guard isPart else { return verification.problems.count }
        var seen: Set<String> = []
        for problem in nodes.lazy.flatMap(\.problems) + edges.lazy.flatMap(\.problems) {
            seen.insert("\(problem.kind) \(problem.chain) \(problem.message)")
        }
        return seen.count
    }

    /// The graph as a [Mermaid](https://mermaid.js.org) flowchart, which
    /// GitHub and most Markdown viewers draw from a ` ```mermaid ` block.
    ///
    /// Each scope is a subgraph; slots are cylinders, registrations boxes
    /// (rounded for per request, labelled with their lifetime, and `async`
    /// for an async factory: `shared, async`), consumers stadiums. A request is a solid
    /// arrow, a requirement a dotted one. What went wrong is red: a node
    /// where a problem arose (class `problem`), a missing product or slot
    /// (dashed, class `missing`), and an edge where one arose (labelled with
    /// the problem's kind, such as `circularFactories`).
    ///
    /// A node's identifier is made from its kind and its name alone, ASCII
    /// letters and digits kept and everything else written as its code (a
    /// single space as `_`, other runs as `__20x2D_`), so two nodes never
    /// share one, and a change to the graph changes only the lines it
    /// touches, and the `linkStyle` line, which numbers the marked edges. A
    /// name may hold anything: in a label, the characters Mermaid would read
    /// (`"`, `#`, `%`, `&`, `<`, `>`, `:` and a backtick) are entity codes
    /// such as `#37;`, a line break is a space, and a control character is
    /// shown as its escape (`\u{1B}`).
    ///
    /// A viewer with Mermaid's default settings draws at most 50,000
    /// characters and 500 edges; draw a part of a big graph
    /// (``filter(_:)``, ``neighborhood(of:within:)``).
    public var mermaid: String {
        let ids = nodes.map { Self.identifier(of: $0.id) }
        var text = "flowchart LR\n"
        text.reserveCapacity(64 * (nodes.count + edges.count))
        func declare(_ position: Int, indent: String) {
            let node = nodes[position]
            text += indent + ids[position] + Self.mermaidShape(of: node, label: Self.label(of: node)) + "\n"
        }
        for index in scopesDrawn {
            text += "  subgraph scope_\(index)[\"\(Self.mermaidEscaped(scopes[index]))\"]\n"
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
    /// (rounded for per request, labelled with their lifetime, and `async`
    /// for an async factory: `shared, async`), consumers ovals. A request is a solid edge,
    /// a requirement a dotted one. What went wrong is red: a node where a
    /// problem arose, a missing product or slot (dashed), and an edge where
    /// one arose (labelled with the problem's kind). Nodes have the
    /// identifiers they have in ``mermaid`` (`registration_CheckoutScreen`),
    /// which no two nodes share, and their names in their labels. A name may
    /// hold anything: a line break is a space, a control character (which
    /// GraphViz refuses, or writes into SVG that is not XML) is shown as its
    /// escape (`\u{1B}`), and `&` is written `&amp;`, so that GraphViz draws
    /// `&lt;` as it is written.
    public var dot: String {
        let names = nodes.map { Self.dotIdentifier(Self.identifier(of: $0.id)) }
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
        for index in scopesDrawn {
            text += "  subgraph cluster_\(index) {\n    label=" + Self.dotQuoted([scopes[index]]) + ";\n"
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
                    attributes += ["color=red", "penwidth=2", "label=" + Self.dotQuoted([Self.kinds(of: problems)])]
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
        if node.isAsync { text += ", async" }
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

    /// Text for inside a quoted Mermaid label: Mermaid's entity codes for the
    /// characters that would end the label or that Mermaid reads before the
    /// label is parsed (`%%` starts a directive or a comment, a backtick a
    /// Markdown string, `&` an HTML entity, `style` or `classDef`, a `:` and
    /// a `#` a style whose `;` it drops), a space for a line break, and an
    /// escape for a character no picture can hold.
    static func mermaidEscaped(_ text: String) -> String {
        guard !isPlain(text, except: mermaidSpecials) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        forEachShown(text) { scalar in
            switch scalar {
            case "#": escaped += "#35;"
            case "\"": escaped += "#quot;"
            case "<": escaped += "#lt;"
            case ">": escaped += "#gt;"
            case "%": escaped += "#37;"
            case "&": escaped += "#38;"
            case ":": escaped += "#58;"
            case "`": escaped += "#96;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static let mermaidSpecials: [UInt8] = Array("#\"<>%&:`".utf8)
    private static let dotSpecials: [UInt8] = Array("\\\"&".utf8)

    /// Whether `text` is printable ASCII with none of `specials`: it needs no escaping.
    private static func isPlain(_ text: String, except specials: [UInt8]) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && !specials.contains($0) }
    }

    /// Calls `body` with the scalars of `text` as a picture shows them: a
    /// line break (`\r\n` among them) as one space, and a control character
    /// or a noncharacter U+FFFE, U+FFFF (which XML, so SVG, cannot hold, and
    /// GraphViz refuses in part) as its escape, `\u{1B}`.
    private static func forEachShown(_ text: String, _ body: (Unicode.Scalar) -> Void) {
        var afterReturn = false
        for scalar in text.unicodeScalars {
            defer { afterReturn = scalar == "\r" }
            switch scalar.value {
            case 0x0A where afterReturn:
                continue
            case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
                body(" ")
            case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF:
                for escape in "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars { body(escape) }
            default:
                body(scalar)
            }
        }
    }

    /// `lines` as one DOT string, the lines joined by DOT's `\n`; cut into
    /// pieces joined with `+` when long (GraphViz 2 refuses a string of more
    /// than 16,384 bytes).
    private static func dotQuoted(_ lines: [String]) -> String {
        var pieces = [""]
        func add(_ text: String) {
            if pieces[pieces.count - 1].utf8.count + text.utf8.count > dotPiece { pieces.append("") }
            pieces[pieces.count - 1] += text
        }
        for (index, line) in lines.enumerated() {
            if index > 0 { add("\\n") }
            if isPlain(line, except: dotSpecials), line.utf8.count <= dotPiece {
                add(line)
                continue
            }
            forEachShown(line) { scalar in
                switch scalar {
                case "\\": add("\\\\")
                case "\"": add("\\\"")
                case "&": add("&amp;")
                default: add(String(scalar))
                }
            }
        }
        return "\"" + pieces.joined(separator: "\" + \"") + "\""
    }

    /// The most bytes of one quoted DOT string piece.
    private static let dotPiece = 8_000

    /// A Mermaid identifier as a DOT one: as it is, or quoted in pieces when long.
    private static func dotIdentifier(_ identifier: String) -> String {
        identifier.utf8.count <= dotPiece ? identifier : dotQuoted([identifier])
    }

    /// The identifier of the node `id` in both pictures: its kind, `_`, and its
    /// name with ASCII letters and digits kept, a single space between them
    /// written `_`, and any other run of characters written `__`, their
    /// codes in hexadecimal joined by `x`, and `_` (`api-v1` is `api__2D_v1`).
    ///
    /// The name can be read back from it, so two nodes never share one; it
    /// depends on the node alone, so it does not change when others come or
    /// go; and it is made in one pass over the name.
    static func identifier(of id: Node.ID) -> String {
        var text = id.kind.description + "_"
        text.reserveCapacity(text.utf8.count + id.name.utf8.count)
        var run: [Unicode.Scalar] = []
        func flush() {
            guard !run.isEmpty else { return }
            if run == [" "] {
                text += "_"
            } else {
                text += "__" + run.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: "x") + "_"
            }
            run.removeAll(keepingCapacity: true)
        }
        for scalar in id.name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                flush()
                text.unicodeScalars.append(scalar)
            } else {
                run.append(scalar)
            }
        }
        flush()
        return text
    }
}
