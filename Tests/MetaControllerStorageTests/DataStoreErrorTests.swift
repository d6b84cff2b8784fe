import Foundation
import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct DataStoreErrorTests {
    @Test(arguments: [
        "", ".", "..", "../x", "a/../../etc/passwd", "/etc/passwd", "a\\b", "nul\u{0}byte", "line\nbreak",
        ".hidden", ".tmp-0000", String(repeating: "k", count: 201), "tab\there", "del\u{7F}",
        "c1\u{80}", "next line\u{85}", "csi\u{9B}", "apc\u{9F}", ".\u{301}x", ".\u{301}",
        String(repeating: "\u{E9}", count: 101),   // 202 bytes
    ])
    func badKeysAreRefusedByEveryStore(key: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores: [any DataController] = [try FileDataController(directory: directory), MemoryDataController()]
        for store in stores {
            #expect {
                try store.save(Data("x".utf8), forKey: key)
            } throws: { error in
                (error as? DataStoreError)?.code == .invalidKey && (error as? DataStoreError)?.key == key
            }
            #expect(throws: DataStoreError.self) { try store.fetchData(forKey: key) }
            #expect(throws: DataStoreError.self) { try store.destroy(key) }
        }
        // Nothing was written anywhere: not in the store, not beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test(arguments: [
        "profile", "user-7", "a.b", "ünïcødé", "with space", String(repeating: "k", count: 200), "nbsp\u{A0}",
        "tilde~", String(repeating: "e\u{301}", count: 67),   // 201 bytes as typed, 134 in NFC
    ])
    func ordinaryKeysAreAccepted(key: String) throws {
        let store = MemoryDataController()
        try store.save(Data("x".utf8), forKey: key)
        #expect(try store.fetchData(forKey: key) == Data("x".utf8))
    }

    @Test func theErrorNamesTheKeyAndWhy() {
        #expect {
            try MemoryDataController().save(Data(), forKey: "../secrets")
        } throws: { error in
            (error as? DataStoreError)?.description == "the key \"../secrets\" starts with a dot"
        }
        #expect {
            try MemoryDataController().save(Data(), forKey: "a/b")
        } throws: { error in
            (error as? DataStoreError)?.description == "the key \"a/b\" contains a path separator"
        }
    }
}
