public import Foundation
public import MetaController

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

    /// Every operation so far, oldest first.
    public var operations: [Operation] { state.withLock { $0.operations } }

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
}
