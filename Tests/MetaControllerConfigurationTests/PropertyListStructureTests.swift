import Foundation
import MetaController
@testable import MetaControllerConfiguration
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

/// The scans of XML and binary property lists that run before Foundation's
/// recursive decoders: depth, duplicate keys, references that cannot be followed.
@Suite struct PropertyListStructureTests {
    // MARK: XML

    @Test(arguments: [
        ("<plist><dict><key>a</key><array><dict/><array/></array></dict></plist>", 2),
        ("<plist><!-- <dict><dict><dict> --><array></array></plist>", 1),
        ("<plist><array><string><![CDATA[<array><array><array>]]></string></array></plist>", 1),
        ("<?xml version=\"1.0\"?><!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"x\"><plist><array ></array></plist>", 1),
        ("<plist><dictionary><arrays><dict\n><array\t/></dict></plist>", 1),
        ("<plist><array><array><array", 2),
        ("<", 0),
    ])
    func xmlDepthCountsContainerTags(xml: String, depth: Int) {
        #expect(PropertyListStructure.problem(inXML: Data(xml.utf8), depthLimit: depth) == nil)
        #expect(depth == 0 || PropertyListStructure.problem(inXML: Data(xml.utf8), depthLimit: depth - 1) == .tooDeep)
    }

    @Test(arguments: [
        ("<dict><key>api</key><dict/><key>api</key><dict/></dict>", "api"),
        ("<dict><key>a</key><true/><key>&#97;</key><true/></dict>", "a"),
        ("<dict><key>a</key><true/><key>&#x61;</key><true/></dict>", "a"),
        ("<dict><key>a&amp;b</key><true/><key>a&#38;b</key><true/></dict>", "a&b"),
        ("<dict><key>ab</key><true/><key>a<![CDATA[b]]></key><true/></dict>", "ab"),
        ("<dict><key>ab</key><true/><key>a<!-- x -->b</key><true/></dict>", "ab"),
        ("<dict><key>\u{E9}</key><true/><key>e\u{301}</key><true/></dict>", "\u{E9}"),   // canonically equivalent
        ("<dict><key/><true/><key></key><true/></dict>", ""),
        ("<dict><key >x</key ><true/><key>x</key><true/></dict>", "x"),
        (
            """
            <dict><key>log</key><dict><key>destinations</key><array><dict><key>kind</key><string>memory</string>\
            <key>level</key><string>debug</string><key>level</key><string>info</string></dict></array></dict></dict>
            """, "log.destinations[0].level"
        ),
        ("<array><string>x</string><dict/><dict><key>k</key><true/><key>k</key><true/></dict></array>", "[2].k"),
    ])
    func xmlKeysThatAppearTwiceAreNamed(body: String, path: String) {
        let xml = "<?xml version=\"1.0\"?><plist version=\"1.0\">\(body)</plist>"
        #expect(PropertyListStructure.problem(inXML: Data(xml.utf8), depthLimit: 64) == .duplicateKey(path: path))
    }

    @Test(arguments: [
        "<dict><key>a</key><dict><key>a</key><true/></dict></dict>",   // one in each dictionary
        "<dict><key>a</key><true/><key>A</key><true/><key>a </key><true/></dict>",
        "<dict><key>a</key><string>&lt;key&gt;a&lt;/key&gt;</string></dict>",   // a key's text in a value
        "<dict><key>a</key><string><![CDATA[<key>a</key>]]></string></dict>",
        "<dict><key>a</key><true/><!-- <key>a</key> --></dict>",
        "<array><key>a</key><key>a</key></array>",   // not keys of a dictionary: the decoder refuses them
        "<dict><key>a</key><true/><key>a<b/></key><true/></dict>",   // an element in a key: the decoder refuses it
        "<dict><key>&bogus;</key><true/><key>&amp;bogus;</key><true/></dict>",   // an unknown entity: the decoder refuses it
    ])
    func xmlKeysThatDifferOrAreNotKeysPass(body: String) {
        let xml = "<plist>\(body)</plist>"
        #expect(PropertyListStructure.problem(inXML: Data(xml.utf8), depthLimit: 64) == nil)
    }

    @Test func xmlKeysThatAreNotUTF8AreLeftToTheDecoder() {
        // Two different Latin-1 keys are two invalid UTF-8 sequences; neither is compared.
        let xml =
            Data("<plist><dict><key>".utf8) + Data([0xE9]) + Data("</key><true/><key>".utf8) + Data([0xE8])
            + Data("</key><true/></dict></plist>".utf8)
        #expect(PropertyListStructure.problem(inXML: xml, depthLimit: 64) == nil)
    }

