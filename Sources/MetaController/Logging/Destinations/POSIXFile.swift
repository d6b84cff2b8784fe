#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file calls the log destinations and the data store need, on every platform.
enum POSIXFile {
    static let standardOutput: Int32 = 1
    static let standardError: Int32 = 2

    /// Opens `path` for appending, creating it readable and writable by its owner only.
    /// - Returns: The descriptor, or -1 and the error number.
    static func openForAppending(_ path: String) -> (descriptor: Int32, error: Int32) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        return descriptor >= 0 ? (descriptor, 0) : (-1, errno)
    }

    /// Writes every byte. - Returns: `0`, or the error number.
    @discardableResult
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let count = bytes.withUnsafeBytes { Darwin.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            #else
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            #endif
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return errno }
            offset += count
        }
        return 0
    }

    static func sync(_ descriptor: Int32) { _ = fsync(descriptor) }

    static func close(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(descriptor)
        #else
        _ = Glibc.close(descriptor)
        #endif
    }

    /// The size of the file at `descriptor`; 0 when unknown.
    static func size(_ descriptor: Int32) -> Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    static func errorText(_ number: Int32) -> String {
        strerror(number).map { String(cString: $0) } ?? "error \(number)"
    }
}
