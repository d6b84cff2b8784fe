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
    /// Writes `data` to `temporary` (created `0600`, never an existing file), syncs it,
    /// renames it over `destination`, and syncs `directory`.
    ///
    /// - Returns: `nil` on success, otherwise the system's reason; the temporary file is removed.
    static func write(_ data: Data, to temporary: String, replacing destination: String, directory: String) -> String? {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
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
