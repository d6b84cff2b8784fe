public import MetaControllerCore
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
///   the store is opened; a temporary file of a save in flight, in this process
///   or another, is left alone (the save holds it locked until the rename, and
///   holds the directory's lock shared until then, which opening a store takes
///   exclusively before it cleans up).
/// - **One directory.** The directory is opened once, when the store is opened,
///   and every operation works in that directory: if its path is later moved, or
///   replaced by a symbolic link, the store stays with the directory it opened.
/// - **Isolation of damage.** A corrupt or unreadable entry throws a
///   ``DataStoreError`` naming its key; every other entry stays readable.
/// - **Keys stay inside.** Keys are validated (see ``DataController``); each
///   names one file, `<key>.entry`, in the directory and nowhere else.
/// - **Every listed key opens.** `keys()` lists only names a key opens. An entry
///   whose file name is not in NFC (written by another tool) is found by its key
///   in NFC; a save of that key replaces it with the NFC file, a destroy removes it.
/// - **Owner only.** The directory is created `0700` and entries are `0600`. An
///   existing directory open to group or others is restricted to `0700` when the
///   store is opened, or refused when it belongs to another user. A shared directory,
///   sticky and writable by others (`/tmp`, `01777`), is refused and left as it is.
/// - **Regular files only.** An entry that is a symbolic link, a FIFO, a device or a
///   directory is refused with ``DataStoreError/Code/unreadable``, without following
///   the link or waiting on the FIFO; a save replaces such an entry, a link included,
///   without writing through it, and a destroy removes the link, not its target.
/// - **Bounded entries.** No entry larger than ``maximumEntryBytes`` (64 MiB by
///   default) is saved or read: ``DataStoreError/Code/tooLarge``.
/// - **Concurrency.** Saves share no lock: each writes (and locks) its own
///   temporary file, and the rename is atomic, so saves of different keys never
///   wait on each other. Two saves of the same key at once leave one of the two values whole.
/// - **Async callers do not block the cooperative pool.** In an `async` context,
///   `try await store.save(...)` (and `fetch`, `destroy`, `keys()`) does the
///   blocking work, `fsync` included, on Dispatch queues of the store, and the
///   task waits without holding a thread of Swift's cooperative pool. Async saves
///   and destroys of one key run one at a time in the order they were called: they
///   are `nonisolated(nonsending)` and queue their work on the caller's actor before
///   they first suspend, so tasks started in a row on one actor keep their order.
///   Async reads never wait behind a write. Cancelling the task does not stop an
///   operation once called. Errors are the same ``DataStoreError``s.
///
/// ```swift
/// try await store.save(note, forKey: note.id)   // in a request handler
/// ```
public final class FileDataController: DataController, MetaControllerConsumer {
    /// The directory the entries are in, as it was given when the store was opened.
    ///
    /// The store opened the directory this named then, and keeps working in it even if it is later
    /// moved, or the path is replaced by a symbolic link to another directory.
    public let directory: URL
    /// The largest entry, in bytes, that is saved or read; 64 MiB unless the store was opened with another.
    public let maximumEntryBytes: Int

    private let reference = WeakMetaControllerReference()
    /// Where the `async` operations do their blocking work.
    private let queues = StoreQueues(label: "MetaController.FileDataController")
    /// The directory's path with a trailing slash: entries are named by
    /// appending to it, which is much cheaper than appending to a `URL`.
    private let directoryPath: String
    /// The directory, opened once: every file operation is relative to it.
    private let opened: StoreDirectory
    /// The names on disk that are other spellings of keys, from the last listing and kept in step
    /// with the store's own changes since (see ``otherSpellingNames()``).
    private let keptSpellings = Lock<OtherSpellings?>(nil)
    private static let suffix = ".entry"
    private static let temporaryPrefix = ".tmp-"

    /// Opens the store in `directory`, creating it if needed, restricting it to its owner,
    /// and removes temporary files a crash may have left.
    ///
    /// A symbolic link at `directory` is followed now, once: the store works in the directory it found,
    /// whatever happens to the path afterwards. A temporary file is removed only when no save holds it
    /// locked, so a save in flight in another process (an app extension sharing the directory) is
    /// never disturbed.
    ///
    /// - Parameters:
    ///   - directory: Where the entries go.
    ///   - maximumEntryBytes: The largest entry saved or read; 64 MiB by default, at least 0.
    /// - Throws: ``DataStoreError/Code/unavailable`` when the directory cannot be created or read, or is open
    ///   to group or others and cannot be restricted to its owner (it belongs to another user, or is shared:
    ///   sticky and writable by others, as `/tmp`).
    public convenience init(directory: URL, maximumEntryBytes: Int = 64 * 1024 * 1024) throws(DataStoreError) {
        try self.init(directory: directory, maximumEntryBytes: maximumEntryBytes, seams: .system)
    }