    /// Built and measured on a thread of its own, so as not to hold up the test runner's threads.
    @Test func tenMegabytesOfShallowXMLPass() async {
        let results = await onSmallStack { () -> [Bool] in
            let xml = Data(("<plist><array>" + String(repeating: "<array/><dict></dict>", count: 500_000) + "</array></plist>").utf8)
            return [xml.count > 10_000_000, PropertyListStructure.problem(inXML: xml, depthLimit: 2) == nil]
        }
        #expect(results == [true, true])
    }

    @Test func aDuplicateAmongAHundredThousandXMLKeysIsFoundOnASmallStack() async {
        let problem = await onSmallStack { () -> StructureProblem? in
            let keys = (0..<100_000).map { "<key>k\($0)</key><integer>\($0)</integer>" }.joined()
            let xml = "<plist><dict>\(keys)<key>k0</key><true/></dict></plist>"
            return PropertyListStructure.problem(inXML: Data(xml.utf8), depthLimit: 64)
        }
        #expect(problem == .duplicateKey(path: "k0"))
    }

    /// 100,000 levels of elements that are not containers (only the decoder refuses them),
    /// and two 10 MB keys that differ in their last byte, then the same key again.
    @Test func deepOtherElementsAndTenMegabyteKeysAreScannedOnASmallStack() async {
        let problems = await onSmallStack { () -> [StructureProblem?] in
            let deep =
                "<plist><dict><key>a</key>" + String(repeating: "<s>", count: 100_000)
                + String(repeating: "</s>", count: 100_000) + "<key>a</key><true/></dict></plist>"
            let long = String(repeating: "k", count: 10_000_000)
            let keys = "<plist><dict><key>\(long)1</key><true/><key>\(long)2</key><true/>"
            return [
                PropertyListStructure.problem(inXML: Data(deep.utf8), depthLimit: 64),
                PropertyListStructure.problem(inXML: Data((keys + "</dict></plist>").utf8), depthLimit: 64),
                PropertyListStructure.problem(inXML: Data((keys + "<key>\(long)1</key><true/></dict></plist>").utf8), depthLimit: 64),
            ]
        }
        #expect(problems[0] == .duplicateKey(path: "a"))
        #expect(problems[1] == nil)
        #expect(problems[2].map { if case .duplicateKey(let path) = $0 { path.count } else { 0 } } == 10_000_001)
    }

    // MARK: Binary

    /// An object of a hand-made binary property list.
    enum Object {
        case ascii(String)
        case utf16(String)
        case integer
        case array([Int])
        /// Key references, then value references.
        case dictionary([(key: Int, value: Int)])
    }

    /// A `bplist00` of `objects`, with 4-byte offsets and references; object 0 is the top.
    static func binary(_ objects: [Object], top: UInt64 = 0) -> Data {
        var bytes = Array("bplist00".utf8), offsets: [Int] = []
        func marker(_ type: UInt8, _ count: Int) {
            if count < 15 {
                bytes.append(type << 4 | UInt8(count))
            } else {
                bytes += [type << 4 | 0x0F, 0x12] + withUnsafeBytes(of: UInt32(count).bigEndian, Array.init)
            }
        }
        func references(_ numbers: [Int]) {
            for number in numbers { bytes += withUnsafeBytes(of: UInt32(number).bigEndian, Array.init) }
        }
        for object in objects {
            offsets.append(bytes.count)
            switch object {
            case .ascii(let text):
                marker(0x5, text.utf8.count)
                bytes += text.utf8
            case .utf16(let text):
                marker(0x6, text.utf16.count)
                for unit in text.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            case .integer:
                bytes += [0x10, 7]
            case .array(let elements):
                marker(0xA, elements.count)
                references(elements)
            case .dictionary(let entries):
                marker(0xD, entries.count)
                references(entries.map(\.key) + entries.map(\.value))
            }
        }
        let table = bytes.count
        for offset in offsets { bytes += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4]
        for value in [UInt64(objects.count), top, UInt64(table)] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        return Data(bytes)
    }

    private static func problem(_ objects: [Object], depthLimit: Int = 64) -> StructureProblem? {
        PropertyListStructure.problem(inBinary: binary(objects), depthLimit: depthLimit)
    }

