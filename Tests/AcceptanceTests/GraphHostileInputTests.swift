import Foundation
import MetaController
import MetaControllerTesting
import Testing

/// Characters that must not reach a picture or a line-based text raw.
func rawControls(in text: String, allowingLineFeed: Bool = true) -> [String] {
    var found: [String] = []
    for scalar in text.unicodeScalars {
        let value = scalar.value
        if value == 0x0A && allowingLineFeed { continue }
        if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
            found.append(String(format: "U+%04X", value))
        }
    }
    return Array(Set(found)).sorted()
}

/// The identifier a Mermaid node declaration line starts with (`  slot_x[("...")]` → `slot_x`).
func mermaidDeclaredIdentifiers(_ text: String) -> [String] {
    text.split(separator: "\n").compactMap { raw -> String? in
        let line = raw.trimmingCharacters(in: .whitespaces)
        guard !line.hasPrefix("subgraph"), !line.hasPrefix("classDef"), !line.hasPrefix("class "),
            !line.hasPrefix("linkStyle"), !line.hasPrefix("flowchart"), line != "end",
            !line.contains(" --> "), !line.contains(" -.-> "), !line.contains(" -->|"), !line.contains(" -.->|")
        else { return nil }
        guard let open = line.firstIndex(where: { $0 == "(" || $0 == "[" }) else { return nil }
        return String(line[..<open])
    }
}

/// Decodes a label as Mermaid's parser hands it over, the way the browser then shows it: the parser
/// keeps entity codes (`#quot;`, `#35;`) as ﬂ°quot¶ß and ﬂ°°35¶ß and a quoted label with its quotes;
/// drawing turns them into HTML entities (`&quot;`, `&#35;`), which the browser decodes, as it
/// decodes any other entity in the label; `<br/>` is a line break.
func renderedMermaidLabel(_ label: String) -> String {
    var text = label
    if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
    text = text.replacingOccurrences(of: "ﬂ°°", with: "&#").replacingOccurrences(of: "ﬂ°", with: "&").replacingOccurrences(of: "¶ß", with: ";")
    text = text.replacingOccurrences(of: "<br/>", with: "\n").replacingOccurrences(of: "<br>", with: "\n")
    let named = ["quot": "\"", "lt": "<", "gt": ">", "amp": "&", "apos": "'", "nbsp": "\u{A0}"]
    var out = ""
    var index = text.startIndex
    while index < text.endIndex {
        if text[index] == "&", let semi = text[index...].firstIndex(of: ";"), text.distance(from: index, to: semi) < 12 {
            let body = String(text[text.index(after: index)..<semi])
            if body.hasPrefix("#"), let value = UInt32(body.dropFirst()), let scalar = Unicode.Scalar(value) {
                out.unicodeScalars.append(scalar); index = text.index(after: semi); continue
            }
            if let char = named[body] { out += char; index = text.index(after: semi); continue }
        }
        out.append(text[index]); index = text.index(after: index)
    }
    return out
}

/// Registers a factory for each hostile name, each requesting the next, beside a hostile slot
/// and a consumer type whose own name is hostile.
@MainActor
func hostileGraphMetaController(names: [String] = hostileNames) -> MetaController {
    let metaController = MetaController()
    metaController.apiController = FakeApiController()
    metaController[HostileKey.self] = 1
    for (index, name) in names.enumerated() {
        let next = index + 1 < names.count ? names[index + 1] : nil
        metaController.register(Named.self, name: name) { m in
            if let next { _ = try m.make(Named.self, name: next) }
            return Named()
        }
    }
    metaController.register(`Пример例子مثال`.self) { _ in `Пример例子مثال`() }
    return metaController
}

