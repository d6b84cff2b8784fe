import Foundation

/// An incremental HTTP/1.1 request parser: feed it bytes as they arrive, take
/// whole requests out. It knows nothing of sockets, so it can be driven
/// directly by tests and fuzzers.
///
/// It accepts `Content-Length` and `chunked` bodies, refuses a request with
/// both (request smuggling), refuses chunk extensions and trailer lines outside
/// RFC 9112's grammar, a bare CR in the head (a bare LF ends a line), `Transfer-Encoding`
/// in HTTP/1.0, and a Host field missing in HTTP/1.1 or given twice, and
/// enforces size limits while bytes arrive, so
/// it never holds much more than one head and one body. Its work is linear in
/// the bytes it is given: a chunked body is decoded as it arrives, never again
/// from its first byte. Whatever bytes it is given, it yields requests or a
/// ``Failure`` naming the status to answer; it never traps.
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
        /// The largest head, with the trailer fields of a chunked body; over it, 431.
        package var maximumHeaderBytes: Int
        /// The largest body, with the chunk extensions of a chunked body; over it, 413.
        package var maximumBodyBytes: Int

        package init(maximumHeaderBytes: Int = 16 * 1024, maximumBodyBytes: Int = 1024 * 1024) {
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBodyBytes = maximumBodyBytes
        }
    }

    /// A request whose head and body have arrived in full.
    package struct Request: Sendable, Equatable {
        package var method: String
        /// The target in origin form (`/path?query`) or `*`: an absolute-form target's path and query.
        package var target: String
        package var version: String
        /// The header fields; an absolute-form target's authority stands in for the value of
        /// `Host` (RFC 9112, section 3.2.2), which is added when an HTTP/1.0 request had none.
        package var headers: [(name: String, value: String)]
        package var body: [UInt8]
        /// The target as the client sent it.
        package var sentTarget: String

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

    private enum Stage: Sendable {
        case head
        case lengthBody(Request, length: Int)
        case chunkedBody(Request, headBytes: Int)
    }

    /// Where a chunked body's decoding stands, between reads.
    private enum ChunkStep: Sendable {
        /// In a chunk-size line's hex digits: `digits` of them so far, worth `size`.
        case size(size: Int, digits: Int)
        /// In a chunk extension, from the first space or `;` after the size to the CR that ends the line.
        case chunkExtension(size: Int, at: ExtensionStep)
        /// After the CR that ends a chunk-size line.
        case sizeLineFeed(size: Int)
        /// In a chunk's data, `remaining` bytes to go.
        case data(remaining: Int)
        /// After a chunk's data, expecting CR, then LF.
        case dataCarriageReturn
        case dataLineFeed
        /// In a trailer line's field name, `length` bytes into it; a line of 0 bytes ends the body.
        case trailerName(length: Int)
        /// In a trailer line's field value, after its colon.
        case trailerValue
        /// After the CR that ends a trailer line.
        case trailerLineFeed(lineWasEmpty: Bool)
    }

    /// Where a chunk extension's parsing stands (RFC 9112, section 7.1.1):
    /// `chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`,
    /// a name being a token and a value a token or a quoted string.
    private enum ExtensionStep: Sendable {
        /// After the size or a value, in spaces or tabs: a `;` must come.
        case beforeSemicolon
        /// After a `;`, in spaces or tabs: a name must come.
        case beforeName
        /// In a name.
        case name
        /// After a name, in spaces or tabs: a `;` or an `=` must come.
        case afterName
        /// After an `=`, in spaces or tabs: a token or a quoted string must come.
        case beforeValue
        /// In a token value.
        case tokenValue
        /// In a quoted string, and just after a backslash in one.
        case quoted
        case quotedPair
        /// Just after the closing quote of a quoted string.
        case afterQuoted
    }

    package let limits: Limits
    /// The bytes received; those before `start` have been used.
    private var buffer: [UInt8] = []
    private var start = 0
    private var stage = Stage.head
    /// How many bytes after `start` hold no end of the head: the search goes on from there.
    private var headScanned = 0
    private var continueAnswered = false
    /// The chunked body being decoded, and its decoder's place.
    private var chunkedBody: [UInt8] = []
    private var chunkStep = ChunkStep.size(size: 0, digits: 0)
    /// Chunk-extension bytes and trailer bytes of the chunked body so far.
    private var extensionBytes = 0
    private var trailerBytes = 0

    /// How many bytes the parser has looked at or copied, counting a byte each time;
    /// tests check it stays within a small multiple of the bytes received.
    package private(set) var bytesExamined = 0

    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Adds bytes that arrived.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        // Drop the used bytes once they are at least half of the buffer: each byte moves
        // at most once for each time as many bytes are used, so the work stays linear.
        if start > 0, start >= buffer.count - start {
            buffer.removeSubrange(..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Whether a request head is awaited: no request is between its head and the end of its body.
    package var isAwaitingHead: Bool {
        if case .head = stage { return true }
        return false
    }

    /// Whether bytes of a request that is not yet whole are held.
    package var hasBufferedBytes: Bool { start < buffer.count }

    /// Whether the client waits for `100 Continue` before sending the body; `true` once per request.
    package mutating func takeContinueRequest() -> Bool {
        let head: Request
        switch stage {
        case .head: return false
        case .lengthBody(let request, _), .chunkedBody(let request, _): head = request
        }
        // An HTTP/1.0 client's expectation is ignored (RFC 9110, section 10.1.1).
        guard !continueAnswered, head.version == "HTTP/1.1", head.header("Expect")?.lowercased() == "100-continue" else {
            return false
        }
        continueAnswered = true
        return true
    }

    /// The next whole request, or `nil` until more bytes arrive.
    ///
    /// - Throws: ``Failure`` with the status to answer; the connection must then be closed.
    package mutating func next() throws(Failure) -> Request? {
        if case .head = stage {
            // A server should ignore empty lines before a request line (RFC 9112, section 2.2):
            // CR LF or a bare LF. A CR not followed by LF is left, to be refused with the head.
            if headScanned == 0 {
                while start < buffer.count {
                    if buffer[start] == 10 {
                        start += 1
                    } else if buffer[start] == 13, start + 1 < buffer.count, buffer[start + 1] == 10 {
                        start += 2
                    } else if buffer[start] == 13, start + 1 == buffer.count {
                        return nil   // whether an LF follows is not known yet
                    } else {
                        break
                    }
                    bytesExamined += 1
                }
            }
            guard let (end, after) = findEndOfHead() else {
                if buffer.count - start > limits.maximumHeaderBytes {
                    throw Failure(statusCode: 431, reason: "the request head is over \(limits.maximumHeaderBytes) bytes")
                }
                return nil
            }
            let headBytes = after - start
            guard headBytes <= limits.maximumHeaderBytes else {
                throw Failure(statusCode: 431, reason: "the request head is over \(limits.maximumHeaderBytes) bytes")
            }
            let head = try Self.parseHead(buffer[start..<end])
            start = after
            headScanned = 0
            continueAnswered = false
            if try isChunked(head) {
                stage = .chunkedBody(head, headBytes: headBytes)
                chunkedBody = []
                chunkStep = .size(size: 0, digits: 0)
                extensionBytes = 0
                trailerBytes = 0
            } else {
                stage = .lengthBody(head, length: try contentLength(of: head))
            }
        }
        var request: Request
        switch stage {
        case .head:
            return nil
        case .lengthBody(let head, let length):
            guard buffer.count - start >= length else { return nil }
            request = head
            request.body = Array(buffer[start..<(start + length)])
            bytesExamined += length
            start += length
        case .chunkedBody(let head, let headBytes):
            guard try decodeChunks(headBytes: headBytes) else { return nil }
            request = head
            request.body = chunkedBody
            chunkedBody = []
        }
        stage = .head
        return request
    }

    /// Where the head ends: the end of its last field line (before that line's CR LF or LF),
    /// and the index after the empty line that follows. Searches on from where the last search stopped.
    ///
    /// A line ends with CR LF or with a bare LF, which a recipient may take as a line end
    /// (RFC 9112, section 2.2); a CR anywhere else is refused when the head is parsed.
    private mutating func findEndOfHead() -> (end: Int, after: Int)? {
        var index = start + headScanned
        while index < buffer.count {
            bytesExamined += 1
            if buffer[index] == 10 {
                // The LF ends an empty line when the line before it ended just before this one.
                var previousLineFeed: Int?
                if index - 1 >= start, buffer[index - 1] == 10 {
                    previousLineFeed = index - 1
                } else if index - 2 >= start, buffer[index - 1] == 13, buffer[index - 2] == 10 {
                    previousLineFeed = index - 2
                }
                if let previousLineFeed {
                    let hasCarriageReturn = previousLineFeed - 1 >= start && buffer[previousLineFeed - 1] == 13
                    return (hasCarriageReturn ? previousLineFeed - 1 : previousLineFeed, index + 1)
                }
            }
            index += 1
        }
        headScanned = index - start
        return nil
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
        // Lines end with CR LF or a bare LF; a CR elsewhere is refused, so no line can
        // end where another parser would not end it (RFC 9112, section 2.2).
        // The last line's own line end is not in `bytes`: a CR that ends it is bare.
        var lines: [String] = []
        let pieces = bytes.split(separator: 10, omittingEmptySubsequences: false)
        for (index, line) in pieces.enumerated() {
            let content = index < pieces.count - 1 && line.last == 13 ? line.dropLast() : line
            guard !content.contains(13) else { throw .malformed("a CR not followed by LF in the request head") }
            lines.append(String(decoding: content, as: UTF8.self))
        }
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("malformed request line: \(requestLine.prefix(80))") }
        let method = String(parts[0]), sentTarget = String(parts[1]), version = String(parts[2])
        guard !method.isEmpty, method.utf8.allSatisfy(isHTTPTokenByte) else {
            throw .malformed("malformed method: \(method.prefix(40))")
        }
        // A target is ASCII (RFC 9112, section 3.2; RFC 3986, section 2): raw UTF-8, controls
        // and DEL are refused, not guessed at. Other characters are percent-encoded.
        guard sentTarget.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw .malformed("a request target is visible ASCII; this one is not: \(sentTarget.debugDescription.prefix(80))")
        }
        var target = sentTarget
        // The absolute form, which a server must accept (RFC 9112, section 3.2.2): routed by its
        // path and query, with its authority standing in for Host's value.
        let authority = try Self.absoluteFormAuthority(of: sentTarget)
        if let authority {
            let rest = sentTarget[authority.endIndex...]
            target = rest.first == "/" ? String(rest) : "/" + rest
        }
        guard target.hasPrefix("/") || target == "*" else {
            throw .malformed("malformed request target: \(target.prefix(80))")
        }
        // The asterisk form is for OPTIONS only (RFC 9112, section 3.2.4).
        guard target != "*" || method == "OPTIONS" else { throw .malformed("the target * with a method other than OPTIONS") }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw Failure(statusCode: 505, reason: "unsupported version: \(version.prefix(20))")
        }
        // Methods are case-sensitive (RFC 9110, section 9.1), and a route names its method in
        // upper case: one with a lower-case letter is never implemented.
        guard !method.utf8.contains(where: { $0 >= 97 && $0 <= 122 }) else {
            throw Failure(
                statusCode: 501,
                reason: "the method \(method.prefix(40)) is not implemented: methods are case-sensitive, and routes name theirs in upper case")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("malformed header line: \(line.prefix(80))") }
            let name = String(line[..<colon])
            guard !name.isEmpty, name.utf8.allSatisfy(isHTTPTokenByte) else {
                throw .malformed("malformed header name: \(name.prefix(40))")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            // A field value holds visible characters, spaces and tabs (RFC 9110, section 5.5).
            guard value.utf8.allSatisfy({ $0 == 9 || $0 >= 32 && $0 != 127 }) else {
                throw .malformed("a control character in the value of \(name.prefix(40))")
            }
            headers.append((name, value))
        }
        // One Host field in HTTP/1.1, at most one in HTTP/1.0 (RFC 9112, section 3.2).
        let hosts = headers.filter { $0.name.lowercased() == "host" }.count
        guard hosts == 1 || hosts == 0 && version == "HTTP/1.0" else {
            throw .malformed(hosts == 0 ? "an HTTP/1.1 request without a Host field" : "a request with \(hosts) Host fields")
        }
        // Its value is a host and an optional port (RFC 9112, section 3.2; RFC 3986, section 3.2.2).
        if let host = headers.first(where: { $0.name.lowercased() == "host" }), !URIAuthority.isValid(host.value[...]) {
            throw .malformed("a Host field that is not a host and port: \(host.value.debugDescription.prefix(80))")
        }
        if let authority {
            if let index = headers.firstIndex(where: { $0.name.lowercased() == "host" }) {
                headers[index].value = String(authority)
            } else {
                headers.append(("Host", String(authority)))
            }
        }
        return Request(method: method, target: target, version: version, headers: headers, body: [], sentTarget: sentTarget)
    }

    /// The authority of an absolute-form target (`http://host:port/path`), or `nil` for another form.
    ///
    /// - Throws: For an `http` or `https` target whose authority is not a host and an optional
    ///   port: one with user information, or none.
    private static func absoluteFormAuthority(of target: String) throws(Failure) -> Substring? {
        let lowercased = target.prefix(8).lowercased()
        let schemeLength = lowercased.hasPrefix("http://") ? 7 : lowercased.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return nil }
        let afterScheme = target.index(target.startIndex, offsetBy: schemeLength)
        let end = target[afterScheme...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? target.endIndex
        let authority = target[afterScheme..<end]
        guard !authority.contains("@") else {
            throw .malformed("user information in the request target: \(target.prefix(80))")
        }
        guard URIAuthority.isValid(authority, requiresHost: true) else {
            throw .malformed("an absolute-form request target without a valid host: \(target.prefix(80))")
        }
        return authority
    }

    /// Whether the body is chunked; throws for both framings at once or another encoding.
    private func isChunked(_ head: Request) throws(Failure) -> Bool {
        let encodings = head.headers.filter { $0.name.lowercased() == "transfer-encoding" }.map { $0.value.lowercased() }
        guard !encodings.isEmpty else { return false }
        // HTTP/1.0 has no Transfer-Encoding: its framing is faulty (RFC 9112, section 6.1), so
        // where the body ends, and where a next request would begin, is not known.
        guard head.version != "HTTP/1.0" else { throw .malformed("Transfer-Encoding in an HTTP/1.0 request") }
        guard head.header("Content-Length") == nil else { throw .malformed("both Content-Length and Transfer-Encoding") }
        guard encodings == ["chunked"] else {
            throw Failure(statusCode: 501, reason: "unsupported Transfer-Encoding: \(encodings.joined(separator: ", "))")
        }
        return true
    }

    private func contentLength(of head: Request) throws(Failure) -> Int {
        let lengths = head.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value)
        guard let first = lengths.first else { return 0 }
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
            first.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(first)
        else { throw .malformed("malformed Content-Length: \(first.prefix(40))") }
        guard length <= limits.maximumBodyBytes else {
            throw Failure(statusCode: 413, reason: "the body of \(length) bytes is over \(limits.maximumBodyBytes) bytes")
        }
        return length
    }

    // MARK: - Chunked bodies

    /// Decodes the chunked body's bytes that have arrived, each byte once, going on from where
    /// the last call stopped. - Returns: Whether the last chunk and the trailers have arrived.
    private mutating func decodeChunks(headBytes: Int) throws(Failure) -> Bool {
        while start < buffer.count {
            if case .data(let remaining) = chunkStep {
                let count = min(remaining, buffer.count - start)
                chunkedBody.append(contentsOf: buffer[start..<(start + count)])
                bytesExamined += count
                start += count
                chunkStep = remaining == count ? .dataCarriageReturn : .data(remaining: remaining - count)
                continue
            }
            let byte = buffer[start]
            start += 1
            bytesExamined += 1
            switch chunkStep {
            case .size(let size, let digits):
                if let digit = hexValue(byte) {
                    // Eight hex digits at most: 4 GiB, far over any body limit.
                    guard digits < 8 else { throw .malformed("malformed chunk size") }
                    chunkStep = .size(size: size * 16 + digit, digits: digits + 1)
                } else if byte == UInt8(ascii: ";") || byte == 32 || byte == 9, digits > 0 {
                    chunkStep = .chunkExtension(size: size, at: byte == UInt8(ascii: ";") ? .beforeName : .beforeSemicolon)
                    try countExtensionByte()
                } else if byte == 13, digits > 0 {
                    chunkStep = .sizeLineFeed(size: size)
                } else {
                    throw .malformed("malformed chunk size")
                }
            case .chunkExtension(let size, let step):
                switch Self.extensionStep(after: step, byte) {
                case .next(let next):
                    chunkStep = .chunkExtension(size: size, at: next)
                    try countExtensionByte()
                case .lineEnd:
                    chunkStep = .sizeLineFeed(size: size)
                case .invalid:
                    throw .malformed("malformed chunk extension")
                }
            case .sizeLineFeed(let size):
                guard byte == 10 else { throw .malformed("a chunk-size line does not end with CRLF") }
                if size == 0 {
                    chunkStep = .trailerName(length: 0)
                } else {
                    guard chunkedBody.count + extensionBytes + size <= limits.maximumBodyBytes else { throw bodyTooLarge }
                    chunkStep = .data(remaining: size)
                }
            case .data:
                break   // handled above, in bulk
            case .dataCarriageReturn:
                guard byte == 13 else { throw .malformed("a chunk does not end with CRLF") }
                chunkStep = .dataLineFeed
            case .dataLineFeed:
                guard byte == 10 else { throw .malformed("a chunk does not end with CRLF") }
                chunkStep = .size(size: 0, digits: 0)
            case .trailerName(let length):
                // A trailer line is a field line (RFC 9112, section 7.1.2): a token, a colon, a value.
                if byte == 13, length == 0 {
                    chunkStep = .trailerLineFeed(lineWasEmpty: true)
                } else if isHTTPTokenByte(byte) {
                    try countTrailerBytes(1, headBytes: headBytes)
                    chunkStep = .trailerName(length: length + 1)
                } else if byte == UInt8(ascii: ":"), length > 0 {
                    try countTrailerBytes(1, headBytes: headBytes)
                    chunkStep = .trailerValue
                } else {
                    throw .malformed("a trailer line is not a header field")
                }
            case .trailerValue:
                if byte == 13 {
                    chunkStep = .trailerLineFeed(lineWasEmpty: false)
                } else if isFieldValueByte(byte) {
                    try countTrailerBytes(1, headBytes: headBytes)
                } else {
                    throw .malformed("a control character in a trailer field")
                }
            case .trailerLineFeed(let lineWasEmpty):
                guard byte == 10 else { throw .malformed("a trailer line does not end with CRLF") }
                if lineWasEmpty { return true }
                try countTrailerBytes(2, headBytes: headBytes)
                chunkStep = .trailerName(length: 0)
            }
        }
        return false
    }

    private enum ExtensionOutcome {
        case next(ExtensionStep)
        /// The CR that ends the chunk-size line, where the extension may end.
        case lineEnd
        case invalid
    }

    /// Where a chunk extension stands after `byte`: only the grammar's bytes are taken.
    private static func extensionStep(after step: ExtensionStep, _ byte: UInt8) -> ExtensionOutcome {
        let isBlank = byte == 32 || byte == 9
        let semicolon = UInt8(ascii: ";"), equals = UInt8(ascii: "="), quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        switch step {
        case .beforeSemicolon:
            if isBlank { return .next(.beforeSemicolon) }
            if byte == semicolon { return .next(.beforeName) }
        case .beforeName:
            if isBlank { return .next(.beforeName) }
            if isHTTPTokenByte(byte) { return .next(.name) }
        case .name:
            if isHTTPTokenByte(byte) { return .next(.name) }
            if byte == 13 { return .lineEnd }
            if byte == semicolon { return .next(.beforeName) }
            if byte == equals { return .next(.beforeValue) }
            if isBlank { return .next(.afterName) }
        case .afterName:
            if isBlank { return .next(.afterName) }
            if byte == semicolon { return .next(.beforeName) }
            if byte == equals { return .next(.beforeValue) }
        case .beforeValue:
            if isBlank { return .next(.beforeValue) }
            if isHTTPTokenByte(byte) { return .next(.tokenValue) }
            if byte == quote { return .next(.quoted) }
        case .tokenValue:
            if isHTTPTokenByte(byte) { return .next(.tokenValue) }
            if byte == 13 { return .lineEnd }
            if byte == semicolon { return .next(.beforeName) }
            if isBlank { return .next(.beforeSemicolon) }
        case .quoted:
            // qdtext: HTAB, SP, %x21, %x23-5B, %x5D-7E, obs-text (RFC 9110, section 5.6.4).
            if byte == quote { return .next(.afterQuoted) }
            if byte == backslash { return .next(.quotedPair) }
            if isFieldValueByte(byte) { return .next(.quoted) }
        case .quotedPair:
            if isFieldValueByte(byte) { return .next(.quoted) }
        case .afterQuoted:
            if byte == 13 { return .lineEnd }
            if byte == semicolon { return .next(.beforeName) }
            if isBlank { return .next(.beforeSemicolon) }
        }
        return .invalid
    }

    private var bodyTooLarge: Failure {
        Failure(statusCode: 413, reason: "the chunked body, with its chunk extensions, is over \(limits.maximumBodyBytes) bytes")
    }

    private mutating func countExtensionByte() throws(Failure) {
        extensionBytes += 1
        guard chunkedBody.count + extensionBytes <= limits.maximumBodyBytes else { throw bodyTooLarge }
    }

    private mutating func countTrailerBytes(_ count: Int, headBytes: Int) throws(Failure) {
        trailerBytes += count
        guard headBytes + trailerBytes <= limits.maximumHeaderBytes else {
            throw Failure(statusCode: 431, reason: "the request head and trailers are over \(limits.maximumHeaderBytes) bytes")
        }
    }
}

/// The value of an ASCII hexadecimal digit, or `nil`.
private func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 48...57: Int(byte - 48)
    case 65...70: Int(byte - 55)
    case 97...102: Int(byte - 87)
    default: nil
    }
}

/// Whether `byte` may appear in a field value, a quoted string or a quoted pair: HTAB, SP,
/// visible ASCII and bytes from 0x80 (RFC 9110, sections 5.5 and 5.6.4); never a control byte.
func isFieldValueByte(_ byte: UInt8) -> Bool {
    byte == 9 || byte >= 32 && byte != 127
}

/// Whether `byte` may appear in an HTTP token (a method or a header name), RFC 9110 section 5.6.2.
func isHTTPTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 48...57, 65...90, 97...122: true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
        UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
        true
    default: false
    }
}