    /// Opens the store as ``init(directory:maximumEntryBytes:)`` does, with `seams` in place of
    /// some system calls: for tests of what cannot be seen from outside (a flush, a file growing
    /// while it is read).
    init(directory: URL, maximumEntryBytes: Int, seams: StoreSeams) throws(DataStoreError) {
        self.directory = directory
        // At most half of Int.max, so that one byte past the limit can always be counted.
        self.maximumEntryBytes = min(max(0, maximumEntryBytes), Int.max / 2)
        directoryPath = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
        func unavailable(_ reason: String) -> DataStoreError {
            DataStoreError(.unavailable, key: "", "cannot use the store directory \(directory.path): \(reason)")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw unavailable(Self.reason(error))
        }
        do {
            opened = try StoreDirectory(path: directory.path, seams: seams)
        } catch {
            throw unavailable(error.reason)
        }
        if let reason = opened.restrictToOwner() { throw unavailable(reason) }
        let names: [String]
        do {
            names = try opened.names()
        } catch {
            throw unavailable(error.reason)
        }
        let temporaries = names.filter { $0.hasPrefix(Self.temporaryPrefix) }
        guard !temporaries.isEmpty else { return }
        // Under the directory's lock, no save is between creating its temporary file and locking
        // it: every such file is either held by its save or abandoned.
        opened.excludingNewTemporaryFiles {
            for name in temporaries { opened.removeIfAbandoned(name) }
        }
    }

    /// The MetaController this store was put in, held weakly; its bus receives ``DataChange``s.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// The file that holds the entry for `key`: `<key>.entry`, with the key in Unicode normalization form C,
    /// in ``directory``.
    ///
    /// This is a path under ``directory`` as given: once that path has been moved or replaced, it no longer
    /// names the file the store reads (the store stays with the directory it opened). An entry whose file
    /// name on disk is another spelling of the key (not NFC) is read from that file until it is saved again.
    ///
    /// - Throws: ``DataStoreError/Code/invalidKey`` for a key that cannot name an entry.
    public func fileURL(forKey key: String) throws(DataStoreError) -> URL {
        URL(fileURLWithPath: try path(forKey: key), isDirectory: false)
    }

    /// The path of the file that holds the entry for `key`, checking the key.
    private func path(forKey key: String) throws(DataStoreError) -> String {
        directoryPath + (try DataStoreError.validate(key)) + Self.suffix
    }

    /// Whether a file name other than the key's own (in NFC) can be a spelling of `key`, a key in NFC.
    ///
    /// A name that is not in NFC normalizes to a key only if the key has a character that is
    /// not ASCII, or one of the three ASCII characters that a single other character is
    /// canonically equivalent to: `K` (U+212A KELVIN SIGN), `;` (U+037E GREEK QUESTION MARK)
    /// and the grave accent U+0060 (U+1FEF GREEK VARIA). A test checks this against every character. Other keys
    /// never need the directory listed to find other spellings.
    static func mayHaveOtherSpellings(_ key: String) -> Bool {
        key.utf8.contains(where: mayBeOtherSpelling)
    }

