public import MetaControllerCore
public import Foundation

/// A ``DataController`` that keeps its entries in memory, for previews, tests
/// and data that need not outlive the process.
///
/// It validates keys and dispatches ``DataChange`` like the file store, so code
/// tested against it behaves the same against ``FileDataController``.
///
/// ```swift
/// metaController.dataController = MemoryDataController()
/// ```
public final class MemoryDataController: DataController, MetaControllerConsumer {
    private let entries = Lock<[String: Data]>([:])
    private let reference = WeakMetaControllerReference()

    /// Creates an empty store.
    public init() {}

    /// The MetaController this store was put in, held weakly; its bus receives ``DataChange``s.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// Saves `data` under `key`.
    public func save(_ data: Data, forKey key: String) throws(DataStoreError) {
        let normalized = try DataStoreError.validate(key)
        entries.withLock { $0[normalized] = data }
        metaController?.signals.dispatch(DataChange.signal, DataChange(key: key, kind: .saved), isolation: nil)
    }

    /// The data under `key`, or `nil`.
    public func fetchData(forKey key: String) throws(DataStoreError) -> Data? {
        let normalized = try DataStoreError.validate(key)
        return entries.withLock { $0[normalized] }
    }

    /// Removes the entry under `key`. - Returns: Whether there was one.
    @discardableResult
    public func destroy(_ key: String) throws(DataStoreError) -> Bool {
        let normalized = try DataStoreError.validate(key)
        let existed = entries.withLock { $0.removeValue(forKey: normalized) != nil }
        if existed {
            metaController?.signals.dispatch(DataChange.signal, DataChange(key: key, kind: .destroyed), isolation: nil)
        }
        return existed
    }

    /// Every key, sorted.
    public func keys() throws(DataStoreError) -> [String] {
        entries.withLock { $0.keys.sorted() }
    }
}
