/// A small reader of GraphViz DOT, written from the language's grammar
/// (https://graphviz.org/doc/info/lang.html) for the tests alone: it shares no
/// code with the package's writer, so text the writer gets wrong fails here.
///
/// It reads a `digraph` with attribute statements, `ID = ID` statements, node
/// and edge statements (`a -> b -> c`), attribute lists, and subgraphs to any
/// depth (kept on a stack of its own, not by recursion). IDs are plain
/// (letters, digits, `_`), numerals, or quoted with `\"` and `\\` escapes.
/// Anything else is an error, with the offset where it was met.
struct DOTDocument {
    struct Node {
        var attributes: [String: String] = [:]
        /// The subgraphs the node was first declared in, outermost first.
        var subgraphs: [String] = []
    }

    struct Edge: Hashable {
        let from: String
        let to: String
        let attributes: [String: String]
    }

    struct Subgraph {
        var attributes: [String: String] = [:]
        var nodes: [String] = []
    }

    struct ReadError: Error, CustomStringConvertible {
        let offset: Int
        let message: String
        var description: String { "DOT error at \(offset): \(message)" }
    }

    private(set) var name: String?
    private(set) var nodes: [String: Node] = [:]
    private(set) var edges: [Edge] = []
    private(set) var subgraphs: [String: Subgraph] = [:]

    private enum Token: Equatable {
        case id(String)
        case punctuation(String)
    }

    init(_ text: String) throws {
        let tokens = try Self.tokens(of: Array(text.unicodeScalars))
        var index = 0
        func peek() -> Token? { index < tokens.count ? tokens[index].0 : nil }
        func offset() -> Int { index < tokens.count ? tokens[index].1 : text.unicodeScalars.count }
        func next() throws -> Token {
            guard index < tokens.count else { throw ReadError(offset: offset(), message: "unexpected end") }
            defer { index += 1 }
            return tokens[index].0
        }
        func expect(_ punctuation: String) throws {
            guard try next() == .punctuation(punctuation) else {
                throw ReadError(offset: tokens[index - 1].1, message: "expected \(punctuation)")
            }
        }
        func identifier() throws -> String {
            guard case .id(let value) = try next() else {
                throw ReadError(offset: tokens[index - 1].1, message: "expected an ID")
            }
            return value
        }
        func attributeList() throws -> [String: String] {
            var attributes: [String: String] = [:]
            while peek() == .punctuation("[") {
                index += 1
                while peek() != .punctuation("]") {
                    let key = try identifier()
                    try expect("=")
                    attributes[key] = try identifier()
                    if peek() == .punctuation(",") || peek() == .punctuation(";") { index += 1 }
                }
                try expect("]")
            }
            return attributes
        }

        guard try next() == .id("digraph") else { throw ReadError(offset: 0, message: "expected digraph") }
        if case .id(let name)? = peek() {
            self.name = name
            index += 1
        }
        try expect("{")
        var open: [String] = []   // the subgraphs being read, outermost first
        var anonymous = 0
        while true {
            guard let token = peek() else { throw ReadError(offset: offset(), message: "unclosed {") }
            switch token {
            case .punctuation("}"):
                index += 1
                if open.isEmpty {
                    guard peek() == nil else { throw ReadError(offset: offset(), message: "text after the graph") }
                    return
                }
                open.removeLast()
            case .punctuation(";"):
                index += 1
            case .id("subgraph"):
                index += 1
                var name: String
                if case .id(let given)? = peek() {
                    name = given
                    index += 1
                } else {
                    anonymous += 1
                    name = "subgraph \(anonymous)"
                }
                guard subgraphs[name] == nil else { throw ReadError(offset: offset(), message: "subgraph \(name) twice") }
                try expect("{")
                subgraphs[name] = Subgraph()
                open.append(name)
            case .id("graph"), .id("node"), .id("edge"):
                index += 1
                guard peek() == .punctuation("[") else { throw ReadError(offset: offset(), message: "expected [") }
                _ = try attributeList()
            case .id(let first):
                index += 1
                if peek() == .punctuation("=") {
                    index += 1
                    let value = try identifier()
                    if let current = open.last { subgraphs[current]?.attributes[first] = value }
                    continue
                }
                var chain = [first]
                while peek() == .punctuation("->") {
                    index += 1
                    chain.append(try identifier())
                }
                let attributes = try attributeList()
                for id in chain where nodes[id] == nil {
                    nodes[id] = Node(subgraphs: open)
                    for subgraph in open { subgraphs[subgraph]?.nodes.append(id) }
                }
                if chain.count == 1 {
                    nodes[first]?.attributes.merge(attributes) { $1 }
                } else {
                    for pair in zip(chain, chain.dropFirst()) {
                        edges.append(Edge(from: pair.0, to: pair.1, attributes: attributes))
                    }
                }
            case .punctuation(let other):
                throw ReadError(offset: offset(), message: "unexpected \(other)")
            }
        }
    }

    private static func tokens(of scalars: [Unicode.Scalar]) throws -> [(Token, Int)] {
        var tokens: [(Token, Int)] = []
        var index = 0
        func isPlain(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar == "." || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar) || scalar.value >= 0x80
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let start = index
            switch scalar {
            case " ", "\t", "\n", "\r":
                index += 1
            case "{", "}", "[", "]", ";", ",", "=":
                tokens.append((.punctuation(String(scalar)), start))
                index += 1
            case "-":
                guard index + 1 < scalars.count, scalars[index + 1] == ">" else {
                    throw ReadError(offset: start, message: "a lone -")
                }
                tokens.append((.punctuation("->"), start))
                index += 2
            case "\"":
                var value = String.UnicodeScalarView()
                index += 1
                while true {
                    guard index < scalars.count else { throw ReadError(offset: start, message: "unclosed string") }
                    let character = scalars[index]
                    if character == "\"" { break }
                    if character == "\n" { throw ReadError(offset: index, message: "a raw newline in a string") }
                    if character == "\\", index + 1 < scalars.count {
                        let escaped = scalars[index + 1]
                        if escaped == "\"" || escaped == "\\" {
                            value.append(escaped)
                        } else {
                            // DOT keeps other escapes (\n, \l) for the renderer.
                            value.append("\\")
                            value.append(escaped)
                        }
                        index += 2
                        continue
                    }
                    value.append(character)
                    index += 1
                }
                index += 1
                tokens.append((.id(String(value)), start))
            default:
                guard isPlain(scalar) else { throw ReadError(offset: start, message: "unexpected \(scalar)") }
                while index < scalars.count, isPlain(scalars[index]) { index += 1 }
                tokens.append((.id(String(String.UnicodeScalarView(scalars[start..<index]))), start))
            }
        }
        return tokens
    }
}
