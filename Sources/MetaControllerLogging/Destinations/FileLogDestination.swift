public import MetaControllerCore
import Dispatch
public import Foundation

/// Writes entries to a file, rotating it by size and keeping a fixed number of files.
///
/// The current file is `app.log` (or the name given); when a write would make
/// it larger than `maximumFileBytes`, it becomes `app.1.log`, `app.1.log`
/// becomes `app.2.log`, and so on; the oldest beyond `keptFiles` is deleted.
/// Files are readable and writable by their owner only; so is the directory: one it
/// creates is `0700`, and an existing one open to group or others is restricted to
/// `0700` (or refused when it belongs to another user). A shared directory, sticky and
/// writable by others (`/tmp`, mode `01777`), is refused and left as it is: give the logs
/// a directory of their own inside it.
/// The current file must be a regular file with one name: a symbolic link, a FIFO or a
/// device there is refused, never followed or waited on, and so is a hard link (a file
/// with another name too, which would get the lines), as `logrotate` refuses it.
///
/// The directory is opened once, when the destination is made (a symbolic link there is
/// followed then, once), and every file operation after that is made relative to that
/// descriptor (`openat`, `renameat`, `unlinkat`, `fstatat`, never following a link), as the
/// data store does: if the directory's path is later moved, or replaced by a symbolic link
/// to another directory, the destination keeps writing and rotating in the directory it
/// opened and touches nothing in the other one. ``path(ofFile:)`` still answers with paths
/// under ``directory``.
///
/// Formatting and writing happen on a serial queue, in order, never on the
/// logging thread.
///
/// A file deleted or replaced while it is open (a user clearing the logs, `logrotate`
/// moving it away) is followed as Python's `WatchedFileHandler` follows it: before each
/// line it writes, the destination compares the device and inode of what the current
/// file's name names (`fstatat`) with those of the file it has open, and when they differ
/// it syncs and closes the file it had and opens the name again, so the next line, even
/// in the middle of a backlog, reaches the new file. A failed `fsync` of the file let go
/// of is reported by ``lastFailure`` as one in ``flush()`` is. The same look gives the
/// file's real size, so a file truncated in place (`: > app.log`, `logrotate`'s
/// `copytruncate`) is counted from its new size and is not rotated early.
///
/// ``flush()`` returns when everything written before it is on disk
/// (`fsync`); when the destination is released, every entry written to it
/// has been written and it syncs and closes the file. A failed `fsync` (`EIO`:
/// lines already written may not be on disk) is reported by ``lastFailure``
/// until a later ``flush()`` syncs the file.
///
/// The queue is bounded by ``maximumQueuedBytes`` (8 MiB by default). Past
/// four fifths of it, entries below ``LogLevel/warning`` are dropped; at the
/// bound, a `.warning`, `.error` or `.critical` entry makes the logging thread
/// wait until the queue has room, so those are never dropped. Dropped entries
/// are counted in ``droppedEntries``, and a warning line saying how many were
/// dropped is written where they were missed, before the next entry written.
/// Entries reach the file in the order they were logged, whatever their levels:
/// while an entry waits for room, every entry logged after it waits behind it
/// (`.warning` and above) or is dropped (below `.warning`), so none overtakes it.
///
/// Several processes may log into one file (an app and its extension in one App Group
/// container, two server workers): each appends whole lines (`O_APPEND`), and a rotation
/// happens while the rotating process holds an exclusive `flock` on the directory, as
/// logback's prudent mode holds a lock. A process that takes the lock to rotate and finds
/// that the current file's name no longer names the file it has open (device and inode)
/// knows another process rotated first: it opens the new file instead of rotating again.
/// Lines another process writes into a file just rotated land in `app.1.log`, kept with
/// the rest. Each process counts the file's real size (read before each line), so a file
/// may pass ``maximumFileBytes`` only by what another writes between that reading and the line.
///
/// Rotation removes and renames only regular files. Anything else at a rotated file's
/// name (a directory named `app.2.log`, a symbolic link, a FIFO) is left in place and
/// reported by a warning line, the first in the new file; the files below it shift up to
/// it, so fewer files are kept until it is gone. ``lastFailure`` does not report it: the
/// line that follows the rotation would clear it at once.
///
/// A line that would take the current file past ``maximumFileBytes`` rotates it first; a file
/// of exactly ``maximumFileBytes`` is not rotated, and an empty file takes a line larger than
/// the limit whole, with no rotation.
///
/// When the file cannot be reopened after a rotation or a replacement (the disk's inodes
/// used up, a hard link planted at its name, say), the destination tries again on a later
/// write, at most once a second, and the entries written meanwhile are lost and counted in ``droppedEntries``;
/// the first line that reaches the file again is a warning saying how many were
/// lost and why, and ``lastFailure`` is cleared.
///
/// ```swift
/// let file = try FileLogDestination(
///     directory: URL.cachesDirectory.appending(path: "Logs"),
///     maximumFileBytes: 512 * 1024, keptFiles: 4)
/// let log = StandardLogController(destinations: [file])
/// ```
public final class FileLogDestination: LogDestination {
    /// The file: touched by the queue, read by ``lastFailure`` and `deinit`.
    private struct State: Sendable {
        var descriptor: Int32
        var size: Int
        /// What the open file is, to tell whether its name still names it.
        var identity: FileIdentity?
        var failure: String?
        /// Why the last `fsync` failed, until one succeeds: reported by ``lastFailure`` when no write failed.
        var syncFailure: String?
        /// Entries that did not reach the file since the last write that did.
        var unwritten = 0
        /// Entries dropped from a full queue that no line in the file has reported yet.
        var unreportedDrops = 0
        /// Whether the last write failed after a part of its line may have reached the file.
        var mayBeTorn = false
        /// While the file is closed after a failed open: when it may be tried again.
        var reopenNotBefore: ContinuousClock.Instant?
        /// Warning lines about the last rotation, written before the next line.
        var rotationNotices: [UInt8] = []
    }

