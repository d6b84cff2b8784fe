// libFuzzer target: stored data entries and keys. The first byte splits the
// input into a key and an entry; the key must be refused or stay inside the
// store, and the entry must decode or throw DataStoreError.
import Foundation

struct Entry: Codable {
    var name: String
    var count: Int
    var tags: [String]?
    var nested: [String: Double]?
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let first = bytes.first else { return 0 }
    let split = min(Int(first), bytes.count - 1)
    let key = String(decoding: bytes[1..<(1 + split)], as: UTF8.self)
    let entry = Data(bytes[(1 + split)...])
    let store = MemoryDataController()
    if (try? store.save(entry, forKey: key)) != nil {
        _ = try? store.fetch(Entry.self, forKey: key)
        precondition(!key.contains("/") && key != ".." && !key.contains("\u{0}"), "an escaping key was accepted: \(key)")
    }
    return 0
}
