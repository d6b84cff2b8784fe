import Foundation
import MetaController
@testable import MetaControllerSupport
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

/// The scan of JSON text for nesting and duplicate keys that runs before Foundation decodes it.
@Suite struct JSONStructureTests {
    private func problem(_ json: String, limit: Int = 64) -> StructureProblem? {
        JSONStructure.problem(in: Data(json.utf8), depthLimit: limit)
    }

    @Test(arguments: [
        (#"[[[]]]"#, 3),
        (#"{"a": [{"b": []}]}"#, 4),
        (#""[[[[[[[[[[""#, 0),
        (#"["\"[[[[[[", [[]]]"#, 3),
        (#"["\\", [[]]]"#, 3),
        (#"]]]]]]]]][[[]]]"#, 3),   // closers before openers cannot lower the count
        (#"{"\u12": [[]]}"#, 3),   // a broken escape does not hide the string's end
        ("", 0),
    ])
    func depthCountsBracketsOutsideStrings(json: String, depth: Int) {
        #expect(problem(json, limit: depth) == nil)
        #expect(depth == 0 || problem(json, limit: depth - 1) == .tooDeep)
    }

    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian, .utf16])
    func otherUnicodeEncodingsAreScannedInThem(encoding: String.Encoding) throws {
        // "∀" (U+2200) and "⋛" (U+22DB) hold a quotation mark's byte.
        let json = #"{"s": "∀⋛", "d": [[[[[]]]]]}"#
        let data = try #require(json.data(using: encoding))
        #expect(JSONStructure.problem(in: data, depthLimit: 5) == .tooDeep)
        #expect(JSONStructure.problem(in: data, depthLimit: 6) == nil)
        let duplicate = try #require(#"{"∀": {"😀": 1, "\ud83d\ude00": 2}}"#.data(using: encoding))
        #expect(JSONStructure.problem(in: duplicate, depthLimit: 6) == .duplicateKey(path: "∀.😀"))
    }

    @Test(arguments: [
        (#"{"a": 1, "a": 2}"#, "a"),
        (#"{"a": 1, "\u0061": 2}"#, "a"),
        (#"{"\u0041": 1, "A": 2}"#, "A"),
        (#"{"a\"b": 1, "a\u0022b": 2}"#, #"a"b"#),
        (#"{"a/b": 1, "a\/b": 2}"#, "a/b"),
        (#"{"tab\t": 1, "tab\u0009": 2}"#, "tab\t"),
        (#"{"\ud83d\ude00": 1, "😀": 2}"#, "😀"),
        (#"{"é": 1, "e\u0301": 2}"#, "é"),   // canonically equivalent: one key to a Swift dictionary
        (#"{"": 1, "": 2}"#, ""),
        (#"{"\ud800": 1, "\udc00": 2}"#, "\u{FFFD}"),   // lone surrogates both read as U+FFFD
        (#"{"log": {"destinations": [{"level": "x", "level": "y"}]}}"#, "log.destinations[0].level"),
        (#"{"a": [1, "k", {"k": 1}, {"k": 1, "k": 2}]}"#, "a[3].k"),
        (#"[[], {"b": 1, "b": 2}]"#, "[1].b"),
        (#"{"a": {"x": 1}, "b": {"x": 1}, "a": 3}"#, "a"),
    ])
    func aKeyTwiceInOneObjectIsNamedByItsPath(json: String, path: String) {
        #expect(problem(json) == .duplicateKey(path: path))
    }

    @Test(arguments: [
        #"[{"a": 1}, {"a": 1}]"#,
        #"{"a": {"b": 1}, "b": {"a": 1}}"#,
        #"{"x": "a", "a": "x", "y": ["a", "a"]}"#,
        #"{"A": 1, "a": 2, "a ": 3, "\u00e0": 4}"#,
        #"{"a": {"a": {"a": 1}}}"#,
    ])
    func keysInDifferentObjectsOrValuesAreNotDuplicates(json: String) {
        #expect(problem(json) == nil)
    }

    @Test func aHundredThousandKeysAreCheckedInLinearTime() async {
        let keys = (0..<100_000).map { #""key\#($0)": \#($0)"# }.joined(separator: ", ")
        let results = await onSmallStack { () -> [StructureProblem?] in
            [
                JSONStructure.problem(in: Data("{\(keys)}".utf8), depthLimit: 64),
                JSONStructure.problem(in: Data(#"{"outer": [{\#(keys), "key99999": 0}]}"#.utf8), depthLimit: 64),
                JSONStructure.problem(in: Data("[\(String(repeating: "{\(keys)},", count: 3))1]".utf8), depthLimit: 64),
            ]
        }
        #expect(results == [nil, .duplicateKey(path: "outer[0].key99999"), nil])
    }

    @Test func aHundredThousandLevelsAreScannedOnASmallStack() async {
        let levels = 100_000
        let nested = String(repeating: #"{"a": [0, "#, count: levels) + #"{"b": 1, "b": 2}"# + String(repeating: "]}", count: levels)
        let results = await onSmallStack { () -> [StructureProblem?] in
            [
                JSONStructure.problem(in: Data(nested.utf8), depthLimit: 64),
                JSONStructure.problem(in: Data(nested.utf8), depthLimit: 2 * levels + 1),
                JSONStructure.problem(in: Data(nested.utf8), depthLimit: 2 * levels),
            ]
        }
        #expect(results[0] == .tooDeep)
        #expect(results[1] == .duplicateKey(path: String(repeating: "a[1].", count: levels) + "b"))
        #expect(results[2] == .tooDeep)
    }

    /// Built and scanned on a thread of its own, so as not to hold up the test runner's threads.
    @Test func tenMegabytesOfShallowInputPass() async {
        let results = await onSmallStack { () -> [StructureProblem?] in
            let json = Data(("[" + String(repeating: #"[],{},{"a":"\u0061","b":{}},"#, count: 400_000) + "[]]").utf8)
            guard json.count > 10_000_000 else { return [] }
            return [JSONStructure.problem(in: json, depthLimit: 3), JSONStructure.problem(in: json, depthLimit: 2)]
        }
        #expect(results == [nil, .tooDeep])
    }
}