    @Test func binaryKeysThatAppearTwiceAreNamed() {
        // Two string objects with the same text, one object referenced twice, ASCII and UTF-16 spellings.
        #expect(Self.problem([.dictionary([(1, 3), (2, 3)]), .ascii("api"), .ascii("api"), .integer]) == .duplicateKey(path: "api"))
        #expect(Self.problem([.dictionary([(1, 2), (1, 2)]), .ascii("api"), .integer]) == .duplicateKey(path: "api"))
        #expect(Self.problem([.dictionary([(1, 3), (2, 3)]), .ascii("a"), .utf16("a"), .integer]) == .duplicateKey(path: "a"))
        #expect(Self.problem([.dictionary([(1, 3), (2, 3)]), .utf16("\u{E9}"), .utf16("e\u{301}"), .integer]) == .duplicateKey(path: "\u{E9}"))
        // log.destinations[0].level, the entries' values after their keys.
        let nested: [Object] = [
            .dictionary([(1, 2)]), .ascii("log"), .dictionary([(3, 4)]), .ascii("destinations"), .array([9, 5]),
            .dictionary([(6, 9), (7, 9), (8, 9)]), .ascii("kind"), .ascii("level"), .utf16("level"), .integer,
        ]
        #expect(Self.problem(nested) == .duplicateKey(path: "log.destinations[1].level"))
    }

    @Test func binaryKeysThatDifferPass() {
        #expect(Self.problem([.dictionary([(1, 3), (2, 3)]), .ascii("a"), .ascii("A"), .integer]) == nil)
        // The same key in two dictionaries, and one dictionary shared by two places.
        #expect(Self.problem([.array([1, 1, 3]), .dictionary([(2, 4)]), .ascii("a"), .dictionary([(2, 4)]), .integer]) == nil)
        // Keys that are not strings, or not ASCII in an ASCII string, are left to the decoder.
        #expect(Self.problem([.dictionary([(1, 1), (1, 1)]), .integer]) == nil)
        #expect(Self.problem([.dictionary([(1, 3), (2, 3)]), .ascii("\u{E9}"), .ascii("\u{E8}"), .integer]) == nil)
    }