    /// The directory the files are in.
    public let directory: URL
    /// The current file's name, such as `app.log`.
    public let fileName: String
    /// The size at which the current file is rotated.
    public let maximumFileBytes: Int
    /// How many files are kept, the current one included.
    public let keptFiles: Int
    /// The lowest level written.
    public let minimumLevel: LogLevel
    /// How entries are written.
    public let format: LogFormat
    /// How many bytes of entries may wait in the queue: each entry counts the UTF-8 bytes of its
    /// message, file, function and metadata, plus 200 for the entry itself.
    ///
    /// Past four fifths of it, entries below ``LogLevel/warning`` are dropped; at the bound, the
    /// others make the logging thread wait for room. An entry larger than the whole bound is
    /// taken when the queue is empty.
    public let maximumQueuedBytes: Int

    private let queue = DispatchQueue(label: "MetaController.FileLogDestination")
    private let state: Lock<State>
    /// The bounded queue the entries wait in.
    private let admission: BoundedLogQueue
    /// The directory, opened once: every file operation is relative to it.
    private let directoryDescriptor: Int32
    /// Opens the current file, given its path, for appending; a test can hand the destination a file
    /// of its own. `nil`: ``openCurrentFile()`` opens it in ``directoryDescriptor``.
    private let openFile: (@Sendable (String) -> POSIXFile.OpenedFile)?
    /// Writes bytes to a descriptor, returning `0` or the error number; a test can slow it down.
    private let writeBytes: @Sendable ([UInt8], Int32) -> Int32
    /// The time, for the back-off between attempts to reopen the file; a test can move it.
    private let now: @Sendable () -> ContinuousClock.Instant
    /// How long after a failed open the file is tried again.
    let reopenInterval: Duration
    /// Where tests make the system calls fail or hold; ``FileLogSeams/system`` otherwise.
    let seams: FileLogSeams

    /// Opens (or creates) the log file in `directory`, creating the directory if needed.
    ///
    /// - Parameters:
    ///   - directory: Where the files go.
    ///   - fileName: The current file's name; `app.log` by default.
    ///   - maximumFileBytes: The size at which the file is rotated; 1 MiB by default, at least 1 KiB.
    ///   - keptFiles: How many files are kept, the current one included; 5 by default, at least 1.
    ///   - minimumLevel: The lowest level written; everything by default.
    ///   - format: How entries are written; JSON lines by default.
    ///   - maximumQueuedBytes: How many bytes of entries may wait to be written (``maximumQueuedBytes``);
    ///     8 MiB by default, at least 1 KiB.
    /// - Throws: ``LogSetupError`` when the directory cannot be created or restricted to its owner (it
    ///   belongs to another user, or is shared: sticky and writable by others), or the file cannot be
    ///   opened for writing, is not a regular file or has another name (a hard link).
    public convenience init(
        directory: URL, fileName: String = "app.log", maximumFileBytes: Int = 1024 * 1024, keptFiles: Int = 5,
        minimumLevel: LogLevel = .trace, format: LogFormat = .jsonLines, maximumQueuedBytes: Int = 8 * 1024 * 1024
    ) throws(LogSetupError) {
        try self.init(
            directory: directory, fileName: fileName, maximumFileBytes: maximumFileBytes, keptFiles: keptFiles,
            minimumLevel: minimumLevel, format: format, maximumQueuedBytes: maximumQueuedBytes, openingFilesWith: nil)
    }

