import MetaControllerCore
import MetaControllerSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory of a ``FileDataController``, opened once when the store is opened.
///
/// Every operation on the store's files is made relative to this descriptor (`openat`,
/// `renameat`, `unlinkat`, `fstatat`), never by path: if the directory's path is later
/// moved, or replaced by a symbolic link to somewhere else, the store keeps working on
/// the directory it opened.
final class StoreDirectory: Sendable {
    /// Why the directory could not be opened or read: the system's reason.
    struct Failure: Error {
        let reason: String
    }

    /// The open directory; closed when the store goes away.
    let descriptor: Int32
    /// Where tests watch or fail the store's flushes and reads; ``StoreSeams/system`` otherwise.
    let seams: StoreSeams

    /// Opens the directory at `path`. A symbolic link there is followed once, now.
    init(path: String, seams: StoreSeams = .system) throws(Failure) {
        let opened = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else { throw Failure(reason: POSIXFile.errorText(errno)) }
        descriptor = opened
        self.seams = seams
    }

    deinit { POSIXFile.close(descriptor) }

    /// Takes every permission away from group and others when the directory has any and belongs
    /// to this process's user (`0777` becomes `0700`).
    ///
    /// - Returns: `nil` when the directory is its owner's only, or why it is not.
    func restrictToOwner() -> String? {
        POSIXFile.restrictToOwner(directoryDescriptor: descriptor)
    }

    /// The names in the directory that are UTF-8 (others cannot be named by a key), `.` and `..` left out.
    ///
    /// - Parameter include: Whether to keep a name, given its bytes; cheaper than making every name a `String`.
    func names(where include: (UnsafeRawBufferPointer) -> Bool = { _ in true }) throws(Failure) -> [String] {
        // A descriptor of its own, with its own read position: lists made at once do not disturb each other.
        let listing = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listing >= 0 else { throw Failure(reason: POSIXFile.errorText(errno)) }
        guard let stream = fdopendir(listing) else {
            let number = errno
            POSIXFile.close(listing)
            throw Failure(reason: POSIXFile.errorText(number))
        }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw Failure(reason: POSIXFile.errorText(errno)) }
                return names
            }
            // The name is read where it lies, up to its NUL: a record is only as long as its name
            // needs (`d_reclen`), so copying `entry.pointee` or its whole `d_name` field reads past
            // the record, and past the end of the mapped buffer when the record ends a page.
            guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { continue }
            let start = UnsafeRawPointer(entry) + offset
            let name = UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))
            let kept: String? = {
                if name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) || !include(name) { return nil }
                let text = String(decoding: name, as: UTF8.self)
                // Bytes that are not UTF-8 were replaced: no string opens that file again.
                return text.utf8.elementsEqual(name) ? text : nil
            }()
            if let kept { names.append(kept) }
        }
    }

    /// Runs `body` while no save is between creating its temporary file and locking it.
    ///
    /// A save holds the directory's lock shared (`flock` on a descriptor of its own) from before it
    /// creates its temporary file until it holds that file's lock; this takes the directory's
    /// lock exclusively, so every temporary file `body` finds is either locked by its writer or
    /// abandoned. Opening a store cleans up inside it. A file system without locks runs `body`
    /// unprotected, as before locks.
    func excludingNewTemporaryFiles<Result>(_ body: () -> Result) -> Result {
        let lock = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else { return body() }
        defer { POSIXFile.close(lock) }   // releases the lock
        var status: Int32
        repeat { status = flock(lock, LOCK_EX | LOCK_NB) } while status != 0 && errno == EINTR
        if status != 0, errno == EWOULDBLOCK {
            seams.waitingForSaves?()
            repeat { status = flock(lock, LOCK_EX) } while status != 0 && errno == EINTR
        }
        return body()
    }

    /// Takes the directory's lock shared, for a save about to create its temporary file (see
    /// ``excludingNewTemporaryFiles(_:)``).
    ///
    /// - Returns: The descriptor that holds the lock, for ``endNewTemporaryFile(_:)``; `-1` when no
    ///   lock could be had (the save goes on unprotected).
    func beginNewTemporaryFile() -> Int32 {
        let lock = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else { return -1 }
        var status: Int32
        repeat { status = flock(lock, LOCK_SH) } while status != 0 && errno == EINTR
        return lock
    }

    /// Releases what ``beginNewTemporaryFile()`` took, once the save holds its temporary file's lock.
    func endNewTemporaryFile(_ lock: Int32) {
        if lock >= 0 { POSIXFile.close(lock) }
    }

    /// Removes the file `name` if it is a temporary file no writer holds: one whose lock can be
    /// taken (a writer holds its temporary file locked from creating it until it is renamed),
    /// or anything but a regular file or a directory (no writer makes those).
    func removeIfAbandoned(_ name: String) {
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            var status = stat()
            if errno != ENOENT, fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, Self.isLink(status) {
                unlinkat(descriptor, name, 0)
            }
            return
        }
        defer { POSIXFile.close(file) }
        var status = stat()
        guard fstat(file, &status) == 0 else { return }
        switch UInt32(status.st_mode) & UInt32(S_IFMT) {
        case UInt32(S_IFREG): break
        case UInt32(S_IFDIR): return
        default:
            unlinkat(descriptor, name, 0)
            return
        }
        var locked: Int32
        repeat { locked = flock(file, LOCK_EX | LOCK_NB) } while locked != 0 && errno == EINTR
        // A live writer holds it (or the file system has no locks: then nothing tells a live writer's file from a crash's).
        guard locked == 0 else { return }
        // Unlink only the file that was locked: the name must still be that file.
        var named = stat()
        guard fstatat(descriptor, name, &named, AT_SYMLINK_NOFOLLOW) == 0, named.st_dev == status.st_dev, named.st_ino == status.st_ino
        else { return }
        unlinkat(descriptor, name, 0)
    }

    /// What ``remove(_:)`` did.
    enum Removal: Equatable {
        case removed
        case missing
        case failed(String)
    }

    /// Removes the file (or link, or empty directory) `name`; a link is removed, never its target.
    func remove(_ name: String) -> Removal {
        if unlinkat(descriptor, name, 0) == 0 { return .removed }
        let number = errno
        if number == ENOENT { return .missing }
        // Linux answers EISDIR for a directory, Darwin EPERM.
        var status = stat()
        if number == EISDIR || number == EPERM, fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0,
            UInt32(status.st_mode) & UInt32(S_IFMT) == UInt32(S_IFDIR)
        {
            if unlinkat(descriptor, name, AT_REMOVEDIR) == 0 { return .removed }
            return errno == ENOENT ? .missing : .failed(POSIXFile.errorText(errno))
        }
        return .failed(POSIXFile.errorText(number))
    }

    /// Flushes the directory itself, to make a rename in it durable.
    ///
    /// A failure is not reported: the rename it follows is already visible, so the save has
    /// happened, and some file systems refuse `fsync` on a directory outright.
    func sync() { _ = (seams.syncDirectory ?? fsync)(descriptor) }

    /// When the directory last changed (its status change time, which every entry added, removed
    /// or renamed moves on and no program can set back), or `nil` when it cannot be read.
    func changed() -> Duration? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        #if canImport(Darwin)
        let time = status.st_ctimespec
        #else
        let time = status.st_ctim
        #endif
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }

    /// The wall clock now (the clock file times are taken from).
    func now() -> Duration {
        if let wallClock = seams.wallClock { return wallClock() }
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }

    /// Flushes a file the store wrote (a save's temporary file, before its rename).
    ///
    /// - Returns: `nil` when the data is on disk, otherwise the system's reason.
    func syncFile(_ file: Int32) -> String? {
        (seams.syncFile ?? fsync)(file) == 0 ? nil : POSIXFile.errorText(errno)
    }

    private static func isLink(_ status: stat) -> Bool { UInt32(status.st_mode) & UInt32(S_IFMT) == UInt32(S_IFLNK) }
}

