#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A bare TCP client for sending a server bytes no HTTP library would send.
package final class RawClient {
    private let descriptor: Int32

    package init(port: Int) throws {
        #if canImport(Darwin)
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        // Reads give up after 5 seconds, so a server bug fails the test instead of hanging it.
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    package func send(_ text: String) { send(Array(text.utf8)) }

    package func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// Stops sending: the server sees the end of the stream.
    package func finishSending() {
        #if canImport(Darwin)
        shutdown(descriptor, SHUT_WR)
        #else
        shutdown(descriptor, Int32(SHUT_WR))
        #endif
    }

    /// Everything until the server closes the connection.
    package func readToEnd() -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Everything until the server closes the connection, and whether it did: `false` when
    /// the client's 5-second read timeout ended the wait instead.
    package func readUntilClosed() -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count > 0 {
                received += buffer[..<count]
                continue
            }
            // 0 is the end of the stream; a reset is the server closing too. A timeout is not.
            let closed = count == 0 || errno == ECONNRESET
            return (String(decoding: received, as: UTF8.self), closed)
        }
    }

    /// Waits up to `milliseconds` on the socket. - Returns: Whether the server sent bytes or closed.
    package func waitUntilReadable(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let count = poll(&entry, 1, milliseconds)
            if count < 0, errno == EINTR { continue }
            return count > 0
        }
    }

    /// One response: its head, and a body of the length the head gives.
    package func readResponse() -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1)
        while !received.ends(with: Array("\r\n\r\n".utf8)) {
            guard read(descriptor, &buffer, 1) == 1 else { return String(decoding: received, as: UTF8.self) }
            received.append(buffer[0])
        }
        let head = String(decoding: received, as: UTF8.self)
        let length =
            head.split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        for _ in 0..<length {
            guard read(descriptor, &buffer, 1) == 1 else { break }
            received.append(buffer[0])
        }
        return String(decoding: received, as: UTF8.self)
    }
}

extension Array where Element: Equatable {
    package func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