@Suite("graph: names and shapes that attack the pictures")
@MainActor
struct GraphHostileInputTests {
    @Test func twoTypesWithTheSameUnqualifiedNameAreTwoRegistrations() {
        let metaController = MetaController()
        metaController.register(ModuleA.Screen.self) { _ in ModuleA.Screen() }
        metaController.register(ModuleB.Screen.self) { _ in ModuleB.Screen() }
        let graph = metaController.graph()
        #expect(graph.verification.factoriesChecked == 2)
        #expect(graph.nodes.filter { $0.kind == .registration }.count == 2, "\(graph.nodes.map(\.id))")
        #expect(Set(graph.nodes.map(\.id)).count == graph.nodes.count)
    }

    @Test func twoConsumerTypesWithTheSameUnqualifiedNameAreTwoConsumers() {
        let metaController = MetaController()
        let graph = metaController.graph(consumers: [FeatureA.Home.self, FeatureB.Home.self])
        #expect(graph.verification.consumerTypesChecked == 2)
        #expect(graph.nodes.filter { $0.kind == .consumer }.count == 2, "\(graph.nodes.map(\.id))")
        #expect(graph.verification.problems.count == 2)
    }

    @Test func twoSlotsWhoseKeysShareANameAreTwoNodes() {
        let metaController = MetaController()
        metaController[FirstUsersKey.self] = 1
        metaController[SecondUsersKey.self] = 2
        let graph = metaController.graph()
        #expect(graph.nodes.filter { $0.kind == .slot }.count == 2, "\(graph.nodes.map(\.id))")
    }

    @Test func aFactoryNameCannotImpersonateARegistrationWithAnArgument() {
        let metaController = MetaController()
        metaController.register(Named.self, name: "C\" from Int") { _ in Named() }
        metaController.register(Named.self, name: "C", argument: Int.self, sample: 1) { _, _ in Named() }
        let graph = metaController.graph()
        #expect(graph.verification.factoriesChecked == 2)
        #expect(Set(graph.nodes.map(\.id)).count == 2, "\(graph.nodes.map(\.id))")
    }

    @Test func namesThatDifferOnlyInPunctuationHaveDistinctMermaidIdentifiers() {
        let metaController = MetaController()
        for name in ["a b", "a_b", "a-b", "a.b", "a/b", "a:b", "a\"b", "a\nb", "a b ", "a__b"] {
            metaController.register(Named.self, name: name) { _ in Named() }
        }
        metaController.register(`two words`.self) { _ in `two words`() }
        metaController.register(`two_words`.self) { _ in `two_words`() }
        let graph = metaController.graph()
        let identifiers = mermaidDeclaredIdentifiers(graph.mermaid)
        #expect(identifiers.count == graph.nodes.count)
        #expect(Set(identifiers).count == identifiers.count, "\(identifiers.sorted())")
    }

    @Test func hostileNamesLeaveNoRawControlCharacterInAnyForm() {
        let graph = hostileGraphMetaController().graph(consumers: [`Odd "Screen" <T> %&#|;{}[]()`.self])
        #expect(rawControls(in: graph.mermaid).isEmpty, "mermaid: \(rawControls(in: graph.mermaid))")
        #expect(rawControls(in: graph.dot).isEmpty, "dot: \(rawControls(in: graph.dot))")
        #expect(rawControls(in: graph.description).isEmpty, "description: \(rawControls(in: graph.description))")
    }

