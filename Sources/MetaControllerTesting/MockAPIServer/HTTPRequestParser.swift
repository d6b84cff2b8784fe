import Foundation

/// An incremental HTTP/1.1 request parser: feed it bytes as they arrive, take
/// whole requests out. It knows nothing of sockets, so it can be driven
/// directly by tests and fuzzers.
///
/// It accepts `Content-Length` and `chunked` bodies, refuses a request with
/// both (request smuggling), and enforces size limits while bytes arrive, so
/// it never holds much more than one head and one body. Whatever bytes it is
/// given, it yields requests or a ``Failure`` naming the status to answer; it
/// never traps.
///
/// ```swift
/// var parser = HTTPRequestParser()
/// parser.append(Array("GET /a HTTP/1.1\r\n\r\nGET /b HT".utf8))
/// let first = try parser.next()    // GET /a
/// let second = try parser.next()   // nil: /b has not arrived in full
/// ```
package struct HTTPRequestParser: Sendable {
    /// Size limits; a request over them is refused with 431 or 413.
    package struct Limits: Sendable, Equatable {
        package var maximumHeaderBytes: Int
        package var maximumBodyBytes: Int

        package init(maximumHeaderBytes: Int = 16 * 1024, maximumBodyBytes: Int = 1024 * 1024) {
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBodyBytes = maximumBodyBytes
        }
    }

    /// A request whose head and body have arrived in full.
    package struct Request: Sendable, Equatable {
        package var method: String
        package var target: String
        package var version: String
        package var headers: [(name: String, value: String)]
        package var body: [UInt8]

        /// The value of the first header field named `name`, without regard to case.
        package func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// Whether the connection stays open after the response.
        package var keepsAlive: Bool {
            let connection = header("Connection")?.lowercased() ?? ""
            if version == "HTTP/1.0" { return connection.contains("keep-alive") }
            return !connection.contains("close")
        }

        package static func == (lhs: Request, rhs: Request) -> Bool {
            lhs.method == rhs.method && lhs.target == rhs.target && lhs.version == rhs.version
                && lhs.body == rhs.body && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
        }
    }

    /// Why a request was refused, with the status to answer.
    package struct Failure: Error, Sendable, Equatable {
        package let statusCode: Int
        package let reason: String

        static func malformed(_ reason: String) -> Failure { Failure(statusCode: 400, reason: reason) }
    }

    private enum Body: Sendable {
        case length(Int)
        case chunked
    }

    private enum Stage: Sendable {
        case head
        case body(Request, Body)
    }

    package let limits: Limits
    private var buffer: [UInt8] = []
    private var stage = Stage.head
    /// Where to look for the end of the head next: the bytes before it hold none.
    private var headScanStart = 0
    private var continueAnswered = false

    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Adds bytes that arrived.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Whether the client waits for `100 Continue` before sending the body; `true` once per request.
    package mutating func takeContinueRequest() -> Bool {
        guard case .body(let head, _) = stage, !continueAnswered,
            head.header("Expect")?.lowercased() == "100-continue"
        else { return false }
        continueAnswered = true
        return true
    }

    /// The next whole request, or `nil` until more bytes arrive.
    ///
    /// - Throws: ``Failure`` with the status to answer; the connection must then be closed.
    package mutating func next() throws(Failure) -> Request? {
        if case .head = stage {
            // A server should ignore empty lines before a request line (RFC 9112, section 2.2).
            let blank = buffer.prefix { $0 == 13 || $0 == 10 }.count
            if blank > 0 {
                buffer.removeSubrange(..<blank)
                headScanStart = 0
            }
            guard let end = Self.find([13, 10, 13, 10], in: buffer, from: headScanStart) else {
                headScanStart = max(0, buffer.count - 3)
                if buffer.count > limits.maximumHeaderBytes {
                    throw Failure(statusCode: 431, reason: "the request head is over \(limits.maximumHeaderBytes) bytes")
                }
                return nil
            }
            headScanStart = 0
            guard end + 4 <= limits.maximumHeaderBytes else {
                throw Failure(statusCode: 431, reason: "the request head is over \(limits.maximumHeaderBytes) bytes")
            }
            let head = try Self.parseHead(buffer[..<end])
            buffer.removeSubrange(..<(end + 4))
            stage = .body(head, try bodyKind(of: head))
            continueAnswered = false
        }
        guard case .body(var request, let kind) = stage else { return nil }
        switch kind {
        case .length(let length):
            guard buffer.count >= length else { return nil }
            request.body = Array(buffer[..<length])
            buffer.removeSubrange(..<length)
        case .chunked:
            guard let (body, consumed) = try decodeChunked() else { return nil }
            request.body = body
            buffer.removeSubrange(..<consumed)
        }
        stage = .head
        return request
    }

    // MARK: - Head

    private static func parseHead(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Request {
        // Decoding replaces each ill-formed sequence with U+FFFD, so the text
        // encodes back to the same bytes exactly when they were valid UTF-8.
        // (`String(validating:as:)` says so directly but needs iOS 18 and macOS 15.)
        let text = String(decoding: bytes, as: UTF8.self)
        guard !bytes.contains(0), text.utf8.elementsEqual(bytes) else {
            throw .malformed("the request head is not valid text")
        }
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("malformed request line: \(requestLine.prefix(80))") }
        let method = String(parts[0]), target = String(parts[1]), version = String(parts[2])
        guard !method.isEmpty, method.utf8.allSatisfy(isTokenByte) else {
            throw .malformed("malformed method: \(method.prefix(40))")
        }
        guard target.hasPrefix("/") || target == "*", !target.contains(where: \.isWhitespace) else {
            throw .malformed("malformed request target: \(target.prefix(80))")
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw Failure(statusCode: 505, reason: "unsupported version: \(version.prefix(20))")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("malformed header line: \(line.prefix(80))") }
            let name = String(line[..<colon])
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                throw .malformed("malformed header name: \(name.prefix(40))")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            // A field value holds visible characters, spaces and tabs (RFC 9110, section 5.5).
            guard value.utf8.allSatisfy({ $0 == 9 || $0 >= 32 && $0 != 127 }) else {
                throw .malformed("a control character in the value of \(name.prefix(40))")
            }
            headers.append((name, value))
        }
        return Request(method: method, target: target, version: version, headers: headers, body: [])
    }

    private func bodyKind(of head: Request) throws(Failure) -> Body {
        let lengths = head.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value)
        let encodings = head.headers.filter { $0.name.lowercased() == "transfer-encoding" }.map { $0.value.lowercased() }
        if !encodings.isEmpty {
            guard lengths.isEmpty else { throw .malformed("both Content-Length and Transfer-Encoding") }
            guard encodings == ["chunked"] else {
                throw Failure(statusCode: 501, reason: "unsupported Transfer-Encoding: \(encodings.joined(separator: ", "))")
            }
            return .chunked
        }
        guard let first = lengths.first else { return .length(0) }
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
            first.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(first)
        else { throw .malformed("malformed Content-Length: \(first.prefix(40))") }
        guard length <= limits.maximumBodyBytes else {
            throw Failure(statusCode: 413, reason: "the body of \(length) bytes is over \(limits.maximumBodyBytes) bytes")
        }
        return .length(length)
    }

    // MARK: - Chunked bodies

    /// The decoded body and the bytes it took, or `nil` until the last chunk and trailers arrive.
    private func decodeChunked() throws(Failure) -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = Self.find([13, 10], in: buffer, from: index) else {
                if buffer.count - index > 1024 { throw .malformed("malformed chunk size line") }
                return nil
            }
            // Hex digits, up to ';' and the chunk's extensions, which are ignored.
            let sizeField = buffer[index..<lineEnd].prefix { $0 != 59 }
            guard !sizeField.isEmpty, sizeField.count <= 8, sizeField.allSatisfy(isHexDigit),
                let size = Int(String(decoding: sizeField, as: UTF8.self), radix: 16)
            else { throw .malformed("malformed chunk size") }
            index = lineEnd + 2
            if size == 0 {
                // Trailers, ended by an empty line.
                while true {
                    guard let end = Self.find([13, 10], in: buffer, from: index) else {
                        if buffer.count - index > limits.maximumHeaderBytes {
                            throw Failure(statusCode: 431, reason: "the trailers are too large")
                        }
                        return nil
                    }
                    let isEmpty = end == index
                    index = end + 2
                    if isEmpty { return (body, index) }
                }
            }
            guard body.count + size <= limits.maximumBodyBytes else {
                throw Failure(statusCode: 413, reason: "the chunked body is over \(limits.maximumBodyBytes) bytes")
            }
            guard buffer.count >= index + size + 2 else { return nil }
            body.append(contentsOf: buffer[index..<(index + size)])
            guard buffer[index + size] == 13, buffer[index + size + 1] == 10 else {
                throw .malformed("a chunk does not end with CRLF")
            }
            index += size + 2
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0] {
                var matches = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matches = false
                    break
                }
                if matches { return index }
            }
            index += 1
        }
        return nil
    }
}

/// Whether `byte` is an ASCII hexadecimal digit.
private func isHexDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case 48...57, 65...70, 97...102: true
    default: false
    }
}

/// Whether `byte` may appear in an HTTP token (a method or a header name), RFC 9110 section 5.6.2.
private func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 48...57, 65...90, 97...122: true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
        UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
    default: false
    }
}
