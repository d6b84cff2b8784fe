import Dispatch
public import Foundation

/// Writes entries to a file, rotating it by size and keeping a fixed number of files.
///
/// The current file is `app.log` (or the name given); when a write would make
/// it larger than `maximumFileBytes`, it becomes `app.1.log`, `app.1.log`
/// becomes `app.2.log`, and so on; the oldest beyond `keptFiles` is deleted.
/// Files are readable and writable by their owner only; so is the directory: one it
/// creates is `0700`, and an existing one open to group or others is restricted to
/// `0700` (or refused when it belongs to another user).
/// The current file must be a regular file: a symbolic link, a FIFO or a device
/// there is refused, never followed or waited on.
///
/// Formatting and writing happen on a serial queue, in order, never on the
/// logging thread.
/// ``flush()`` returns when everything written before it is on disk
/// (`fsync`); when the destination is released, every entry written to it
/// has been written and it syncs and closes the file.
///
/// ```swift
/// let file = try FileLogDestination(
///     directory: URL.cachesDirectory.appending(path: "Logs"),
///     maximumFileBytes: 512 * 1024, keptFiles: 4)
/// let log = StandardLogController(destinations: [file])
/// ```
public final class FileLogDestination: LogDestination {
    private struct State: Sendable {
        var descriptor: Int32
        var size: Int
        var failure: String?
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

    private let queue = DispatchQueue(label: "MetaController.FileLogDestination")
    private let state: Lock<State>
    /// Opens the current file for appending; a test can hand the destination a file of its own.
    private let openFile: @Sendable (String) -> POSIXFile.OpenedFile

    /// Opens (or creates) the log file in `directory`, creating the directory if needed.
    ///
    /// - Parameters:
    ///   - directory: Where the files go.
    ///   - fileName: The current file's name; `app.log` by default.
    ///   - maximumFileBytes: The size at which the file is rotated; 1 MiB by default, at least 1 KiB.
    ///   - keptFiles: How many files are kept, the current one included; 5 by default, at least 1.
    ///   - minimumLevel: The lowest level written; everything by default.
    ///   - format: How entries are written; JSON lines by default.
    /// - Throws: ``LogSetupError`` when the directory cannot be created or restricted to its owner, or the
    ///   file cannot be opened for writing or is not a regular file.
    public convenience init(
        directory: URL, fileName: String = "app.log", maximumFileBytes: Int = 1024 * 1024, keptFiles: Int = 5,
        minimumLevel: LogLevel = .trace, format: LogFormat = .jsonLines
    ) throws(LogSetupError) {
        try self.init(
            directory: directory, fileName: fileName, maximumFileBytes: maximumFileBytes, keptFiles: keptFiles,
            minimumLevel: minimumLevel, format: format,
            openingFilesWith: { path in
                POSIXFile.openRegularFile(path, flags: O_WRONLY | O_APPEND | O_CREAT)
            })
    }

    init(
        directory: URL, fileName: String = "app.log", maximumFileBytes: Int = 1024 * 1024, keptFiles: Int = 5,
        minimumLevel: LogLevel = .trace, format: LogFormat = .jsonLines,
        openingFilesWith openFile: @escaping @Sendable (String) -> POSIXFile.OpenedFile
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
        self.openFile = openFile
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw LogSetupError(
                action: "create the log directory", path: directory.path,
                reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
        if let reason = POSIXFile.restrictToOwner(directory: directory.path) {
            throw LogSetupError(action: "use the log directory", path: directory.path, reason: reason)
        }
        let path = directory.appendingPathComponent(fileName).path
        let opened = openFile(path)
        guard case .opened(let descriptor, let size) = opened else {
            throw LogSetupError(action: "open the log file", path: path, reason: opened.failure ?? "")
        }
        state = Lock(State(descriptor: descriptor, size: size))
    }

    deinit {
        // Every queued write holds the destination, so all of them have run by
        // now, and the last may be releasing it on the queue itself: waiting for
        // the queue here would deadlock. Sync and close directly.
        let descriptor = state.withLock { $0.descriptor }
        POSIXFile.sync(descriptor)
        POSIXFile.close(descriptor)
    }

    /// The path of file number `index`: 0 is the current file, 1 the one before, and so on.
    public func path(ofFile index: Int) -> String {
        guard index > 0 else { return directory.appendingPathComponent(fileName).path }
        let url = URL(fileURLWithPath: fileName)
        let stem = url.deletingPathExtension().lastPathComponent, suffix = url.pathExtension
        return directory.appendingPathComponent(suffix.isEmpty ? "\(stem).\(index)" : "\(stem).\(index).\(suffix)").path
    }

    /// The last write error, if writing failed since the destination was made: a full disk, say.
    public var lastFailure: String? { state.withLock { $0.failure } }

    /// Queues `entry` for the file; it is formatted and written on the destination's queue.
    public func write(_ entry: LogEntry, revealingPrivateValues: Bool) {
        queue.async { [self] in
            append(Array((format.format(entry, revealingPrivateValues: revealingPrivateValues) + "\n").utf8))
        }
    }

    /// Returns when every line queued before it is written and synced to disk.
    public func flush() {
        queue.sync {
            POSIXFile.sync(state.withLock { $0.descriptor })
        }
    }

    /// Runs on the queue only.
    private func append(_ line: [UInt8]) {
        let (descriptor, size) = state.withLock { ($0.descriptor, $0.size) }
        if size > 0, size + line.count > maximumFileBytes { rotate(closing: descriptor) }
        state.withLock { state in
            let error = POSIXFile.write(line, to: state.descriptor)
            if error == 0 {
                state.size += line.count
            } else {
                state.failure = "cannot write \(path(ofFile: 0)): \(POSIXFile.errorText(error))"
            }
        }
    }

    /// Shifts the files by one and opens a new current file. Runs on the queue only.
    private func rotate(closing descriptor: Int32) {
        POSIXFile.sync(descriptor)
        POSIXFile.close(descriptor)
        let files = FileManager.default
        try? files.removeItem(atPath: path(ofFile: keptFiles - 1))
        if keptFiles > 1 {
            for index in stride(from: keptFiles - 2, through: 0, by: -1) where files.fileExists(atPath: path(ofFile: index)) {
                try? files.moveItem(atPath: path(ofFile: index), toPath: path(ofFile: index + 1))
            }
        } else {
            try? files.removeItem(atPath: path(ofFile: 0))
        }
        let opened = openFile(path(ofFile: 0))
        state.withLock { state in
            state.size = 0
            if case .opened(let next, let size) = opened {
                state.descriptor = next
                state.size = size
            } else {
                state.descriptor = -1
                state.failure = "cannot open \(path(ofFile: 0)): \(opened.failure ?? "")"
            }
        }
    }
}