    @Test func withHostileNamesTheTextIsStillOneLinePerNodeAndEdge() {
        let graph = hostileGraphMetaController().graph(consumers: [`Odd "Screen" <T> %&#|;{}[]()`.self])
        let lines = graph.description.split(separator: "\n", omittingEmptySubsequences: false)
        let problemLines = lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("problem:") }.count
        let headers =
            1 + graph.scopes.count + (graph.nodes.contains { $0.kind == .consumer } ? 1 : 0)
            + (graph.nodes.contains { $0.kind == .missingProduct || $0.kind == .missingSlot } ? 1 : 0)
        #expect(lines.count == headers + graph.nodes.count + graph.edges.count + problemLines)
    }

    @Test func withHostileNamesEachNodeDescribesItselfInOneLine() {
        let graph = hostileGraphMetaController().graph()
        let multiLine = graph.nodes.filter { $0.description.contains("\n") || $0.description.contains("\r") }
        #expect(multiLine.isEmpty, "\(multiLine.map(\.description).prefix(3))")
    }

    @Test func withHostileNamesEveryMermaidNodeIsDeclaredOnceOnOneLine() {
        let graph = hostileGraphMetaController().graph(consumers: [`Odd "Screen" <T> %&#|;{}[]()`.self])
        let identifiers = mermaidDeclaredIdentifiers(graph.mermaid)
        #expect(identifiers.count == graph.nodes.count)
        #expect(Set(identifiers).count == identifiers.count)
        #expect(mermaidEdgeLines(graph.mermaid).count == graph.edges.count)
    }

    @Test(.enabled(if: Tools.hasMermaid, "needs node and mermaid-parser-py"))
    func mermaidsParserReadsHostileNamesWithEveryNodeAndEdge() async throws {
        let graph = hostileGraphMetaController().graph(consumers: [`Odd "Screen" <T> %&#|;{}[]()`.self])
        let parsed = try await parseMermaid(graph.mermaid)
        #expect(parsed.ok, "\(parsed.error ?? "")")
        #expect(parsed.vertices == graph.nodes.count)
        #expect(parsed.edges == graph.edges.count)
    }

    /// Each hostile name drawn alone, so that one refusal names its culprit.
    @Test(.enabled(if: Tools.hasMermaid, "needs node and mermaid-parser-py"))
    func mermaidsParserReadsEachHostileNameAlone() async throws {
        var refused: [String] = []
        for name in hostileNames where name.count < 100 {
            let metaController = MetaController()
            metaController.register(Named.self, name: name) { m in
                _ = try? m.make(Extra.self); return Named()
            }
            let graph = metaController.graph()
            let parsed = try await parseMermaid(graph.mermaid)
            if !parsed.ok || parsed.vertices != graph.nodes.count || parsed.edges != graph.edges.count {
                refused.append("\(name.debugDescription): \(parsed.error?.prefix(160) ?? "\(parsed.vertices) vertices, \(parsed.edges) edges")")
            }
        }
        #expect(refused.isEmpty, "\(refused.joined(separator: "\n"))")
    }

    @Test(.enabled(if: Tools.hasMermaid, "needs node and mermaid-parser-py"))
    func mermaidLabelsShowThePrintableNamesAsTheyAre() async throws {
        let printable = hostileNames.filter { rawControls(in: $0, allowingLineFeed: false).isEmpty && $0.count < 100 }
        var wrong: [String] = []
        for name in printable {
            let metaController = MetaController()
            metaController.register(Named.self, name: name) { _ in Named() }
            let parsed = try await parseMermaid(metaController.graph().mermaid)
            let expected = "Named named \"\(name)\"\nper request"
            let shown = parsed.labels.map(renderedMermaidLabel)
            if shown != [expected] { wrong.append("\(name.debugDescription) shown as \(shown.map(\.debugDescription))") }
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
    }

    @Test(.enabled(if: Tools.hasDot, "needs graphviz and python3"))
    func graphvizDrawsHostileNamesIntoWellFormedSVGWithEveryNodeAndEdge() async throws {
        let graph = hostileGraphMetaController().graph(consumers: [`Odd "Screen" <T> %&#|;{}[]()`.self])
        let render = try await renderDot(graph.dot)
        #expect(render.accepted, "\(render.dotError.prefix(500))")
        #expect(render.wellFormed, "\(render.xmlError.prefix(500))")
        #expect(render.nodeCount == graph.nodes.count)
        #expect(render.edgeCount == graph.edges.count)
    }

    /// Each hostile name drawn alone, so that one refusal names its culprit.
    @Test(.enabled(if: Tools.hasDot, "needs graphviz and python3"))
    func graphvizAcceptsEachHostileNameAloneIntoWellFormedSVG() async throws {
        var refused: [String] = []
        for name in hostileNames {
            let metaController = MetaController()
            metaController.register(Named.self, name: name) { m in
                _ = try? m.make(Extra.self); return Named()
            }
            let graph = metaController.graph()
            let render = try await renderDot(graph.dot)
            if !render.accepted || !render.wellFormed || render.nodeCount != graph.nodes.count || render.edgeCount != graph.edges.count {
                refused.append(
                    "\(name.prefix(40).debugDescription): \(render.accepted ? "SVG: " + render.xmlError.prefix(120) : "dot: " + render.dotError.prefix(160))")
            }
        }
        #expect(refused.isEmpty, "\(refused.joined(separator: "\n"))")
    }

    @Test(.enabled(if: Tools.hasDot, "needs graphviz and python3"))
    func graphvizShowsThePrintableNamesAsTheyAre() async throws {
        let printable = hostileNames.filter {
            rawControls(in: $0, allowingLineFeed: false).isEmpty && $0.count < 100 && $0.trimmingCharacters(in: .whitespaces) == $0 && !$0.isEmpty
        }
        let metaController = MetaController()
        for name in printable { metaController.register(Named.self, name: name) { _ in Named() } }
        let render = try await renderDot(metaController.graph().dot)
        #expect(render.wellFormed)
        let missing = printable.filter { !render.texts.contains("Named named \"\($0)\"") }
        #expect(missing.isEmpty, "not shown as written: \(missing.map(\.debugDescription))")
    }

    @Test func aFactoryThatRequestsItselfIsACircleOfOne() {
        let metaController = MetaController()
        metaController.register(SelfRequester.self) { m in
            _ = try m.make(SelfRequester.self); return SelfRequester()
        }
        let graph = metaController.graph()
        #expect(graph.verification.problems.map(\.kind) == [.circularFactories])
        #expect(graph.verification.problems.first?.chain == ["SelfRequester", "SelfRequester"])
        let loop = graph.edges.first { $0.from == GID(.registration, "SelfRequester") }
        #expect(loop?.to == GID(.registration, "SelfRequester"))
        #expect(loop?.problems.map(\.kind) == [.circularFactories])
        // longestChain of this graph is checked in a process of its own: see GraphSelfRequestProcessTests.
    }

    @Test(arguments: [2, 3, 4, 5, 8, 50])   // a circle of 1: GraphSelfRequestProcessTests
    func aCircleOfAnyLengthIsOneProblemAndOneChainThatDoesNotGoRound(length: Int) {
        let metaController = MetaController()
        registerCircle(metaController, length: length)
        let graph = metaController.graph()
        #expect(graph.verification.problems.map(\.kind) == [.circularFactories])
        let chain = graph.verification.problems.first?.chain ?? []
        #expect(chain.count == length + 1)
        #expect(chain.first == chain.last)
        #expect(graph.edges.count == length)
        #expect(graph.longestChain.count == length)
        #expect(Set(graph.longestChain.map(\.id)).count == graph.longestChain.count)
    }

    @Test func twoCirclesThroughOneFactoryAreTwoProblems() {
        let metaController = MetaController()
        metaController.register(Named.self, name: "hub") { m in
            _ = try? m.make(Named.self, name: "left")
            _ = try? m.make(Named.self, name: "right")
            return Named()
        }
        metaController.register(Named.self, name: "left") { m in
            _ = try m.make(Named.self, name: "hub"); return Named()
        }
        metaController.register(Named.self, name: "right") { m in
            _ = try m.make(Named.self, name: "hub"); return Named()
        }
        let graph = metaController.graph()
        #expect(graph.verification.problems.filter { $0.kind == .circularFactories }.count == 2, "\(graph.verification)")
    }

    @Test(.enabled(if: Tools.hasMermaid && Tools.hasDot, "needs node, mermaid-parser-py, graphviz"))
    func circlesAndSelfRequestsDrawInBothReaders() async throws {
        let metaController = MetaController()
        metaController.register(SelfRequester.self) { m in
            _ = try m.make(SelfRequester.self); return SelfRequester()
        }
        registerCircle(metaController, length: 3)
        let graph = metaController.graph()
        let parsed = try await parseMermaid(graph.mermaid)
        #expect(parsed.ok && parsed.vertices == graph.nodes.count && parsed.edges == graph.edges.count, "\(parsed)")
        let render = try await renderDot(graph.dot)
        #expect(render.wellFormed && render.nodeCount == graph.nodes.count && render.edgeCount == graph.edges.count)
    }
}

