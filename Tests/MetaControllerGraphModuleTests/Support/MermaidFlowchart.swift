import Foundation

/// A checker of the part of Mermaid's flowchart grammar
/// (https://mermaid.js.org/syntax/flowchart.html) that a graph's picture
/// uses, written for the tests alone from the grammar, not from the writer.
///
/// Accepted, one statement per line: the header `flowchart LR`;
/// `subgraph ID["label"]` ... `end`; a node `ID` with one of the shapes
/// `["label"]`, `("label")`, `(["label"])`, `[("label")]`; an edge
/// `ID --> ID` or `ID -.-> ID`, with an optional `|"label"|` after the arrow;
/// `classDef NAME STYLE`, `class ID,ID NAME`, `linkStyle N,N STYLE`. A label
/// holds no `"` and no raw line break; a `#` in it starts an entity code
/// (`#quot;`, `#35;`); `<br/>` is a line break. An ID is letters, digits and
/// `_`, not a keyword, and does not start with `o` or `x` (which an arrow
/// before it would swallow). A node is declared once, before an edge or a
/// class names it; subgraphs are closed; link indices name edges.
///
/// What Mermaid 11 reads in the text before it parses the flowchart is
/// refused where a label would meet it: a `%` (`%%{...}%%` is a directive
/// that re-themes the picture, `%%` a comment), a raw `&` (the browser reads
/// `&lt;` as `<`), a label that starts with a backtick (a Markdown string),
/// a line that `style.*:\S*#.*;` or `classDef.*:\S*#.*;` matches outside a
/// `classDef` or `linkStyle` statement (Mermaid drops that `;`, breaking the
/// entity code before it), and a control character or U+FFFE, U+FFFF, which
/// SVG cannot hold.
struct MermaidFlowchart {
    struct Node {
        let label: String
        let shape: String
        let subgraph: String?
    }

    struct Edge {
        let from: String
        let to: String
        let dotted: Bool
        let label: String?
    }

    struct GrammarError: Error, CustomStringConvertible {
        let line: Int
        let message: String
        var description: String { "Mermaid line \(line + 1): \(message)" }
    }

    private(set) var nodes: [String: Node] = [:]
    private(set) var edges: [Edge] = []
    private(set) var subgraphLabels: [String: String] = [:]
    private(set) var classes: [String: Set<String>] = [:]
    private(set) var styledLinks: [Int] = []

    private static let keywords: Set<String> = ["end", "subgraph", "graph", "flowchart", "class", "classDef", "linkStyle", "style", "click", "direction"]
    private static let shapes = [("[(", ")]"), ("([", "])"), ("[", "]"), ("(", ")")]

