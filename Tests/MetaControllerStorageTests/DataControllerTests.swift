import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// The promises of the `DataController` protocol, checked against every store with one table.
@Suite struct DataControllerTests {
    private static func stores() throws -> [(name: String, store: any DataController, cleanUp: () -> Void)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        return [
            ("file", try FileDataController(directory: directory), { try? FileManager.default.removeItem(at: directory) }),
            ("memory", MemoryDataController(), {}),
            ("fake", FakeDataController(), {}),
        ]
    }

    /// Pairs of spellings that Unicode says are the same text (canonically equivalent).
    private static let equivalentKeys: [(String, String)] = [
        ("caf\u{E9}", "cafe\u{301}"),   // é precomposed and decomposed
        ("\u{C5}ngstr\u{F6}m", "A\u{30A}ngstro\u{308}m"),   // Å and ö
        ("\u{212B}", "\u{C5}"),   // the ångström sign and Å
        ("\u{1E69}", "s\u{323}\u{307}"),   // ṩ: two marks, in canonical order
        ("\u{1E69}", "s\u{307}\u{323}"),   // ṩ: two marks, the other order
        ("\u{AC00}", "\u{1100}\u{1161}"),   // a Hangul syllable and its jamo
    ]

    @Test(arguments: equivalentKeys)
    func equivalentSpellingsNameOneEntryInEveryStore(saved: String, fetched: String) throws {
        for (name, store, cleanUp) in try Self.stores() {
            defer { cleanUp() }
            try store.save(Data("first".utf8), forKey: saved)
            #expect(try store.fetchData(forKey: fetched) == Data("first".utf8), "\(name)")
            try store.save(Data("second".utf8), forKey: fetched)
            #expect(try store.fetchData(forKey: saved) == Data("second".utf8), "\(name)")
            let keys = try store.keys()
            #expect(keys.count == 1, "\(name): \(keys)")
            #expect(keys.first.map { Array($0.unicodeScalars) } == Array(saved.precomposedStringWithCanonicalMapping.unicodeScalars), "\(name)")
            #expect(try store.destroy(fetched), "\(name)")
            #expect(try store.fetchData(forKey: saved) == nil, "\(name)")
            #expect(try store.keys().isEmpty, "\(name)")
        }
    }

    /// Every store answers the same to the same table of keys, valid or not.
    @Test func everyStoreAcceptsAndRefusesTheSameKeys() throws {
        let keys = [
            "profile", "caf\u{E9}", "cafe\u{301}", "c1\u{85}", "c1\u{9F}", "ok\u{A0}", "tab\t", ".dot", "a/b",
            String(repeating: "e\u{301}", count: 67), String(repeating: "\u{E9}", count: 101), "\u{0}", "",
        ]
        var answers: [String: [Bool]] = [:]
        for (name, store, cleanUp) in try Self.stores() {
            defer { cleanUp() }
            answers[name] = keys.map { key in (try? store.save(Data(), forKey: key)) != nil }
            #expect(try store.keys().count == 4, "\(name)")   // café spelled twice is one entry
        }
        #expect(answers["file"] == [true, true, true, false, false, true, false, false, false, true, false, false, false])
        #expect(answers["memory"] == answers["file"])
        #expect(answers["fake"] == answers["file"])
    }
}
