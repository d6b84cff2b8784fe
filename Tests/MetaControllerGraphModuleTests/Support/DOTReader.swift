/// A small reader of GraphViz DOT, written from the language's grammar
/// (https://graphviz.org/doc/info/lang.html) for the tests alone: it shares no
/// code with the package's writer, so text the writer gets wrong fails here.
///
/// It reads a `digraph` with attribute statements, `ID = ID` statements, node
/// and edge statements (`a -> b -> c`), attribute lists, and subgraphs to any
/// depth (kept on a stack of its own, not by recursion). IDs are plain
/// (letters, digits, `_`), numerals, or quoted, pieces joined with `+`. In a
/// quoted ID, as in GraphViz, `\"` is a quote and every other backslash stays
/// (a label's `\\`, `\n` are read when it is drawn: ``shown(_:)``). A control
/// character or U+FFFE, U+FFFF in an ID is an error, as GraphViz refuses a NUL
/// and writes the others into SVG that is not XML; so is an ID, or a quoted
/// piece of one, of more than 16,384 bytes, which GraphViz 2 refuses. Anything
/// else is an error, with the offset where it was met.
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
        var lastQuoted: Int?
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
            case "+":
                // `"a" + "b"` is one ID, "ab".
                guard lastQuoted == tokens.count - 1, case .id(let head)? = tokens.last?.0 else {
                    throw ReadError(offset: start, message: "a + after no quoted string")
                }
                index += 1
                while index < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[index]) { index += 1 }
                guard index < scalars.count, scalars[index] == "\"" else {
                    throw ReadError(offset: start, message: "a + before no quoted string")
                }
                let (tail, end) = try quoted(scalars, from: index)
                index = end
                tokens[tokens.count - 1].0 = .id(head + tail)
            case "-":
                guard index + 1 < scalars.count, scalars[index + 1] == ">" else {
                    throw ReadError(offset: start, message: "a lone -")
                }
                tokens.append((.punctuation("->"), start))
                index += 2
            case "\"":
                let (value, end) = try quoted(scalars, from: index)
                index = end
                tokens.append((.id(value), start))
                lastQuoted = tokens.count - 1
            default:
                guard isPlain(scalar) else { throw ReadError(offset: start, message: "unexpected \(scalar)") }
                while index < scalars.count, isPlain(scalars[index]) { index += 1 }
                guard String(String.UnicodeScalarView(scalars[start..<index])).utf8.count <= 16_384 else {
                    throw ReadError(offset: start, message: "an ID longer than GraphViz 2 reads")
                }
                tokens.append((.id(String(String.UnicodeScalarView(scalars[start..<index]))), start))
            }
        }
        return tokens
    }

    /// The quoted string that starts at `start`, and the offset after it.
    private static func quoted(_ scalars: [Unicode.Scalar], from start: Int) throws -> (String, Int) {
        var value = String.UnicodeScalarView()
        var index = start + 1
        while true {
            guard index < scalars.count else { throw ReadError(offset: start, message: "unclosed string") }
            let character = scalars[index]
            if character == "\"" { break }
            if character == "\n" { throw ReadError(offset: index, message: "a raw newline in a string") }
            if character.properties.generalCategory == .control || character.value == 0xFFFE || character.value == 0xFFFF {
                throw ReadError(offset: index, message: "a control character in a string: U+\(String(character.value, radix: 16))")
            }
            if character == "\\", index + 1 < scalars.count {
                let escaped = scalars[index + 1]
                if escaped != "\"" {
                    // GraphViz keeps other escapes (\\, \n, \l) for the renderer.
                    value.append("\\")
                }
                value.append(escaped)
                index += 2
                continue
            }
            value.append(character)
            index += 1
        }
        guard String(value).utf8.count <= 16_384 else {
            throw ReadError(offset: start, message: "a quoted string longer than GraphViz 2 reads")
        }
        return (String(value), index + 1)
    }

    /// A label as GraphViz draws it: `\\` a backslash, `\n`, `\l` and `\r` a
    /// line break, and an HTML entity (`&amp;`, `&#37;`) its character. Throws
    /// on the escapes GraphViz replaces with the node's or the graph's name
    /// (`\N`, `\G`, `\E`, `\T`, `\H`, `\L`) and on any other.
    static func shown(_ label: String) throws -> String {
        var text = ""
        var scalars = Array(label.unicodeScalars)[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            switch scalar {
            case "\\":
                guard let escaped = scalars.first else { throw ReadError(offset: 0, message: "a \\ at the end of \(label)") }
                scalars = scalars.dropFirst()
                switch escaped {
                case "\\": text += "\\"
                case "n", "l", "r": text += "\n"
                default: throw ReadError(offset: 0, message: "an escape GraphViz would replace: \\\(escaped)")
                }
            case "&":
                guard let semicolon = scalars.firstIndex(of: ";"), semicolon - scalars.startIndex <= 8 else {
                    text += "&"
                    continue
                }
                let name = String(String.UnicodeScalarView(scalars[..<semicolon]))
                let entities = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
                if let character = entities[name] {
                    text += character
                } else if name.hasPrefix("#"), let value = UInt32(name.dropFirst()), let decoded = Unicode.Scalar(value) {
                    text.unicodeScalars.append(decoded)
                } else {
                    text += "&"
                    continue
                }
                scalars = scalars[scalars.index(after: semicolon)...]
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
