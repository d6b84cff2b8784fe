#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's explanation of an error number.
func systemErrorText(_ number: Int32) -> String {
    guard let text = strerror(number) else { return "error \(number)" }
    return String(cString: text)
}

/// Thin wrappers over the POSIX socket calls the mock server needs.
enum Socket {
    /// A listening socket on 127.0.0.1 and an ephemeral port.
    static func listenOnLoopback() throws(MockAPIServerError) -> (descriptor: Int32, port: Int) {
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw MockAPIServerError(step: "create a socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = MockAPIServerError(step: "bind to 127.0.0.1", errno: errno)
            close(descriptor)
            throw error
        }
        guard listen(descriptor, 128) == 0 else {
            let error = MockAPIServerError(step: "listen", errno: errno)
            close(descriptor)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let error = MockAPIServerError(step: "read the port", errno: errno)
            close(descriptor)
            throw error
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A pipe whose read end becomes readable, for good, when the server stops.
    static func makeWakePipe() throws(MockAPIServerError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw MockAPIServerError(step: "create a pipe", errno: errno) }
        return (ends[0], ends[1])
    }

    /// Waits until `descriptor` is readable or `wake` says stop.
    ///
    /// - Returns: `.readable`, `.stopped`, or `.timedOut` after `milliseconds` (-1 waits for ever).
    static func wait(for descriptor: Int32, orWake wake: Int32, milliseconds: Int32) -> WaitResult {
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let count = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if count < 0, errno == EINTR { continue }
            if count < 0 { return .stopped }
            if count == 0 { return .timedOut }
            if descriptors[1].revents != 0 { return .stopped }
            return .readable
        }
    }

    enum WaitResult {
        case readable
        case stopped
        case timedOut
    }

    /// Accepts a connection; `nil` when there is none after all.
    static func accept(on descriptor: Int32) -> Int32? {
        #if canImport(Darwin)
        let connection = Darwin.accept(descriptor, nil, nil)
        #else
        let connection = Glibc.accept(descriptor, nil, nil)
        #endif
        guard connection >= 0 else { return nil }
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // A client that stops reading must not block the server's writes for ever.
        var limit = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return connection
    }

    /// Reads what has arrived; an empty array at the end of the stream or on an error.
    static func read(from descriptor: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            return count > 0 ? Array(buffer[..<count]) : []
        }
    }

    /// Writes every byte. - Returns: Whether all were written.
    @discardableResult
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let flags: Int32 = 0
            #else
            let flags = Int32(MSG_NOSIGNAL)
            #endif
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, bytes.count - offset, flags) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Makes the wake pipe readable for good.
    static func signal(_ pipe: Int32) {
        var byte: UInt8 = 1
        #if canImport(Darwin)
        _ = Darwin.write(pipe, &byte, 1)
        #else
        _ = Glibc.write(pipe, &byte, 1)
        #endif
    }

    static func shutdownBoth(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = shutdown(descriptor, SHUT_RDWR)
        #else
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
        #endif
    }

    static func close(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(descriptor)
        #else
        _ = Glibc.close(descriptor)
        #endif
    }
}
