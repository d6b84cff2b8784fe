public import Foundation

/// The controller that stores the app's data: values by key, with the verbs
/// `save`, `fetch` and `destroy`.
///
/// It fills the MetaController's `dataController` slot. ``FileDataController``
/// keeps each entry in a file, written atomically; ``MemoryDataController``
/// keeps them in memory; `FakeDataController` in `MetaControllerTesting`
/// records what a test did. Codable values go through the helpers
/// (``save(_:forKey:encoder:)-en51``, ``fetch(_:forKey:decoder:)-1b4um``), stored as JSON.
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
/// combining accent names one entry, and ``keys()-32gew`` lists it in form C.
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

    /// Saves `data` under `key` without blocking a thread of Swift's cooperative pool.
    ///
    /// In an `async` context Swift picks this variant, so writing `await`
    /// keeps the blocking work off the pool. The default calls the synchronous
    /// ``save(_:forKey:)`` on the calling task: right for a store that does not
    /// block, such as ``MemoryDataController``. ``FileDataController`` does it
    /// on a queue of its own. Cancellation does not stop a save once called.
    ///
    /// It is `nonisolated(nonsending)`: it runs on the caller's actor until it
    /// first suspends, so a store that queues its work before then keeps the
    /// order of calls made in a row on one actor.
    ///
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - key: The entry's key.
    /// - Throws: What ``save(_:forKey:)`` throws.
    nonisolated(nonsending) func save(_ data: Data, forKey key: String) async throws(DataStoreError)

    /// The data under `key`, or `nil`, without blocking a thread of Swift's cooperative pool.
    ///
    /// The default calls the synchronous ``fetchData(forKey:)`` on the calling task.
    ///
    /// - Parameter key: The entry's key.
    /// - Throws: What ``fetchData(forKey:)`` throws.
    nonisolated(nonsending) func fetchData(forKey key: String) async throws(DataStoreError) -> Data?

    /// Removes the entry under `key` without blocking a thread of Swift's cooperative pool.
    ///
    /// The default calls the synchronous ``destroy(_:)`` on the calling task.
    ///
    /// - Parameter key: The entry's key.
    /// - Returns: Whether there was one.
    /// - Throws: What ``destroy(_:)`` throws.
    @discardableResult
    nonisolated(nonsending) func destroy(_ key: String) async throws(DataStoreError) -> Bool

    /// Every key that has an entry, without blocking a thread of Swift's cooperative pool.
    ///
    /// The default calls the synchronous ``keys()`` on the calling task.
    ///
    /// - Throws: What ``keys()`` throws.
    nonisolated(nonsending) func keys() async throws(DataStoreError) -> [String]
}

extension DataController {
    /// Saves `value` as JSON under `key`, replacing what was there.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - key: The entry's key.
    ///   - encoder: The encoder; a plain `JSONEncoder` by default.
    /// - Throws: ``DataStoreError/Code/encoding`` when `value` does not encode,
    ///   or what ``DataController/save(_:forKey:)-4gmft`` throws.
    public func save(_ value: some Encodable, forKey key: String, encoder: JSONEncoder = JSONEncoder()) throws(DataStoreError) {
        try save(try DataStoreError.encode(value, forKey: key, encoder: encoder), forKey: key)
    }

    /// The value under `key` decoded from JSON, or `nil` when there is none.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - key: The entry's key.
    ///   - decoder: The decoder; a plain `JSONDecoder` by default.
    /// - Throws: ``DataStoreError/Code/corrupt`` naming the key and the key path
    ///   when the entry does not decode, or what ``DataController/fetchData(forKey:)-7e7lo`` throws.
    public func fetch<Value: Decodable>(
        _ type: Value.Type, forKey key: String, decoder: JSONDecoder = JSONDecoder()
    ) throws(DataStoreError) -> Value? {
        guard let data = try fetchData(forKey: key) else { return nil }
        return try DataStoreError.decode(type, from: data, forKey: key, decoder: decoder)
    }

    /// Saves `value` as JSON under `key`, without blocking a thread of Swift's cooperative pool.
    ///
    /// The value is encoded on the calling task; the bytes are saved with the
    /// `async` `save(_:forKey:)` of `Data`.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - key: The entry's key.
    ///   - encoder: The encoder; a plain `JSONEncoder` by default.
    /// - Throws: ``DataStoreError/Code/encoding`` when `value` does not encode,
    ///   or what ``DataController/save(_:forKey:)-4gmft`` throws.
    public nonisolated(nonsending) func save(_ value: some Encodable, forKey key: String, encoder: JSONEncoder = JSONEncoder()) async throws(DataStoreError) {
        try await save(try DataStoreError.encode(value, forKey: key, encoder: encoder), forKey: key)
    }

    /// The value under `key` decoded from JSON, or `nil`, without blocking a thread of Swift's cooperative pool.
    ///
    /// The bytes are read with the `async` `fetchData(forKey:)`, then decoded on the calling task.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - key: The entry's key.
    ///   - decoder: The decoder; a plain `JSONDecoder` by default.
    /// - Throws: ``DataStoreError/Code/corrupt`` naming the key and the key path
    ///   when the entry does not decode, or what ``DataController/fetchData(forKey:)-7e7lo`` throws.
    public nonisolated(nonsending) func fetch<Value: Decodable>(
        _ type: Value.Type, forKey key: String, decoder: JSONDecoder = JSONDecoder()
    ) async throws(DataStoreError) -> Value? {
        guard let data = try await fetchData(forKey: key) else { return nil }
        return try DataStoreError.decode(type, from: data, forKey: key, decoder: decoder)
    }

    // The defaults of the async requirements: the synchronous call, on the
    // calling task. Each goes through a synchronous local function, where Swift
    // can only pick the synchronous requirement (in an async context it would
    // pick the async one: this one).

    /// Calls the synchronous ``save(_:forKey:)`` on the calling task.
    ///
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - key: The entry's key.
    /// - Throws: What ``save(_:forKey:)`` throws.
    public nonisolated(nonsending) func save(_ data: Data, forKey key: String) async throws(DataStoreError) {
        func save() throws(DataStoreError) { try self.save(data, forKey: key) }
        try save()
    }

    /// Calls the synchronous ``fetchData(forKey:)`` on the calling task.
    ///
    /// - Parameter key: The entry's key.
    /// - Throws: What ``fetchData(forKey:)`` throws.
    public nonisolated(nonsending) func fetchData(forKey key: String) async throws(DataStoreError) -> Data? {
        func fetch() throws(DataStoreError) -> Data? { try fetchData(forKey: key) }
        return try fetch()
    }

    /// Calls the synchronous ``destroy(_:)`` on the calling task.
    ///
    /// - Parameter key: The entry's key.
    /// - Returns: Whether there was one.
    /// - Throws: What ``destroy(_:)`` throws.
    @discardableResult
    public nonisolated(nonsending) func destroy(_ key: String) async throws(DataStoreError) -> Bool {
        func destroy() throws(DataStoreError) -> Bool { try self.destroy(key) }
        return try destroy()
    }

    /// Calls the synchronous ``keys()`` on the calling task.
    ///
    /// - Throws: What ``keys()`` throws.
    public nonisolated(nonsending) func keys() async throws(DataStoreError) -> [String] {
        func keys() throws(DataStoreError) -> [String] { try self.keys() }
        return try keys()
    }
}