    init(
        directory: URL, fileName: String = "app.log", maximumFileBytes: Int = 1024 * 1024, keptFiles: Int = 5,
        minimumLevel: LogLevel = .trace, format: LogFormat = .jsonLines, maximumQueuedBytes: Int = 8 * 1024 * 1024,
        reopenInterval: Duration = .seconds(1),
        openingFilesWith openFile: (@Sendable (String) -> POSIXFile.OpenedFile)?,
        writingWith writeBytes: @escaping @Sendable ([UInt8], Int32) -> Int32 = { POSIXFile.write($0, to: $1) },
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        seams: FileLogSeams = .system
    ) throws(LogSetupError) {
        guard !fileName.isEmpty, !fileName.contains("/"), fileName != ".", fileName != ".." else {
            throw LogSetupError(action: "use the log file name", path: fileName, reason: "it must be a plain file name")
        }
        self.directory = directory
        self.fileName = fileName
        self.maximumFileBytes = max(1024, maximumFileBytes)
        self.keptFiles = max(1, keptFiles)
        self.minimumLevel = minimumLevel
        self.format = format
        self.maximumQueuedBytes = max(1024, maximumQueuedBytes)
        self.admission = BoundedLogQueue(maximumQueuedBytes: max(1024, maximumQueuedBytes), waitingForRoom: seams.waitingForRoom)
        self.reopenInterval = reopenInterval
        self.openFile = openFile
        self.writeBytes = writeBytes
        self.now = now
        self.seams = seams
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw LogSetupError(
                action: "create the log directory", path: directory.path,
                reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            throw LogSetupError(action: "use the log directory", path: directory.path, reason: POSIXFile.errorText(errno))
        }
        if let reason = POSIXFile.restrictToOwner(directoryDescriptor: directoryDescriptor) {
            POSIXFile.close(directoryDescriptor)
            throw LogSetupError(action: "use the log directory", path: directory.path, reason: reason)
        }
        self.directoryDescriptor = directoryDescriptor
        let path = directory.appendingPathComponent(fileName).path
        let opened =
            openFile?(path)
            ?? Self.openRegularFile(fileName, in: directoryDescriptor, flags: O_WRONLY | O_APPEND | O_CREAT)
        guard case .opened(let descriptor, let size) = opened else {
            POSIXFile.close(directoryDescriptor)
            throw LogSetupError(action: "open the log file", path: path, reason: opened.failure ?? "")
        }
        state = Lock(State(descriptor: descriptor, size: size, identity: FileIdentity(descriptor: descriptor)))
    }

    deinit {
        // Every queued write holds the destination, so all of them have run by
        // now, and the last may be releasing it on the queue itself: waiting for
        // the queue here would deadlock. Report drops no line reported, sync and close directly.
        let drops = admission.takeUnreportedDrops()
        if drops > 0 { writeQueued(nil, droppedBefore: drops) }
        let descriptor = state.withLock { $0.descriptor }
        if descriptor >= 0 {
            POSIXFile.sync(descriptor)
            POSIXFile.close(descriptor)
        }
        POSIXFile.close(directoryDescriptor)
    }

    /// The name of file number `index` in the directory: 0 is the current file, 1 the one before, and so on.
    func name(ofFile index: Int) -> String {
        guard index > 0 else { return fileName }
        let url = URL(fileURLWithPath: fileName)
        let stem = url.deletingPathExtension().lastPathComponent, suffix = url.pathExtension
        return suffix.isEmpty ? "\(stem).\(index)" : "\(stem).\(index).\(suffix)"
    }

    /// The path of file number `index`: 0 is the current file, 1 the one before, and so on.
    public func path(ofFile index: Int) -> String {
        directory.appendingPathComponent(name(ofFile: index)).path
    }