/// Points where a test can watch, or make fail, the system calls a store's durability and
/// size limit rest on; a store opened by the public initializer has none (``system``).
///
/// They exist because the promises they let a test check cannot be seen from outside: a save
/// that skipped its `fsync` still passes every test short of a power cut, and a file that grows
/// between the read's size check and its reads needs another process at exactly that moment.
struct StoreSeams: Sendable {
    /// Called instead of `fsync` on a save's temporary file; returns `0`, or `-1` with `errno` set.
    var syncFile: (@Sendable (_ descriptor: Int32) -> Int32)?
    /// Called instead of `fsync` on the store's directory after a rename.
    var syncDirectory: (@Sendable (_ descriptor: Int32) -> Int32)?
    /// Called after a save created its temporary file `name` and before it locks it (while it
    /// holds the directory's lock shared).
    var created: (@Sendable (_ name: String) -> Void)?
    /// Called when opening a store finds a save between creating its temporary file and locking
    /// it, before the opening waits for that save.
    var waitingForSaves: (@Sendable () -> Void)?
    /// Called when an async save or destroy of the key has queued its work, on the caller, before
    /// the call first suspends.
    var queued: (@Sendable (_ key: String) -> Void)?
    /// Called after a read has measured the open entry `name` and found it within the limit,
    /// before it reads a byte.
    var measured: (@Sendable (_ name: String) -> Void)?
    /// Called when a store lists its directory for other spellings of a key.
    var listedForSpellings: (@Sendable () -> Void)?
    /// The wall clock, in place of `CLOCK_REALTIME`: a test moves it on instead of waiting.
    var wallClock: (@Sendable () -> Duration)?

    /// The system's calls, and nothing watching.
    static let system = StoreSeams()
}
