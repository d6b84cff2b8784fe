public import Foundation

/// A ``DataController`` that keeps each entry in a file of a directory the app chooses.
///
/// ```swift
/// let store = try FileDataController(directory: URL.applicationSupportDirectory.appending(path: "Store"))
/// metaController.dataController = store
/// try store.save(profile, forKey: "profile")
/// ```
///
/// - **Atomic saves.** A save writes a temporary file in the same directory,
///   flushes it to disk (`fsync`), and renames it over the entry; then it
///   syncs the directory. A crash at any moment leaves the old value or the new
///   one, never a torn file. Temporary files left by a crash are removed when
///   the store is opened.
/// - **Isolation of damage.** A corrupt or unreadable entry throws a
///   ``DataStoreError`` naming its key; every other entry stays readable.
/// - **Keys stay inside.** Keys are validated (see ``DataController``); each
///   names one file, `<key>.entry`, in the directory and nowhere else.
/// - **Owner only.** The directory is created `0700` and entries are `0600`. An
///   existing directory open to group or others is restricted to `0700` when the
///   store is opened, or refused when it belongs to another user.
/// - **Regular files only.** An entry that is a symbolic link, a FIFO, a device or a
///   directory is refused with ``DataStoreError/Code/unreadable``, without following
///   the link or waiting on the FIFO; a save replaces such an entry, a link included,
///   without writing through it, and a destroy removes the link, not its target.
/// - **Bounded entries.** No entry larger than ``maximumEntryBytes`` (64 MiB by
///   default) is saved or read: ``DataStoreError/Code/tooLarge``.
/// - **Concurrency.** Saves take no lock: each writes its own temporary file,
///   and the rename is atomic, so saves of different keys never wait on each
///   other. Two saves of the same key at once leave one of the two values whole.
/// - **Async callers do not block the cooperative pool.** In an `async` context,
///   `try await store.save(...)` (and `fetch`, `destroy`, `keys()`) does the
///   blocking work, `fsync` included, on Dispatch queues of the store, and the
///   task waits without holding a thread of Swift's cooperative pool. Async saves
///   and destroys of one key run one at a time in the order they were called;
///   async reads never wait behind a write. Cancelling the task does not stop an
///   operation once called. Errors are the same ``DataStoreError``s.
///
/// ```swift
/// try await store.save(note, forKey: note.id)   // in a request handler
/// ```
public final class FileDataController: DataController, MetaControllerConsumer {
    /// The directory the entries are in.
    public let directory: URL
    /// The largest entry, in bytes, that is saved or read; 64 MiB unless the store was opened with another.
    public let maximumEntryBytes: Int

    private let reference = WeakMetaControllerReference()
    /// Where the `async` operations do their blocking work.
    private let queues = StoreQueues(label: "MetaController.FileDataController")
    /// The directory's path with a trailing slash: entries are named by
    /// appending to it, which is much cheaper than appending to a `URL`.
    private let directoryPath: String
    private static let suffix = ".entry"
    private static let temporaryPrefix = ".tmp-"

    /// Opens the store in `directory`, creating it if needed, restricting it to its owner,
    /// and removes temporary files a crash may have left.
    ///
    /// - Parameters:
    ///   - directory: Where the entries go.
    ///   - maximumEntryBytes: The largest entry saved or read; 64 MiB by default, at least 0.
    /// - Throws: ``DataStoreError/Code/unavailable`` when the directory cannot be created or read, or is open
    ///   to group or others and cannot be restricted to its owner (it belongs to another user).
    public init(directory: URL, maximumEntryBytes: Int = 64 * 1024 * 1024) throws(DataStoreError) {
        self.directory = directory
        // At most half of Int.max, so that one byte past the limit can always be counted.
        self.maximumEntryBytes = min(max(0, maximumEntryBytes), Int.max / 2)
        directoryPath = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
        let files = FileManager.default
        do {
            try files.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for name in try files.contentsOfDirectory(atPath: directory.path) where name.hasPrefix(Self.temporaryPrefix) {
                try? files.removeItem(at: directory.appendingPathComponent(name))
            }
        } catch {
            throw DataStoreError(.unavailable, key: "", "cannot use the store directory \(directory.path): \(Self.reason(error))")
        }
        if let reason = POSIXFile.restrictToOwner(directory: directory.path) {
            throw DataStoreError(.unavailable, key: "", "cannot use the store directory \(directory.path): \(reason)")
        }
    }

    /// The MetaController this store was put in, held weakly; its bus receives ``DataChange``s.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// The file that holds the entry for `key`: `<key>.entry`, with the key in Unicode normalization form C.
    ///
    /// - Throws: ``DataStoreError/Code/invalidKey`` for a key that cannot name an entry.
    public func fileURL(forKey key: String) throws(DataStoreError) -> URL {
        URL(fileURLWithPath: try path(forKey: key), isDirectory: false)
    }

    /// The path of the file that holds the entry for `key`, checking the key.
    private func path(forKey key: String) throws(DataStoreError) -> String {
        directoryPath + (try DataStoreError.validate(key)) + Self.suffix
    }