// MARK: - A graph of 10,000 registrations

@MainActor
func tenThousandNodeMetaController() -> MetaController {
    let metaController = MetaController()
    // 100 chains of 100 per-request factories: 10,000 registrations, 9,900 requests.
    for group in 0..<100 {
        for level in 0..<100 {
            let next = level + 1 < 100 ? "g\(group)-\(level + 1)" : nil
            metaController.register(Named.self, name: "g\(group)-\(level)") { m in
                if let next { _ = try m.make(Named.self, name: next) }
                return Named()
            }
        }
    }
    return metaController
}

@Suite("graph: 10,000 registrations")
@MainActor
struct GraphLargeTests {
    @Test func everyRegistrationAndRequestOfTenThousandIsInTheGraph() {
        let graph = tenThousandNodeMetaController().graph()
        #expect(graph.verification.isSatisfied)
        #expect(graph.verification.factoriesChecked == 10_000)
        #expect(graph.nodes.count == 10_000)
        #expect(graph.edges.count == 9_900)
        #expect(Set(graph.nodes.map(\.id)).count == 10_000)
        #expect(graph.longestChain.count == 100)
        #expect(graph.unusedRegistrations.count == 100)
    }

    @Test func theTextsOfTenThousandNodesDeclareEachNodeOnce() {
        let graph = tenThousandNodeMetaController().graph()
        let identifiers = mermaidDeclaredIdentifiers(graph.mermaid)
        #expect(identifiers.count == 10_000)
        #expect(Set(identifiers).count == 10_000)
        #expect(mermaidEdgeLines(graph.mermaid).count == 9_900)
        #expect(graph.description.split(separator: "\n").count == 2 + 10_000 + 9_900)
    }