    init(_ text: String) throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == "flowchart LR" else { throw GrammarError(line: 0, message: "expected the header flowchart LR") }
        var open: [String] = []
        var definedClasses: Set<String> = []
        for (number, raw) in lines.enumerated().dropFirst() {
            func fail(_ message: String) -> GrammarError { GrammarError(line: number, message: message) }
            let line = raw.trimmingCharacters(in: " ")
            guard !line.isEmpty else { continue }
            if !line.hasPrefix("classDef "), !line.hasPrefix("linkStyle "), Self.stylePattern.firstMatch(in: line) != nil {
                throw fail("Mermaid would drop a ; of an entity code on this line: \(line)")
            }
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            switch words[0] {
            case "end":
                guard words.count == 1, open.popLast() != nil else { throw fail("end without subgraph") }
            case let word where word.hasPrefix("subgraph"):
                guard words[0] == "subgraph", line.hasPrefix("subgraph ") else { throw fail("expected subgraph ID[\"label\"]") }
                let (id, rest) = try Self.identifier(String(line.dropFirst("subgraph ".count)), fail)
                guard rest.hasPrefix("[\""), rest.hasSuffix("\"]") else { throw fail("expected a quoted label") }
                guard subgraphLabels[id] == nil, nodes[id] == nil else { throw fail("\(id) declared twice") }
                subgraphLabels[id] = try Self.label(String(rest.dropFirst(2).dropLast(2)), fail)
                open.append(id)
            case "classDef":
                guard words.count == 3 else { throw fail("expected classDef NAME STYLE") }
                definedClasses.insert(words[1])
            case "class":
                guard words.count == 3, definedClasses.contains(words[2]) else { throw fail("a class not defined") }
                for id in words[1].split(separator: ",").map(String.init) {
                    guard nodes[id] != nil else { throw fail("class names \(id), not declared") }
                    classes[words[2], default: []].insert(id)
                }
            case "linkStyle":
                guard words.count == 3 else { throw fail("expected linkStyle N STYLE") }
                for index in words[1].split(separator: ",") {
                    guard let value = Int(index), value >= 0, value < edges.count else {
                        throw fail("linkStyle names no edge: \(index)")
                    }
                    styledLinks.append(value)
                }
            default:
                let (id, rest) = try Self.identifier(line, fail)
                if rest.hasPrefix(" -") {
                    edges.append(try edge(from: id, rest, fail))
                    continue
                }
                guard nodes[id] == nil, subgraphLabels[id] == nil else { throw fail("\(id) declared twice") }
                guard
                    let (opening, closing) = Self.shapes.first(where: {
                        rest.hasPrefix($0.0 + "\"") && rest.hasSuffix("\"" + $0.1)
                    })
                else { throw fail("expected a node shape with a quoted label: \(rest)") }
                let body = String(rest.dropFirst(opening.count + 1).dropLast(closing.count + 1))
                nodes[id] = Node(label: try Self.label(body, fail), shape: opening + closing, subgraph: open.last)
            }
        }
        guard open.isEmpty else { throw GrammarError(line: lines.count, message: "subgraph not closed") }
    }

    private func edge(from: String, _ rest: String, _ fail: (String) -> GrammarError) throws -> Edge {
        var text = Substring(rest.dropFirst())
        let dotted: Bool
        if text.hasPrefix("-->") {
            dotted = false
            text = text.dropFirst(3)
        } else if text.hasPrefix("-.->") {
            dotted = true
            text = text.dropFirst(4)
        } else {
            throw fail("expected --> or -.->")
        }
        var label: String?
        if text.hasPrefix("|\"") {
            guard let close = text.range(of: "\"| ") else { throw fail("an edge label not closed") }
            label = try Self.label(String(text[text.index(text.startIndex, offsetBy: 2)..<close.lowerBound]), fail)
            text = text[close.upperBound...]
        } else {
            guard text.hasPrefix(" ") else { throw fail("expected a space after the arrow") }
            text = text.dropFirst()
        }
        let (to, tail) = try Self.identifier(String(text), fail)
        guard tail.isEmpty else { throw fail("text after an edge: \(tail)") }
        guard nodes[from] != nil, nodes[to] != nil else { throw fail("an edge between nodes not declared: \(from), \(to)") }
        return Edge(from: from, to: to, dotted: dotted, label: label)
    }

    /// The identifier at the start of `text`, and what follows it.
    private static func identifier(_ text: String, _ fail: (String) -> GrammarError) throws -> (String, String) {
        let scalars = text.unicodeScalars
        let end =
            scalars.firstIndex { !($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")) }
            ?? scalars.endIndex
        let id = String(scalars[..<end])
        guard let first = id.first, !first.isNumber else { throw fail("expected an ID: \(text)") }
        guard !keywords.contains(id), first != "o", first != "x" else { throw fail("an ID Mermaid reads otherwise: \(id)") }
        return (id, String(scalars[end...]))
    }

    /// Mermaid's `encodeEntities` takes the last character off what these match.
    private static let stylePattern = LinePattern(#"(style|classDef).*:\S*#.*;"#)

    /// The text of a label, its entity codes and line breaks read.
    private static func label(_ body: String, _ fail: (String) -> GrammarError) throws -> String {
        guard !body.contains("\"") else { throw fail("a \" inside a label") }
        guard !body.hasPrefix("`") else { throw fail("a label that opens a Markdown string: \(body)") }
        for scalar in body.unicodeScalars {
            switch scalar {
            case "%": throw fail("a % in a label, which can start a directive or a comment: \(body)")
            case "&": throw fail("a raw & in a label, an HTML entity to the browser: \(body)")
            default:
                if scalar.properties.generalCategory == .control || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    throw fail("a control character in a label: U+\(String(scalar.value, radix: 16))")
                }
            }
        }
        var text = ""
        var rest = Substring(body)
        while let character = rest.first {
            if rest.hasPrefix("<br/>") {
                text += "\n"
                rest = rest.dropFirst(5)
            } else if character == "<" || character == ">" {
                throw fail("markup in a label: \(body)")
            } else if character == "#" {
                guard let semicolon = rest.firstIndex(of: ";") else { throw fail("a # that starts no entity code") }
                let code = rest[rest.index(after: rest.startIndex)..<semicolon]
                switch code {
                case "quot": text += "\""
                case "lt": text += "<"
                case "gt": text += ">"
                case "amp": text += "&"
                default:
                    guard let value = UInt32(code), let scalar = Unicode.Scalar(value) else {
                        throw fail("an entity code Mermaid does not know: #\(code);")
                    }
                    text.unicodeScalars.append(scalar)
                }
                rest = rest[rest.index(after: semicolon)...]
            } else {
                text.append(character)
                rest = rest.dropFirst()
            }
        }
        return text
    }
}

extension MermaidFlowchart {
    /// The kind and the name a graph's node identifier stands for, read by
    /// the scheme Docs/SeeingTheGraph.md gives: the kind, `_`, then the name
    /// with ASCII letters and digits as they are, `_` alone for one space, and
    /// `__` hex codes joined by `x` `_` for any other run; `nil` when it does
    /// not follow the scheme. Whatever can be read back names one node only.
    static func node(of identifier: String) -> (kind: String, name: String)? {
        guard let separator = identifier.firstIndex(of: "_") else { return nil }
        let kind = String(identifier[..<separator])
        var scalars = Array(identifier[identifier.index(after: separator)...].unicodeScalars)[...]
        var name = String.UnicodeScalarView()
        func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            if isLetterOrDigit(scalar) {
                name.append(scalar)
                continue
            }
            guard scalar == "_" else { return nil }
            guard scalars.first == "_" else {
                // One space, then a letter or a digit, or the end.
                name.append(" ")
                continue
            }
            scalars = scalars.dropFirst()
            guard let close = scalars.firstIndex(of: "_") else { return nil }
            let codes = String(String.UnicodeScalarView(scalars[..<close]))
            scalars = scalars[scalars.index(after: close)...]
            guard !codes.isEmpty else { return nil }
            var run: [Unicode.Scalar] = []
            for code in codes.split(separator: "x", omittingEmptySubsequences: false) {
                guard let value = UInt32(code, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
                run.append(decoded)
            }
            // The writer keeps a run of one space as `_`, and ends a run at a letter or a digit.
            guard run != [" "], !run.contains(where: isLetterOrDigit) else { return nil }
            if let next = scalars.first, !isLetterOrDigit(next) { return nil }
            name.append(contentsOf: run)
        }
        return (kind, String(name))
    }
}

/// A regular expression over a line, on Foundation's engine (JavaScript's `.` and `\S` are its).
private struct LinePattern {
    private let expression: NSRegularExpression

    init(_ pattern: String) {
        // A literal pattern of the tests: a failure here is the test's own mistake.
        expression = try! NSRegularExpression(pattern: pattern)
    }

    func firstMatch(in text: String) -> NSTextCheckingResult? {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