    /// Saves `data` under `key` atomically.
    ///
    /// - Throws: ``DataStoreError/Code/invalidKey``, ``DataStoreError/Code/tooLarge`` for more than
    ///   ``maximumEntryBytes``, or ``DataStoreError/Code/unwritable`` naming the key and the system's
    ///   reason; the entry then keeps its old value.
    public func save(_ data: Data, forKey key: String) throws(DataStoreError) {
        let destination = try path(forKey: key)
        guard data.count <= maximumEntryBytes else {
            throw DataStoreError(
                .tooLarge, key: key, "cannot save \"\(key)\": \(data.count) bytes are more than the limit of \(maximumEntryBytes) bytes")
        }
        let temporary = directoryPath + Self.temporaryPrefix + UUID().uuidString
        if let failure = AtomicFile.write(data, to: temporary, replacing: destination, directory: directoryPath) {
            throw DataStoreError(.unwritable, key: key, "cannot save \"\(key)\": \(failure)")
        }
        metaController?.signals.dispatch(DataChange.signal, DataChange(key: key, kind: .saved), isolation: nil)
    }

    /// The data under `key`, or `nil` when there is none.
    ///
    /// - Throws: ``DataStoreError/Code/unreadable`` naming the key when the entry exists but cannot be read
    ///   or is not a regular file, ``DataStoreError/Code/tooLarge`` when it holds more than ``maximumEntryBytes``.
    public func fetchData(forKey key: String) throws(DataStoreError) -> Data? {
        switch AtomicFile.contents(of: try path(forKey: key), maximumBytes: maximumEntryBytes) {
        case .contents(let data): return data
        case .missing: return nil
        case .failed(let reason): throw DataStoreError(.unreadable, key: key, "cannot read \"\(key)\": \(reason)")
        case .tooLarge:
            throw DataStoreError(.tooLarge, key: key, "cannot read \"\(key)\": it is larger than the limit of \(maximumEntryBytes) bytes")
        }
    }

    /// Removes the entry under `key`; an entry that is a symbolic link is removed, not what it points to.
    /// - Returns: Whether there was one.
    ///
    /// - Throws: ``DataStoreError/Code/unwritable`` when it exists but cannot be removed.
    @discardableResult
    public func destroy(_ key: String) throws(DataStoreError) -> Bool {
        let path = try path(forKey: key)
        guard POSIXFile.exists(path) else { return false }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            if !POSIXFile.exists(path) { return false }
            throw DataStoreError(.unwritable, key: key, "cannot destroy \"\(key)\": \(Self.reason(error))")
        }
        metaController?.signals.dispatch(DataChange.signal, DataChange(key: key, kind: .destroyed), isolation: nil)
        return true
    }

    /// Every key that has an entry, sorted.
    ///
    /// - Throws: ``DataStoreError/Code/unavailable`` when the directory cannot be read.
    public func keys() throws(DataStoreError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(Self.suffix) && $0.utf8.first != UInt8(ascii: ".") }
                .map { String($0.dropLast(Self.suffix.count)).inNormalizationFormC }
                .sorted()
        } catch {
            throw DataStoreError(.unavailable, key: "", "cannot list the store directory \(directory.path): \(Self.reason(error))")
        }
    }

    /// Saves `data` under `key` atomically, on a queue of the store: the task waits without blocking a thread of the cooperative pool.
    ///
    /// Async saves and destroys of one key run one at a time, in the order they were called.
    ///
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - key: The entry's key.
    /// - Throws: What the synchronous ``save(_:forKey:)-(Data,_)`` throws.
    public func save(_ data: Data, forKey key: String) async throws(DataStoreError) {
        try await queues.write(try DataStoreError.validate(key)) { () throws(DataStoreError) in try self.save(data, forKey: key) }
    }

    /// The data under `key`, or `nil`, read on a queue of the store: the task waits without blocking a thread of the cooperative pool.
    ///
    /// - Parameter key: The entry's key.
    /// - Throws: What the synchronous ``fetchData(forKey:)`` throws.
    public func fetchData(forKey key: String) async throws(DataStoreError) -> Data? {
        _ = try DataStoreError.validate(key)
        return try await queues.read { () throws(DataStoreError) in try self.fetchData(forKey: key) }
    }

    /// Removes the entry under `key` on a queue of the store, in order with the async saves of the key.
    ///
    /// - Parameter key: The entry's key.
    /// - Returns: Whether there was one.
    /// - Throws: What the synchronous ``destroy(_:)`` throws.
    @discardableResult
    public func destroy(_ key: String) async throws(DataStoreError) -> Bool {
        try await queues.write(try DataStoreError.validate(key)) { () throws(DataStoreError) in try self.destroy(key) }
    }

    /// Every key that has an entry, sorted, listed on a queue of the store.
    ///
    /// - Throws: What the synchronous ``keys()`` throws.
    public func keys() async throws(DataStoreError) -> [String] {
        try await queues.read { () throws(DataStoreError) in try self.keys() }
    }

    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return POSIXFile.errorText(Int32(underlying.code))
        }
        return error.localizedFailureReason ?? error.localizedDescription
    }
}
