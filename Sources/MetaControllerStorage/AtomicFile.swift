import MetaControllerCore
import MetaControllerSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a file so that a crash leaves the old contents or the new, never a mix.
///
/// Every call is relative to the store's open directory (see ``StoreDirectory``).
enum AtomicFile {
    /// How many times a save starts over with a new temporary file after something that takes no
    /// lock removed its temporary file before the rename (an older version of the package opening
    /// the store, or a tool).
    static let maximumAttempts = 8

    /// Writes `data` to a new temporary file `<temporaryPrefix><UUID>` in `directory` (created `0600`,
    /// never an existing file or link), syncs it, renames it over `destination`, and syncs `directory`.
    ///
    /// The temporary file is held locked (`flock`, exclusive) from just after it is created until
    /// after the rename, and the directory's lock is held shared from before the create until the
    /// file is locked, so that opening a store, which cleans up under the directory's lock held
    /// exclusively and removes only temporary files whose lock it can take, never removes it.
    /// When it was removed all the same (by something that takes no lock), the write starts over
    /// with a new temporary file.
    ///
    /// - Returns: `nil` on success, otherwise the system's reason; the temporary file is removed.
    static func write(_ data: Data, in directory: StoreDirectory, replacing destination: String, temporaryPrefix: String) -> String? {
        for _ in 0..<maximumAttempts {
            let temporary = temporaryPrefix + UUID().uuidString
            // From before the file exists until it is locked, the directory's lock is held shared:
            // opening a store (which takes it exclusively to clean up) can never find the file unlocked.
            let creating = directory.beginNewTemporaryFile()
            let descriptor = openat(directory.descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                let number = errno
                directory.endNewTemporaryFile(creating)
                return POSIXFile.errorText(number)
            }
            directory.seams.created?(temporary)
            // A file system without locks fails here; the write goes on unprotected, as before locks.
            while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
            directory.endNewTemporaryFile(creating)
            let outcome = writeLocked(data, to: descriptor, named: temporary, in: directory, replacing: destination)
            if case .failed = outcome { unlinkat(directory.descriptor, temporary, 0) }
            POSIXFile.close(descriptor)   // releases the lock
            switch outcome {
            case .renamed:
                // Make the rename itself durable.
                directory.sync()
                return nil
            case .failed(let reason): return reason
            case .removed: continue
            }
        }
        return "its temporary file was removed by something else \(maximumAttempts) times in a row"
    }

    private enum Outcome {
        case renamed
        /// The temporary file was unlinked by something else before it could be renamed.
        case removed
        case failed(String)
    }

    private static func writeLocked(
        _ data: Data, to descriptor: Int32, named temporary: String, in directory: StoreDirectory, replacing destination: String
    ) -> Outcome {
        // Something that takes no lock (an older version of this package opening the store, a
        // tool) may have removed the file: then it has no name left, and the write starts over.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failed(POSIXFile.errorText(errno)) }
        guard status.st_nlink > 0 else { return .removed }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    failure = POSIXFile.errorText(errno)
                    return
                }
                offset += count
            }
        }
        if let failure { return .failed(failure) }
        if let failure = directory.syncFile(descriptor) { return .failed(failure) }
        if renameat(directory.descriptor, temporary, directory.descriptor, destination) != 0 {
            let number = errno
            if fstat(descriptor, &status) == 0, status.st_nlink == 0 { return .removed }
            return .failed(POSIXFile.errorText(number))
        }
        return .renamed
    }

    /// What ``contents(of:in:maximumBytes:)`` found.
    enum ReadResult {
        case contents(Data)
        case missing
        case failed(String)
        /// The file holds more than the limit.
        case tooLarge
    }

    /// Reads the whole regular file `name` in `directory` with plain system calls, up to `maximumBytes`.
    ///
    /// A symbolic link is not followed, and a FIFO, a device or a directory is refused
    /// without reading or waiting. `Data(contentsOf:)` with a `URL` spent about a quarter of
    /// a fetch in URL handling alone (see CHANGELOG.md, "Performance history"); a store reads small files by name.
    static func contents(of name: String, in directory: StoreDirectory, maximumBytes: Int) -> ReadResult {
        let descriptor = openat(directory.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            // O_NOFOLLOW fails on a link with ELOOP: say what is there rather than that.
            let number = errno
            if number == ENOENT { return .missing }
            var status = stat()
            if fstatat(directory.descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, let kind = POSIXFile.kind(of: status) {
                return .failed("it is \(kind), not a regular file")
            }
            return .failed(POSIXFile.errorText(number))
        }
        defer { POSIXFile.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failed(POSIXFile.errorText(errno)) }
        if let kind = POSIXFile.kind(of: status) { return .failed("it is \(kind), not a regular file") }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        let size = Int(status.st_size)
        guard size <= maximumBytes else { return .tooLarge }
        directory.seams.measured?(name)
        // One byte more than the size, so that the read that finds the end of
        // the file needs no larger buffer unless the file grew after the fstat.
        var data = Data(count: max(size, 0) + 1)
        var count = 0
        while true {
            if count == data.count {
                // The file grew after the fstat: read on, but never more than one byte past the limit.
                guard count <= maximumBytes else { return .tooLarge }
                data.count = min(data.count + max(data.count, 4096), maximumBytes + 1)
            }
            let result = data.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else { return .failed(POSIXFile.errorText(errno)) }
            if result == 0 { break }
            count += result
        }
        data.count = count
        return .contents(data)
    }

    private static func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(descriptor, pointer, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, pointer, count)
        #else
        Glibc.write(descriptor, pointer, count)
        #endif
    }
}