    /// Opens the regular file `name` in the directory open as `directory` with `flags` (new files are
    /// `0600`), refusing anything else there without blocking: a symbolic link is not followed, a FIFO
    /// not waited on; and refusing a file with more than one name (a hard link).
    /// ``POSIXFile/openRegularFile(_:flags:)``, relative to a directory.
    static func openRegularFile(_ name: String, in directory: Int32, flags: Int32) -> POSIXFile.OpenedFile {
        let descriptor = openat(directory, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // O_NOFOLLOW fails on a link with ELOOP, a FIFO without a reader with ENXIO: say what is there.
            let number = errno
            var status = stat()
            if number != ENOENT, fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0,
                let kind = POSIXFile.kind(of: status)
            {
                return .refused(kind: kind)
            }
            return .failed(number)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let number = errno
            POSIXFile.close(descriptor)
            return .failed(number)
        }
        if let kind = POSIXFile.kind(of: status) {
            POSIXFile.close(descriptor)
            return .refused(kind: kind)
        }
        // A second name of another file (a hard link planted at the log's name): O_NOFOLLOW does not
        // stop it, and appending would write into that file.
        if status.st_nlink > 1 {
            POSIXFile.close(descriptor)
            return .linked(count: Int(status.st_nlink))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .opened(descriptor: descriptor, size: Int(status.st_size))
    }

    /// Opens the current file for appending: through the test's opener if it has one, else in the directory.
    private func openCurrentFile() -> POSIXFile.OpenedFile {
        openFile?(path(ofFile: 0)) ?? Self.openRegularFile(fileName, in: directoryDescriptor, flags: O_WRONLY | O_APPEND | O_CREAT)
    }

    /// What is at the name of file number `index`, never following a link; `nil` when nothing is (or it cannot be told).
    private func status(ofFile index: Int) -> stat? {
        var status = stat()
        return fstatat(directoryDescriptor, name(ofFile: index), &status, AT_SYMLINK_NOFOLLOW) == 0 ? status : nil
    }

    /// The last write error, if the last write failed: a full disk, or a file that could not be
    /// reopened after a rotation or a replacement (a hard link planted at its name); `nil` again once
    /// a line reaches the file. Otherwise why the last `fsync` failed (in ``flush()``, at a rotation,
    /// or of a file let go of because it was moved away or deleted), until a later ``flush()`` syncs the file.
    public var lastFailure: String? { state.withLock { $0.failure ?? $0.syncFailure } }

    /// How many entries given to the destination never reached the file since it was made: dropped
    /// because the queue was full, or lost because the file could not be opened or written.
    public var droppedEntries: Int { admission.dropped }

    /// The estimated bytes queued now, the most they have been, and how many logging threads wait for room; for tests.
    var queueLoad: (queued: Int, peak: Int, waiting: Int) {
        admission.load
    }

    /// Queues `entry` for the file; it is formatted and written on the destination's queue.
    ///
    /// Past four fifths of ``maximumQueuedBytes``, an entry below ``LogLevel/warning`` is dropped and
    /// counted; at the bound, a `.warning` or more severe entry waits here for room. While an entry
    /// waits, one logged after it is dropped (below `.warning`) or waits behind it, so entries reach
    /// the file in the order they were logged.
    public func write(_ entry: LogEntry, revealingPrivateValues: Bool) {
        admission.admit(entry, revealingPrivateValues: revealingPrivateValues) {
            queue.async { [self] in drain() }
        }
    }

    /// Writes the entries accepted, batch after batch, until none is left. Runs on the queue only.
    private func drain() {
        while true {
            let batch = admission.takeBatch()
            guard !batch.isEmpty else { return }
            for pending in batch {
                let line = Array(
                    (format.format(pending.entry, revealingPrivateValues: pending.revealingPrivateValues) + "\n").utf8)
                writeQueued(line, droppedBefore: pending.droppedBefore)
                admission.finished(pending)
            }
        }
    }

    /// Before a line: when the current file's name no longer names the open file (deleted, moved
    /// away or replaced), syncs and closes it and opens the name again; when it does, takes the
    /// file's real size from the same look. Runs on the queue only.
    ///
    /// Once a line, not once a batch: a batch is the whole backlog, and a file deleted in its middle
    /// would take the rest of it. One `fstatat` answers both questions.
    private func followCurrentFile() {
        let (descriptor, identity) = state.withLock { ($0.descriptor, $0.identity) }
        guard descriptor >= 0 else { return }
        if let status = status(ofFile: 0) {
            guard FileIdentity(status) != identity else {
                // The name's file is the open one: its size is the real one, smaller after a truncation
                // in place, larger by what another process appended.
                state.withLock { $0.size = Int(status.st_size) }
                return
            }
        } else if errno != ENOENT {
            return   // cannot tell: keep the file open
        }
        sync(descriptor)
        closeOpenFile(descriptor)
        _ = reopen()
    }

    /// Returns when every line queued before it is written and synced to disk.
    public func flush() {
        let drops = admission.takeUnreportedDrops()
        queue.sync {
            if drops > 0 { writeQueued(nil, droppedBefore: drops) }
            let descriptor = state.withLock { $0.descriptor }
            if descriptor >= 0 { sync(descriptor) }
        }
    }

    /// Syncs the file open as `descriptor` and records the outcome for ``lastFailure``. Runs on the queue only.
    private func sync(_ descriptor: Int32) {
        let failure = (seams.syncFile ?? fsync)(descriptor) == 0 ? nil : POSIXFile.errorText(errno)
        state.withLock { state in
            state.syncFailure = failure.map { "cannot sync \(path(ofFile: 0)): \($0)" }
        }
    }

    /// Writes `line` (none when only the reports are due), preceded by a warning for each kind of
    /// entry missed since the last line that reached the file. Runs on the queue, or in `deinit`.
    private func writeQueued(_ line: [UInt8]?, droppedBefore drops: Int) {
        let (unwritten, unreported, failure) = state.withLock { state in
            state.unreportedDrops += drops
            return (state.unwritten, state.unreportedDrops, state.failure)
        }
        var bytes: [UInt8] = []
        if unwritten > 0 {
            bytes += notice("\(unwritten) \(unwritten == 1 ? "entry" : "entries") not written: \(failure ?? "")")
        }
        if unreported > 0 {
            bytes += notice(
                "\(unreported) \(unreported == 1 ? "entry" : "entries") dropped: more than \(maximumQueuedBytes) bytes of entries waited to be written")
        }
        guard line != nil || !bytes.isEmpty else { return }
        bytes += line ?? []
        if append(bytes) {
            state.withLock { state in
                state.unwritten = 0
                state.unreportedDrops = 0
                state.failure = nil
                state.mayBeTorn = false
            }
        } else if line != nil {
            state.withLock { $0.unwritten += 1 }
            admission.countLost()
        }
    }

    /// A warning line from the destination itself, in its format.
    private func notice(_ message: String) -> [UInt8] {
        var entry = LogEntry(level: .warning, message: message, file: #fileID, function: #function, line: #line)
        entry.metadata = [:]
        return Array((format.format(entry) + "\n").utf8)
    }

    /// Writes `bytes` to the current file: follows its name first (``followCurrentFile()``), reopens
    /// it if it is closed (at most once per ``reopenInterval``), rotates it if they would take it past
    /// ``maximumFileBytes``. Runs on the queue only.
    ///
    /// - Returns: Whether every byte was written.
    private func append(_ bytes: [UInt8]) -> Bool {
        followCurrentFile()
        let (descriptor, size) = state.withLock { ($0.descriptor, $0.size) }
        if descriptor < 0 {
            guard reopen() else { return false }
        } else if size > 0, size + bytes.count > maximumFileBytes {
            rotate(closing: descriptor)
            guard reopen() else { return false }
        }
        return state.withLock { state in
            // A line cut short by a failed write is ended, so the next one starts a line of its own.
            let written = (state.mayBeTorn ? [0x0A] : []) + state.rotationNotices + bytes
            let error = writeBytes(written, state.descriptor)
            if error == 0 {
                state.size += written.count
                state.rotationNotices = []
                return true
            }
            state.failure = "cannot write \(path(ofFile: 0)): \(POSIXFile.errorText(error))"
            state.mayBeTorn = true
            return false
        }
    }

    /// Closes the open file `descriptor` and forgets it, so the next write opens the file again.
    private func closeOpenFile(_ descriptor: Int32) {
        POSIXFile.close(descriptor)
        state.withLock { state in
            state.descriptor = -1
            state.size = 0
            state.identity = nil
            state.reopenNotBefore = nil
        }
    }

    /// Opens the current file if it is closed and the back-off allows. Runs on the queue only.
    ///
    /// - Returns: Whether the file is open.
    private func reopen() -> Bool {
        let (descriptor, notBefore) = state.withLock { ($0.descriptor, $0.reopenNotBefore) }
        guard descriptor < 0 else { return true }
        let time = now()
        if let notBefore, time < notBefore { return false }
        let opened = openCurrentFile()
        return state.withLock { state in
            guard case .opened(let next, let size) = opened else {
                state.failure = "cannot open \(path(ofFile: 0)): \(opened.failure ?? "")"
                state.reopenNotBefore = time + reopenInterval
                return false
            }
            state.descriptor = next
            state.size = size
            state.identity = FileIdentity(descriptor: next)
            state.reopenNotBefore = nil
            state.mayBeTorn = false
            return true
        }
    }

    /// Closes the current file and shifts the files by one; ``reopen()`` opens the new one.
    /// Runs on the queue only.
    ///
    /// Only regular files are removed or renamed. The first file (from the current one) that is
    /// anything else stops the shift: it is left in place, the file below it is removed and those
    /// below that shift, and a notice says so before the next line.
    ///
    /// Other processes may write and rotate the same file: the shift happens while this one holds
    /// the directory's lock (`flock`, exclusive, on a descriptor of its own), and the new file is
    /// opened before it lets go. When, holding the lock, it finds that the current file's name no
    /// longer names the file it has open, another process has rotated it meanwhile: it opens the
    /// new file instead of rotating again. A file system without locks rotates unprotected.
    private func rotate(closing descriptor: Int32) {
        seams.rotating?()
        let lock = lockDirectory()
        defer { if lock >= 0 { POSIXFile.close(lock) } }   // releases the lock
        let identity = state.withLock { $0.identity }
        let rotatedElsewhere = status(ofFile: 0).map { FileIdentity($0) != identity } ?? true
        sync(descriptor)
        closeOpenFile(descriptor)
        if !rotatedElsewhere { shiftFiles() }
        _ = reopen()
    }

    /// Takes the directory's lock exclusively, waiting for another process that holds it.
    ///
    /// - Returns: The descriptor that holds it (closing it releases the lock); `-1` when no lock can be had.
    private func lockDirectory() -> Int32 {
        let lock = openat(directoryDescriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else { return -1 }
        var status: Int32
        repeat { status = flock(lock, LOCK_EX) } while status != 0 && errno == EINTR
        return lock
    }

    /// Shifts the files by one, as ``rotate(closing:)`` describes. Runs on the queue, holding the directory's lock.
    private func shiftFiles() {
        // How many files take part: up to the first that is not a regular file, or all that are kept.
        var limit = keptFiles
        for index in 0..<keptFiles {
            guard let status = status(ofFile: index), let kind = POSIXFile.kind(of: status) else { continue }
            limit = index
            let kept = index == 0 ? "the file is not rotated" : "\(index) \(index == 1 ? "file is" : "files are") kept"
            let notice = notice(
                "rotation left \(path(ofFile: index)) in place: it is \(kind), not a regular file; \(kept) until it is removed")
            state.withLock { $0.rotationNotices += notice }
            break
        }
        guard limit > 0 else { return }
        if let status = status(ofFile: limit - 1), POSIXFile.kind(of: status) == nil {
            _ = unlinkat(directoryDescriptor, name(ofFile: limit - 1), 0)
        }
        for index in stride(from: limit - 2, through: 0, by: -1) {
            // A missing file is skipped; rename replaces only the regular file (or nothing) at the next name.
            _ = renameat(directoryDescriptor, name(ofFile: index), directoryDescriptor, name(ofFile: index + 1))
        }
    }
}

/// A file's device and inode: what `WatchedFileHandler` compares to tell whether a name still names a file.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ status: stat) {
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
    }

    /// The identity of the file open as `descriptor`; `nil` when `fstat` fails.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }
}

/// Points where a test can make fail, or hold, the system calls a file destination's promises rest
/// on; a destination made by the public initializer has none (``system``).
///
/// A skipped or failed `fsync` passes every test short of a power cut: only a stand-in shows that
/// its failure is reported.
struct FileLogSeams: Sendable {
    /// Called instead of `fsync` on the log file; returns `0`, or `-1` with `errno` set.
    var syncFile: (@Sendable (_ descriptor: Int32) -> Int32)?
    /// Called on a logging thread whose entry must wait for room, before it waits.
    var waitingForRoom: (@Sendable () -> Void)?
    /// Called on the destination's queue when it is about to rotate, before it takes the directory's lock.
    var rotating: (@Sendable () -> Void)?

    /// The system's calls, and nothing watching.
    static let system = FileLogSeams()
}
