public import Foundation
public import MetaControllerCore
public import MetaControllerStorage

/// A data controller for tests: an in-memory store that records every
/// operation and can be told to fail saves.
///
/// It builds on `MemoryDataController`, so keys are validated
/// and `DataChange`s are dispatched as with the real stores.
///
/// ```swift
/// let metaController = MetaController.withFakes()
/// let data = try #require(metaController.fakeDataController)
/// data.failSaves(forKey: "draft")
/// screen.metaController = metaController
/// screen.saveDraft()
/// #expect(data.operations == [.save("draft")])
/// #expect(screen.showsSaveError)
/// ```
public final class FakeDataController: DataController, MetaControllerConsumer {
    /// One call a test can assert on.
    public enum Operation: Sendable, Equatable {
        /// `save` of a key, successful or not.
        case save(String)
        /// `fetchData` (or `fetch`) of a key.
        case fetch(String)
        /// `destroy` of a key.
        case destroy(String)
        /// `keys()`.
        case keys
    }

    private struct State: Sendable {
        var operations: [Operation] = []
        var asyncOperations: [Operation] = []
        var failingKeys: Set<String> = []
    }

    private let store = MemoryDataController()
    private let state = Lock(State())

    /// Creates an empty fake.
    public init() {}

    /// The MetaController this fake was put in, held weakly.
    public var metaController: MetaController? {
        get { store.metaController }
        set { store.metaController = newValue }
    }

    /// Every operation so far, oldest first, whether called synchronously or with `await`.
    public var operations: [Operation] { state.withLock { $0.operations } }

    /// The operations called with `await` (the `async` variants), oldest first; they are in ``operations`` too.
    ///
    /// A test of server code asserts here that a handler did not block the
    /// cooperative pool with a synchronous save:
    ///
    /// ```swift
    /// #expect(data.asyncOperations == [.save("note-1")])
    /// ```
    public var asyncOperations: [Operation] { state.withLock { $0.asyncOperations } }

    /// Makes every later save of `key` fail with `DataStoreError.Code.unwritable`.
    public func failSaves(forKey key: String) {
        state.withLock { _ = $0.failingKeys.insert(key) }
    }

    /// Records the save and stores `data`, or fails as told.
    public func save(_ data: Data, forKey key: String) throws(DataStoreError) {
        let fails = state.withLock { state in
            state.operations.append(.save(key))
            return state.failingKeys.contains(key)
        }
        if fails {
            throw DataStoreError.simulatedFailure(forKey: key)
        }
        try store.save(data, forKey: key)
    }

    /// Records the fetch and returns the stored data.
    public func fetchData(forKey key: String) throws(DataStoreError) -> Data? {
        state.withLock { $0.operations.append(.fetch(key)) }
        return try store.fetchData(forKey: key)
    }

    /// Records the destroy and removes the entry.
    @discardableResult
    public func destroy(_ key: String) throws(DataStoreError) -> Bool {
        state.withLock { $0.operations.append(.destroy(key)) }
        return try store.destroy(key)
    }

    /// Records the call and lists the keys.
    public func keys() throws(DataStoreError) -> [String] {
        state.withLock { $0.operations.append(.keys) }
        return try store.keys()
    }

    /// Records the save as awaited, then saves as the synchronous ``save(_:forKey:)-(Data,_)`` does.
    ///
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - key: The entry's key.
    /// - Throws: `DataStoreError.Code.unwritable` for a key told to fail, or what the store throws.
    public nonisolated(nonsending) func save(_ data: Data, forKey key: String) async throws(DataStoreError) {
        state.withLock { $0.asyncOperations.append(.save(key)) }
        func save() throws(DataStoreError) { try self.save(data, forKey: key) }
        try save()
    }

    /// Records the fetch as awaited and returns the stored data.
    ///
    /// - Parameter key: The entry's key.
    /// - Throws: What the store throws.
    public nonisolated(nonsending) func fetchData(forKey key: String) async throws(DataStoreError) -> Data? {
        state.withLock { $0.asyncOperations.append(.fetch(key)) }
        func fetch() throws(DataStoreError) -> Data? { try fetchData(forKey: key) }
        return try fetch()
    }

    /// Records the destroy as awaited and removes the entry.
    ///
    /// - Parameter key: The entry's key.
    /// - Returns: Whether there was one.
    /// - Throws: What the store throws.
    @discardableResult
    public nonisolated(nonsending) func destroy(_ key: String) async throws(DataStoreError) -> Bool {
        state.withLock { $0.asyncOperations.append(.destroy(key)) }
        func destroy() throws(DataStoreError) -> Bool { try self.destroy(key) }
        return try destroy()
    }

    /// Records the call as awaited and lists the keys.
    ///
    /// - Throws: What the store throws.
    public nonisolated(nonsending) func keys() async throws(DataStoreError) -> [String] {
        state.withLock { $0.asyncOperations.append(.keys) }
        func keys() throws(DataStoreError) -> [String] { try self.keys() }
        return try keys()
    }
}