    /// Whether a name with this byte can be a spelling of another name: see ``mayHaveOtherSpellings(_:)``.
    private static func mayBeOtherSpelling(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "K") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "`")
    }

    /// The names in the directory that are other spellings of keys (not in NFC, with a byte that
    /// ``mayBeOtherSpelling(_:)``), by the key each spells, sorted in byte order; the directory's
    /// change time they are right for; and when the listing that found them started.
    private struct OtherSpellings: Sendable {
        var names: [String: [String]]
        /// The directory's change time the names are right for: the one read before the listing,
        /// moved on by each of the store's own changes since.
        var accounted: Duration
        /// When the listing started, on the wall clock.
        let listed: Duration
        /// Whether no change can hide behind ``accounted``: the listing started at least
        /// ``listingSettleTime`` after it, and the store has not changed the directory since.
        var settled: Bool
    }

    /// How long after the directory last changed a listing must start to be relied on for good:
    /// file times are coarse (a few milliseconds on Linux, a second on HFS+), so a change made by
    /// something else in the same tick as the one the listing saw, or as one of the store's own,
    /// could leave the time as it was.
    static let listingSettleTime = Duration.seconds(2)

    /// The names in the directory that are other spellings of keys, by the key each spells.
    ///
    /// Listed once, then kept while the directory's change time is the one they are right for (one
    /// `fstat` a use), so misses of keys with such characters (`"apiKey"`, `"café"`) do not list a
    /// large directory each time. The store's own saves and destroys move that time on with them
    /// (``accountOwnChange(from:removed:)``); any other change of the directory, by another process
    /// or a tool, leaves it behind, and the next use lists again. A listing that is not settled (a
    /// change by something else may hide behind a time it accounts for) is made again at the first
    /// use two seconds after it: while the store keeps changing its directory, at most one listing
    /// every two seconds.
    private func otherSpellingNames() throws(StoreDirectory.Failure) -> [String: [String]] {
        let changed = opened.changed()
        let now = opened.now()
        if let changed, let kept = keptSpellings.withLock({ $0 }), kept.accounted == changed,
            kept.settled || now - kept.listed < Self.listingSettleTime
        {
            return kept.names
        }
        opened.seams.listedForSpellings?()
        // A name without such a byte is in NFC already, so it is no other spelling of anything: it is
        // passed over by its bytes, before it is made a string.
        let suffixBytes = Self.suffix.utf8
        let found = try opened.names { name in
            name.count > suffixBytes.count && name.suffix(suffixBytes.count).elementsEqual(suffixBytes) && name.contains(where: Self.mayBeOtherSpelling)
        }
        var names: [String: [String]] = [:]
        for name in found {
            // A name in NFC is its own key's file, never another spelling of a key.
            guard let stem = Self.stem(of: name) else { continue }
            let key = stem.inNormalizationFormC
            if !key.utf8.elementsEqual(stem.utf8) { names[key, default: []].append(name) }
        }
        for key in names.keys { names[key]?.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        keptSpellings.withLock { kept in
            // The change time is read before the listing, so every change after it is seen as one.
            kept = changed.map { OtherSpellings(names: names, accounted: $0, listed: now, settled: now - $0 >= Self.listingSettleTime) }
        }
        return names
    }

    /// Keeps the names of other spellings in step with a change of the directory the store has
    /// just made (a save's rename, a destroy's removals): when they were right for the change time
    /// `before` it, they are right for the time after it, less the names in `removed`. Not settled
    /// then: a change by something else made meanwhile hides behind this one until the next listing.
    private func accountOwnChange(from before: Duration?, removed: [String] = []) {
        guard let before, keptSpellings.withLock({ $0 != nil }) else { return }
        let after = opened.changed()
        keptSpellings.withLock { kept in
            guard var updated = kept, updated.accounted == before, let after else { return }
            for name in removed {
                guard let stem = Self.stem(of: name) else { continue }
                let key = stem.inNormalizationFormC
                updated.names[key]?.removeAll { $0 == name }
                if updated.names[key]?.isEmpty == true { updated.names[key] = nil }
            }
            updated.accounted = after
            updated.settled = false
            kept = updated
        }
    }

    /// The file names in the directory, other than `key`'s own, that are spellings of `key` (a key in NFC), in byte order.
    private func otherSpellings(of key: String) throws(StoreDirectory.Failure) -> [String] {
        guard Self.mayHaveOtherSpellings(key) else { return [] }
        return try otherSpellingNames()[key] ?? []
    }

    /// The name without the entry suffix, when it ends with `.entry`; whether that is a valid key (no dot file is) is
    /// ``DataStoreError/validate(_:)``'s to say.
    private static func stem(of name: String) -> String? {
        let bytes = name.utf8
        guard bytes.count > suffix.utf8.count, bytes.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) else { return nil }
        return String(decoding: bytes.dropLast(suffix.utf8.count), as: UTF8.self)
    }

    /// Saves `data` under `key` atomically.
    ///
    /// - Throws: ``DataStoreError/Code/invalidKey``, ``DataStoreError/Code/tooLarge`` for more than
    ///   ``maximumEntryBytes``, or ``DataStoreError/Code/unwritable`` naming the key and the system's
    ///   reason; the entry then keeps its old value.
    public func save(_ data: Data, forKey key: String) throws(DataStoreError) {
        let normalized = try DataStoreError.validate(key)
        guard data.count <= maximumEntryBytes else {
            throw DataStoreError(
                .tooLarge, key: key, "cannot save \"\(key)\": \(data.count) bytes are more than the limit of \(maximumEntryBytes) bytes")
        }
        let before = opened.changed()
        let failure = AtomicFile.write(data, in: opened, replacing: normalized + Self.suffix, temporaryPrefix: Self.temporaryPrefix)
        accountOwnChange(from: before)
        if let failure { throw DataStoreError(.unwritable, key: key, "cannot save \"\(key)\": \(failure)") }
        // The NFC file now holds the value and is the one read; other spellings of the key go.
        // One left behind (the list or the removal failed) is hidden behind it.
        let others = (try? otherSpellings(of: normalized)) ?? []
        if !others.isEmpty {
            let before = opened.changed()
            let removed = others.filter { name in
                if case .failed = opened.remove(name) { return false }
                return true
            }
            accountOwnChange(from: before, removed: removed)
        }
        metaController?.signals.dispatch(DataChange.signal, DataChange(key: key, kind: .saved), isolation: nil)
    }

    /// The data under `key`, or `nil` when there is none.
    ///
    /// - Throws: ``DataStoreError/Code/unreadable`` naming the key when the entry exists but cannot be read
    ///   or is not a regular file, ``DataStoreError/Code/tooLarge`` when it holds more than ``maximumEntryBytes``.
    public func fetchData(forKey key: String) throws(DataStoreError) -> Data? {
        let normalized = try DataStoreError.validate(key)
        var result = AtomicFile.contents(of: normalized + Self.suffix, in: opened, maximumBytes: maximumEntryBytes)
        if case .missing = result {
            // Another spelling of the key on disk, written by something other than a store.
            let others: [String]
            do {
                others = try otherSpellings(of: normalized)
            } catch {
                throw DataStoreError(.unreadable, key: key, "cannot read \"\(key)\": cannot list the store directory: \(error.reason)")
            }
            for name in others {
                result = AtomicFile.contents(of: name, in: opened, maximumBytes: maximumEntryBytes)
                if case .missing = result { continue }
                break
            }
        }
        switch result {
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
        let normalized = try DataStoreError.validate(key)
        func unwritable(_ reason: String) -> DataStoreError {
            DataStoreError(.unwritable, key: key, "cannot destroy \"\(key)\": \(reason)")
        }
        var removed = false
        let others: [String]
        do {
            others = try otherSpellings(of: normalized)
        } catch {
            throw unwritable("cannot list the store directory: \(error.reason)")
        }
        let before = opened.changed()
        var gone: [String] = []
        defer { accountOwnChange(from: before, removed: gone) }
        for name in [normalized + Self.suffix] + others {
            switch opened.remove(name) {
            case .removed: removed = true
            case .missing: break
            case .failed(let reason): throw unwritable(reason)
            }
            gone.append(name)
        }
        guard removed else { return false }
        metaController?.signals.dispatch(DataChange.signal, DataChange(key: key, kind: .destroyed), isolation: nil)
        return true
    }

    /// Every key that has an entry, sorted, each once and in NFC.
    ///
    /// Only keys that open an entry are listed: a file whose name is not UTF-8, or is no valid key
    /// (see ``DataController``), is left out. Two files whose names are spellings of one key are
    /// one entry, listed once.
    ///
    /// - Throws: ``DataStoreError/Code/unavailable`` when the directory cannot be read.
    public func keys() throws(DataStoreError) -> [String] {
        let names: [String]
        do {
            names = try opened.names()
        } catch {
            throw DataStoreError(.unavailable, key: "", "cannot list the store directory \(directory.path): \(error.reason)")
        }
        var keys = Set<String>()
        for name in names {
            guard let stem = Self.stem(of: name), let key = try? DataStoreError.validate(stem) else { continue }
            keys.insert(key)
        }
        return keys.sorted()
    }

    /// Saves `data` under `key` atomically, on a queue of the store: the task waits without blocking a thread of the cooperative pool.
    ///
    /// Async saves and destroys of one key run one at a time, in the order they were called: this
    /// runs on the caller's actor until the work is queued, before it first suspends.
    ///
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - key: The entry's key.
    /// - Throws: What the synchronous ``save(_:forKey:)-(Data,_)`` throws.
    public nonisolated(nonsending) func save(_ data: Data, forKey key: String) async throws(DataStoreError) {
        try await queues.write(try DataStoreError.validate(key), queued: opened.seams.queued) { () throws(DataStoreError) in
            try self.save(data, forKey: key)
        }
    }

    /// The data under `key`, or `nil`, read on a queue of the store: the task waits without blocking a thread of the cooperative pool.
    ///
    /// - Parameter key: The entry's key.
    /// - Throws: What the synchronous ``fetchData(forKey:)`` throws.
    public nonisolated(nonsending) func fetchData(forKey key: String) async throws(DataStoreError) -> Data? {
        _ = try DataStoreError.validate(key)
        return try await queues.read { () throws(DataStoreError) in try self.fetchData(forKey: key) }
    }

    /// Removes the entry under `key` on a queue of the store, in order with the async saves of the key.
    ///
    /// - Parameter key: The entry's key.
    /// - Returns: Whether there was one.
    /// - Throws: What the synchronous ``destroy(_:)`` throws.
    @discardableResult
    public nonisolated(nonsending) func destroy(_ key: String) async throws(DataStoreError) -> Bool {
        try await queues.write(try DataStoreError.validate(key), queued: opened.seams.queued) { () throws(DataStoreError) in
            try self.destroy(key)
        }
    }

    /// Every key that has an entry, sorted, listed on a queue of the store.
    ///
    /// - Throws: What the synchronous ``keys()`` throws.
    public nonisolated(nonsending) func keys() async throws(DataStoreError) -> [String] {
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