    @Test func binaryPropertyListsFromTheEncoderAreMeasured() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let data = try encoder.encode(["a": [[1, 2], [3]], "b": []] as [String: [[Int]]])
        #expect(PropertyListStructure.problem(inBinary: data, depthLimit: 3) == nil)
        #expect(PropertyListStructure.problem(inBinary: data, depthLimit: 2) == .tooDeep)
        #expect(PropertyListStructure.problem(inBinary: try encoder.encode([Int]()), depthLimit: 1) == nil)
    }

    @Test func sharedObjectsAreMeasuredOnceAndCyclesRefused() {
        // 14 levels, each array holding the next one twice: 2^14 paths, 15 objects.
        var diamond: [Object] = (0..<14).map { .array([$0 + 1, $0 + 1]) }
        diamond.append(.integer)
        #expect(Self.problem(diamond, depthLimit: 14) == nil)
        #expect(Self.problem(diamond, depthLimit: 13) == .tooDeep)
        #expect(Self.problem([.array([1]), .array([0])]) == .unfollowable)
        #expect(Self.problem([.array([0])]) == .unfollowable)
        #expect(Self.problem([.dictionary([(1, 0)]), .ascii("a")]) == .unfollowable)
    }

    @Test func binaryPropertyListsThatCannotBeFollowedAreRefused() {
        #expect(Self.problem([.array([5])]) == .unfollowable)   // reference out of range
        #expect(Self.problem([.dictionary([(5, 0)])]) == .unfollowable)   // key out of range
        #expect(PropertyListStructure.problem(inBinary: Self.binary([.integer], top: 1), depthLimit: 64) == .unfollowable)
        #expect(PropertyListStructure.problem(inBinary: Data("bplist00".utf8), depthLimit: 64) == .unfollowable)
        var truncated = Self.binary([.array([1]), .integer])
        truncated.removeFirst(9)
        #expect(PropertyListStructure.problem(inBinary: Data("bplist00".utf8) + truncated, depthLimit: 64) == .unfollowable)
        var generator = SeededGenerator(seed: 7)
        let original = [UInt8](Self.binary([.dictionary([(1, 3), (2, 4)]), .ascii("ab"), .utf16("cd"), .array([4]), .integer]))
        for _ in 0..<5_000 {
            var bytes = original
            for _ in 0..<3 { bytes[Int.random(in: 8..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = PropertyListStructure.problem(inBinary: Data(bytes), depthLimit: 64)   // must not trap
        }
    }

    @Test func aDuplicateAmongAHundredThousandBinaryKeysIsFoundOnASmallStack() async {
        let problem = await onSmallStack { () -> StructureProblem? in
            let count = 100_000
            var objects: [Object] = [.dictionary((0...count).map { (1 + $0 % count, count + 1) })]
            objects += (0..<count).map { .ascii("k\($0)") }
            objects.append(.integer)
            return Self.problem(objects)
        }
        #expect(problem == .duplicateKey(path: "k0"))
    }

    // MARK: Both, against a model

    /// A random value of a property list, with keys from a small alphabet so that duplicates happen.
    indirect enum Value {
        case leaf
        case array([Value])
        case dictionary([(String, Value)])

        static func random(depth: Int, using generator: inout SeededGenerator) -> Value {
            let kind = depth == 0 ? 0 : Int.random(in: 0...2, using: &generator)
            let count = Int.random(in: 0...4, using: &generator)
            switch kind {
            case 1: return .array((0..<count).map { _ in random(depth: depth - 1, using: &generator) })
            case 2:
                let names = ["a", "b", "<&>", "\u{E9}", "e\u{301}", "\u{1F600}"]
                return .dictionary(
                    (0..<count).map { _ in
                        (names.randomElement(using: &generator)!, random(depth: depth - 1, using: &generator))
                    })
            default: return .leaf
            }
        }

        /// The path of the first key that appears twice in one dictionary: in
        /// document order (as XML is read), or with each dictionary's keys
        /// compared before its values are visited (as a binary property list is walked).
        func firstDuplicate(keysFirst: Bool, below steps: [StructureProblem.Step] = []) -> String? {
            switch self {
            case .leaf: return nil
            case .array(let elements):
                for (number, element) in elements.enumerated() {
                    if let found = element.firstDuplicate(keysFirst: keysFirst, below: steps + [.index(number)]) { return found }
                }
                return nil
            case .dictionary(let entries):
                var seen: Set<String> = []
                if keysFirst {
                    for (key, _) in entries where !seen.insert(key).inserted { return StructureProblem.path(steps + [.key(key)]) }
                }
                for (key, value) in entries {
                    if !keysFirst, !seen.insert(key).inserted { return StructureProblem.path(steps + [.key(key)]) }
                    if let found = value.firstDuplicate(keysFirst: keysFirst, below: steps + [.key(key)]) { return found }
                }
                return nil
            }
        }

        /// XML, each key's text spelled one of several ways.
        func xml(using generator: inout SeededGenerator) -> String {
            switch self {
            case .leaf: return "<integer>1</integer>"
            case .array(let elements): return "<array>" + elements.map { $0.xml(using: &generator) }.joined() + "</array>"
            case .dictionary(let entries):
                return "<dict>"
                    + entries.map { key, value in
                        let spelled: String
                        switch Int.random(in: 0...3, using: &generator) {
                        case 0: spelled = key.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                        case 1: spelled = key.unicodeScalars.map { "&#\($0.value);" }.joined()
                        case 2: spelled = key.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined()
                        default: spelled = "<![CDATA[\(key)]]>"
                        }
                        return "<key>\(spelled)</key>" + value.xml(using: &generator)
                    }.joined() + "</dict>"
            }
        }

        /// Appends the objects of a binary property list, each key a new string object, ASCII when it can be.
        func objects(into objects: inout [Object]) -> Int {
            let number = objects.count
            objects.append(.integer)
            switch self {
            case .leaf: break
            case .array(let elements):
                objects[number] = .array(elements.map { $0.objects(into: &objects) })
            case .dictionary(let entries):
                objects[number] = .dictionary(
                    entries.map { key, value in
                        let keyNumber = objects.count
                        objects.append(key.utf8.allSatisfy { $0 < 0x80 } ? .ascii(key) : .utf16(key))
                        return (keyNumber, value.objects(into: &objects))
                    })
            }
            return number
        }
    }

    @Test func aSeededSweepFindsTheDuplicatesAModelFinds() {
        var generator = SeededGenerator(seed: 14)
        var duplicates = 0
        for _ in 0..<2_000 {
            let value = Value.random(depth: 4, using: &generator)
            let expected = value.firstDuplicate(keysFirst: false).map { StructureProblem.duplicateKey(path: $0) }
            let expectedInBinary = value.firstDuplicate(keysFirst: true).map { StructureProblem.duplicateKey(path: $0) }
            let xml = Data(("<plist>" + value.xml(using: &generator) + "</plist>").utf8)
            var objects: [Object] = []
            _ = value.objects(into: &objects)
            #expect(PropertyListStructure.problem(inXML: xml, depthLimit: 64) == expected)
            #expect(Self.problem(objects) == expectedInBinary)
            if expected != nil { duplicates += 1 }
        }
        #expect(duplicates > 200 && duplicates < 1_800)
    }

    @Test func whatTheEncoderWritesPasses() throws {
        struct Entry: Codable { var name: String; var tags: [String: [Int]] }
        let value = ["a": [Entry(name: "x", tags: ["<&>": [1], "\u{E9}": [], "\u{1F600}": [2, 3]])], "b": []]
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            let data = try encoder.encode(value)
            let problem =
                format == .xml
                ? PropertyListStructure.problem(inXML: data, depthLimit: 64) : PropertyListStructure.problem(inBinary: data, depthLimit: 64)
            #expect(problem == nil)
        }
    }
}
