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
/// - **Owner only.** The directory is created `0700` and entries are `0600`.
/// - **Concurrency.** Saves take no lock: each writes its own temporary file,
///   and the rename is atomic, so saves of different keys never wait on each
///   other. Two saves of the same key at once leave one of the two values whole.
public final class FileDataController: DataController, MetaControllerConsumer {
    /// The directory the entries are in.
    public let directory: URL

    private let reference = WeakMetaControllerReference()
    /// The directory's path with a trailing slash: entries are named by
    /// appending to it, which is much cheaper than appending to a `URL`.
    private let directoryPath: String
    private static let suffix = ".entry"
    private static let temporaryPrefix = ".tmp-"

    /// Opens the store in `directory`, creating it if needed, and removes
    /// temporary files a crash may have left.
    ///
    /// - Throws: ``DataStoreError/Code/unavailable`` when the directory cannot be created or read.
    public init(directory: URL) throws(DataStoreError) {
        self.directory = directory
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
    /// - Throws: ``DataStoreError/Code/invalidKey``, or ``DataStoreError/Code/unwritable``
    ///   naming the key and the system's reason; the entry then keeps its old value.
    public func save(_ data: Data, forKey key: String) throws(DataStoreError) {
        let destination = try path(forKey: key)
        let temporary = directoryPath + Self.temporaryPrefix + UUID().uuidString
        if let failure = AtomicFile.write(data, to: temporary, replacing: destination, directory: directoryPath) {
            throw DataStoreError(.unwritable, key: key, "cannot save \"\(key)\": \(failure)")
        }
        metaController?.signals.dispatch(DataChange.signal, DataChange(key: key, kind: .saved), isolation: nil)
    }

    /// The data under `key`, or `nil` when there is none.
    ///
    /// - Throws: ``DataStoreError/Code/unreadable`` naming the key when the entry exists but cannot be read.
    public func fetchData(forKey key: String) throws(DataStoreError) -> Data? {
        switch AtomicFile.contents(of: try path(forKey: key)) {
        case .contents(let data): return data
        case .missing: return nil
        case .failed(let reason): throw DataStoreError(.unreadable, key: key, "cannot read \"\(key)\": \(reason)")
        }
    }

    /// Removes the entry under `key`. - Returns: Whether there was one.
    ///
    /// - Throws: ``DataStoreError/Code/unwritable`` when it exists but cannot be removed.
    @discardableResult
    public func destroy(_ key: String) throws(DataStoreError) -> Bool {
        let path = try path(forKey: key)
        guard FileManager.default.fileExists(atPath: path) else { return false }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            if !FileManager.default.fileExists(atPath: path) { return false }
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
                .map { String($0.dropLast(Self.suffix.count)).precomposedStringWithCanonicalMapping }
                .sorted()
        } catch {
            throw DataStoreError(.unavailable, key: "", "cannot list the store directory \(directory.path): \(Self.reason(error))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return POSIXFile.errorText(Int32(underlying.code))
        }
        return error.localizedFailureReason ?? error.localizedDescription
    }
}
