#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a file so that a crash leaves the old contents or the new, never a mix.
enum AtomicFile {
    /// Writes `data` to `temporary` (created `0600`, never an existing file or link), syncs it,
    /// renames it over `destination`, and syncs `directory`.
    ///
    /// - Returns: `nil` on success, otherwise the system's reason; the temporary file is removed.
    static func write(_ data: Data, to temporary: String, replacing destination: String, directory: String) -> String? {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += count
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, rename(temporary, destination) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil {
            unlink(temporary)
            return failure
        }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        return nil
    }

    /// What ``contents(of:)`` found.
    enum ReadResult {
        case contents(Data)
        case missing
        case failed(String)
        /// The file holds more than the limit.
        case tooLarge
    }

    /// Reads the whole regular file at `path` with plain system calls, up to `maximumBytes`.
    ///
    /// A symbolic link is not followed, and a FIFO, a device or a directory is refused
    /// without reading or waiting. `Data(contentsOf:)` with a `URL` spent about a quarter of
    /// a fetch in URL handling alone (see Docs/Performance.md); a store reads small files by path.
    static func contents(of path: String, maximumBytes: Int) -> ReadResult {
        let opened = POSIXFile.openRegularFile(path, flags: O_RDONLY)
        guard case .opened(let descriptor, let size) = opened else {
            if case .failed(ENOENT) = opened { return .missing }
            return .failed(opened.failure ?? "")
        }
        defer { POSIXFile.close(descriptor) }
        guard size <= maximumBytes else { return .tooLarge }
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
