public import Foundation

/// The controller that stores the app's data: values by key, with the verbs
/// `save`, `fetch` and `destroy`.
///
/// It fills the MetaController's `dataController` slot. ``FileDataController``
/// keeps each entry in a file, written atomically; ``MemoryDataController``
/// keeps them in memory; `FakeDataController` in `MetaControllerTesting`
/// records what a test did. Codable values go through the helpers
/// (``save(_:forKey:encoder:)``, ``fetch(_:forKey:decoder:)``), stored as JSON.
///
/// ```swift
/// try dataController?.save(profile, forKey: "profile")
/// let profile = try dataController?.fetch(Profile.self, forKey: "profile")
/// try dataController?.destroy("profile")
/// ```
///
/// Keys are validated the same way by every implementation: not empty, at
/// most 200 UTF-8 bytes, no `/`, `\`, NUL or control characters (C0, DEL and
/// C1), not starting with a dot. A bad key throws
/// ``DataStoreError/Code/invalidKey``, so no key reaches outside the store.
/// Keys are compared in Unicode normalization form C in every store and on
/// every platform: "café" spelled with a precomposed "é" or with "e" and a
/// combining accent names one entry, and ``keys()`` lists it in form C.
public protocol DataController: AnyObject, Sendable {
    /// Saves `data` under `key`, replacing what was there.
    func save(_ data: Data, forKey key: String) throws(DataStoreError)

    /// The data under `key`, or `nil` when there is none.
    func fetchData(forKey key: String) throws(DataStoreError) -> Data?

    /// Removes the entry under `key`. - Returns: Whether there was one.
    @discardableResult
    func destroy(_ key: String) throws(DataStoreError) -> Bool

    /// Every key that has an entry, in Unicode normalization form C, sorted.
    func keys() throws(DataStoreError) -> [String]
}

extension DataController {
    /// Saves `value` as JSON under `key`, replacing what was there.
    ///
    /// - Throws: ``DataStoreError/Code/encoding`` when `value` does not encode,
    ///   or what ``save(_:forKey:)`` throws.
    public func save(_ value: some Encodable, forKey key: String, encoder: JSONEncoder = JSONEncoder()) throws(DataStoreError) {
        _ = try DataStoreError.validate(key)   // a bad key is refused before encoding
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            let path = (error as? EncodingError).map { error -> String in
                guard case .invalidValue(_, let context) = error else { return "" }
                return DecodingError.render(context.codingPath)
            }
            throw DataStoreError(
                .encoding, key: key, "the value for \"\(key)\" does not encode as JSON: \(error)", keyPath: path)
        }
        try save(data, forKey: key)
    }

    /// The value under `key` decoded from JSON, or `nil` when there is none.
    ///
    /// - Throws: ``DataStoreError/Code/corrupt`` naming the key and the key path
    ///   when the entry does not decode, or what ``fetchData(forKey:)`` throws.
    public func fetch<Value: Decodable>(
        _ type: Value.Type, forKey key: String, decoder: JSONDecoder = JSONDecoder()
    ) throws(DataStoreError) -> Value? {
        guard let data = try fetchData(forKey: key) else { return nil }
        do {
            return try decoder.decode(type, from: data)
        } catch {
            let decoding = error as? DecodingError
            let path = decoding?.keyPath ?? ""
            let place = path.isEmpty ? "" : " at \(path)"
            throw DataStoreError(
                .corrupt, key: key,
                "the entry \"\(key)\" does not decode as \(type)\(place): \(decoding?.reason ?? "\(error)")", keyPath: path)
        }
    }
}