    /// SeeingTheGraph.md, "A graph too big to draw": Mermaid's defaults refuse the whole graph
    /// (9,900 edges, past its 500) with an error that names the edge limit; the part around one
    /// node, `neighborhood(of:within:)`, is a graph of its own that Mermaid's defaults draw.
    @Test(.enabled(if: Tools.hasMermaid, "needs node and mermaid-parser-py"))
    func mermaidsParserReadsANeighbourhoodOfTenThousandNodes() async throws {
        let graph = tenThousandNodeMetaController().graph()
        let whole = try await parseMermaid(graph.mermaid)
        #expect(!whole.ok && (whole.error ?? "").lowercased().contains("edge"), "\(whole.error ?? "drawn")")
        let center = GID(.registration, "Named named \"g50-50\"")
        let part = graph.neighborhood(of: center, within: 40)
        // Chain g50 from level 10 to level 90: within 40 requests of level 50, either way.
        let expected = (10...90).map { GID(.registration, "Named named \"g50-\($0)\"") }
        #expect(part.nodes.map(\.id).sorted() == expected.sorted())
        #expect(part.edges.count == 80)
        let parsed = try await parseMermaid(part.mermaid)
        #expect(parsed.ok, "\(parsed.error ?? "")")
        #expect(parsed.vertices == 81)
        #expect(parsed.edges == 80)
        #expect(Set(parsed.ids) == Set(expected.map(pictureIdentifier)))
    }
}
