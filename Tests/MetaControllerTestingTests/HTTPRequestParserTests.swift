import Dispatch
import Foundation
import MetaController
@testable import MetaControllerTesting
import Testing
import MetaControllerTestSupport

@Suite struct HTTPRequestParserTests {
    private static let post = "POST /items?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"

    private func parseAll(_ text: String, limits: HTTPRequestParser.Limits = .init()) throws -> [HTTPRequestParser.Request] {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(text.utf8))
        var requests: [HTTPRequestParser.Request] = []
        while let request = try parser.next() { requests.append(request) }
        return requests
    }

    private func failure(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> Int? {
        do {
            _ = try parseAll(text, limits: limits)
            return nil
        } catch let error as HTTPRequestParser.Failure {
            return error.statusCode
        } catch {
            return -1
        }
    }

    @Test func parsesARequestWithABody() throws {
        let requests = try parseAll(Self.post)
        #expect(requests.count == 1)
        #expect(requests[0].method == "POST")
        #expect(requests[0].target == "/items?x=1")
        #expect(requests[0].header("content-length") == "5")
        #expect(requests[0].body == Array("hello".utf8))
        #expect(requests[0].keepsAlive)
    }

    @Test func givesTheSameRequestWhateverTheBytesArriveInPieces() throws {
        let bytes = Array(Self.post.utf8)
        let whole = try parseAll(Self.post)
        for split in 1..<bytes.count {
            var parser = HTTPRequestParser()
            parser.append(bytes[..<split])
            var requests: [HTTPRequestParser.Request] = []
            while let request = try parser.next() { requests.append(request) }
            parser.append(bytes[split...])
            while let request = try parser.next() { requests.append(request) }
            #expect(requests == whole, "split at \(split)")
        }
    }

    /// Three pipelined requests: a `Content-Length` body, a chunked body with an
    /// extension and a trailer, and no body.
    private static let pipelined =
        post
        + "PUT /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\nT: 1\r\n\r\n"
        + "GET /last?q=%20 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"

    /// Every request `pieces` give, fed in that order, taking requests out after each piece.
    private func parse(pieces: [ArraySlice<UInt8>]) throws -> [HTTPRequestParser.Request] {
        var parser = HTTPRequestParser()
        var requests: [HTTPRequestParser.Request] = []
        for piece in pieces {
            parser.append(piece)
            while let request = try parser.next() { requests.append(request) }
        }
        return requests
    }

    @Test func givesTheSamePipelinedRequestsWhereverTheStreamIsCut() throws {
        let bytes = Array(Self.pipelined.utf8)
        let whole = try parseAll(Self.pipelined)
        #expect(whole.map(\.target) == ["/items?x=1", "/c", "/last?q=%20"])
        #expect(whole.map(\.body) == [Array("hello".utf8), Array("abc".utf8), []])
        for split in 1..<bytes.count {
            #expect(try parse(pieces: [bytes[..<split], bytes[split...]]) == whole, "split at \(split)")
        }
        // Three pieces, cut at every pair of boundaries a few bytes apart.
        for first in stride(from: 1, to: bytes.count - 1, by: 3) {
            for second in stride(from: first + 1, to: bytes.count, by: 7) {
                let pieces = [bytes[..<first], bytes[first..<second], bytes[second...]]
                #expect(try parse(pieces: pieces) == whole, "split at \(first) and \(second)")
            }
        }
        #expect(try parse(pieces: bytes.indices.map { bytes[$0...$0] }) == whole, "one byte at a time")
    }

    @Test func ignoresEmptyLinesBeforeARequestLine() throws {
        let requests = try parseAll("\r\nGET /a HTTP/1.1\r\nHost: a\r\n\r\n\r\n\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(requests.map(\.target) == ["/a", "/b"])
    }

    @Test func keepsAliveByDefaultOnlyInHTTP11() throws {
        let requests = try parseAll(
            "GET /a HTTP/1.0\r\n\r\nGET /b HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"
                + "GET /c HTTP/1.1\r\nHost: a\r\nConnection: CLOSE\r\n\r\nGET /d HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(requests.map(\.keepsAlive) == [false, true, false, true])
    }

    @Test func acceptsAHeadAndABodyExactlyAtTheLimits() throws {
        let head = "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\n"
        let limits = HTTPRequestParser.Limits(maximumHeaderBytes: head.utf8.count, maximumBodyBytes: 4)
        #expect(try parseAll(head + "abcd", limits: limits).first?.body == Array("abcd".utf8))
        let chunked = "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n2\r\ncd\r\n0\r\n\r\n"
        #expect(try parseAll(chunked, limits: .init(maximumBodyBytes: 4)).first?.body == Array("abcd".utf8))
        let tight = HTTPRequestParser.Limits(maximumHeaderBytes: head.utf8.count - 1, maximumBodyBytes: 4)
        #expect(failure(head + "abcd", limits: tight) == 431)
        #expect(failure(chunked, limits: .init(maximumBodyBytes: 3)) == 413)
    }

    @Test func asksForContinueOnlyWhileTheBodyIsAwaited() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("PUT /x HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n".utf8))
        let early = try parser.next()
        let withoutExpect = parser.takeContinueRequest()
        #expect(early == nil)
        #expect(!withoutExpect, "no Expect field")
        parser.append(Array("okPUT /y HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nz".utf8))
        let first = try parser.next(), second = try parser.next()
        let afterBody = parser.takeContinueRequest()
        #expect(first?.target == "/x")
        #expect(second?.target == "/y")
        #expect(!afterBody, "the body has already arrived")
    }

    @Test func parsesPipelinedRequestsInOrder() throws {
        let requests = try parseAll("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(requests.map(\.target) == ["/a", "/b"])
        #expect(requests.map(\.keepsAlive) == [true, false])
    }

    @Test func decodesChunkedBodiesWithExtensionsAndTrailers() throws {
        let text = "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: 1\r\n\r\n"
        #expect(try parseAll(text).first?.body == Array("hello world".utf8))
    }

    /// Feeds `bytes` in pieces of `piece` bytes, taking requests out after each, until the parser refuses them.
    ///
    /// - Returns: The bodies of the requests, the status of the refusal (or `nil`), the bytes
    ///   fed when it came, and the bytes the parser examined.
    private static func feed(_ bytes: [UInt8], piece: Int, limits: HTTPRequestParser.Limits = .init())
        -> (bodies: [Int], status: Int?, fed: Int, examined: Int)
    {
        var parser = HTTPRequestParser(limits: limits)
        var bodies: [Int] = []
        var fed = 0
        while fed < bytes.count {
            let end = min(bytes.count, fed + piece)
            parser.append(bytes[fed..<end])
            fed = end
            do {
                while let request = try parser.next() { bodies.append(request.body.count) }
            } catch {
                return (bodies, error.statusCode, fed, parser.bytesExamined)
            }
        }
        return (bodies, nil, fed, parser.bytesExamined)
    }

    private static let chunkedHead = Array("POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)

    @Test func decodesOneByteChunksInWorkLinearInTheBytesReceived() async {
        // 262,144 one-byte chunks, 1.5 MB on the wire, arriving 16 KiB at a time as from a socket.
        let wire =
            Self.chunkedHead + Array(repeating: Array("1\r\na\r\n".utf8), count: 262_144).joined()
            + Array("0\r\n\r\n".utf8)
        let outcome = await onSmallStack { Self.feed(wire, piece: 16 * 1024) }
        #expect(outcome.bodies == [262_144])
        #expect(outcome.status == nil)
        // Each byte looked at about once; decoding again from the first byte on every read
        // examined about 50 times the bytes (72 million).
        #expect(outcome.examined <= 2 * wire.count, "examined \(outcome.examined) bytes of \(wire.count)")
    }

    @Test func refusesEndlessTrailerLinesOnceOverTheHeadLimit() async {
        let limits = HTTPRequestParser.Limits(maximumHeaderBytes: 1024)
        let wire = Self.chunkedHead + Array("0\r\n".utf8) + Array(repeating: Array("X: y\r\n".utf8), count: 100_000).joined()
        let outcome = await onSmallStack { Self.feed(wire, piece: 600, limits: limits) }
        #expect(outcome.status == 431)
        #expect(outcome.fed <= 1024 + 600, "refused only after \(outcome.fed) bytes")
        #expect(outcome.examined <= 2 * outcome.fed)
    }

    @Test func countsTrailersWithTheHeadAgainstTheHeadLimit() {
        // The head (57 bytes) and the trailer line (6 bytes with its CRLF) make 63.
        let text = "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: 1\r\n\r\n"
        #expect(Self.chunkedHead.count == 57)
        #expect(failure(text, limits: .init(maximumHeaderBytes: 63)) == nil)
        #expect(failure(text, limits: .init(maximumHeaderBytes: 62)) == 431)
    }

    @Test func refusesEndlessChunkExtensionsOnceOverTheBodyLimit() async {
        let limits = HTTPRequestParser.Limits(maximumBodyBytes: 1024)
        // One extension that never ends, and many chunks whose extensions do.
        let endless = Self.chunkedHead + Array("1;".utf8) + Array(repeating: UInt8(ascii: "e"), count: 100_000)
        let longLine = await onSmallStack { Self.feed(endless, piece: 1000, limits: limits) }
        #expect(longLine.status == 413)
        #expect(longLine.fed <= 1024 + 1000 + Self.chunkedHead.count, "refused only after \(longLine.fed) bytes")
        let chunk = Array("1;".utf8) + Array(repeating: UInt8(ascii: "e"), count: 100) + Array("\r\na\r\n".utf8)
        let many = Self.chunkedHead + Array(repeating: chunk, count: 100_000).joined()
        let manyChunks = await onSmallStack { Self.feed(many, piece: 1000, limits: limits) }
        #expect(manyChunks.status == 413)
        #expect(manyChunks.fed <= 2 * 1024 + 1000 + Self.chunkedHead.count, "refused only after \(manyChunks.fed) bytes")
    }

    @Test func countsChunkExtensionsWithTheBodyAgainstTheBodyLimit() {
        // Two body bytes and two extension bytes (";e").
        let text = "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2;e\r\nab\r\n0\r\n\r\n"
        #expect(failure(text, limits: .init(maximumBodyBytes: 4)) == nil)
        #expect(failure(text, limits: .init(maximumBodyBytes: 3)) == 413)
    }

    @Test func waitsForTheBodyAndAsksForContinueOnce() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        let early = try parser.next()
        #expect(early == nil)
        let first = parser.takeContinueRequest(), second = parser.takeContinueRequest()
        #expect(first && !second)
        parser.append(Array("ok".utf8))
        let request = try parser.next()
        #expect(request?.body == Array("ok".utf8))
    }

    @Test(arguments: [
        "GET /a\r\n\r\n",   // no version
        "GET  /a HTTP/1.1\r\nHost: a\r\n\r\n",   // two spaces
        "G(T /a HTTP/1.1\r\nHost: a\r\n\r\n",   // not a token
        "GET a HTTP/1.1\r\nHost: a\r\n\r\n",   // no leading slash
        "GET /a HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
        "GET /a HTTP/1.1\r\nHost: a\r\nX: \u{0}\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: a\r\nX: a\u{1}b\r\n\r\n",   // a control character in a value
        "GET /a HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n",   // a bare CR in a value
        "GET /a HTTP/1.1\r\nHost: a\r\n folded: x\r\n\r\n",   // obsolete line folding
        "\u{16}\u{3}\u{1}\u{0}\u{1}\r\n\r\n",   // TLS-like bytes
        "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-0\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n 5\r\nhello\r\n0\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n123456789\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: identity\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1;a\rb\r\nx\r\n0\r\n\r\n",   // a bare CR in an extension
        "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: a\rb\r\n\r\n",   // a bare CR in a trailer
        "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\rX",   // a chunk not ended by CRLF
    ])
    func refusesMalformedRequestsWith400(text: String) {
        #expect(failure(text) == 400)
    }

    /// Chunk extensions as RFC 9112, section 7.1.1 writes them: `;` name, and `=` a token or a quoted string, with spaces or tabs around `;` and `=`.
    @Test(arguments: [
        "1;a\r\n", "1;a=b\r\n", "1 ;a\r\n", "1\t; a = b ;c\r\n", "1;a=\"x y;\\\"z\\\\\"\r\n", "1;a=\"\"\r\n",
        "1;a=\"caf\u{E9}\"\r\n", "1;a=b;c=\"d\"\r\n",
    ])
    func acceptsChunkExtensionsOfTheGrammar(sizeLine: String) throws {
        let text = "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + sizeLine + "x\r\n0\r\n\r\n"
        #expect(try parseAll(text).first?.body == Array("x".utf8))
    }

    @Test(arguments: [
        "1;a\nb\r\n",   // LF inside
        "1;a\u{0}\r\n",   // NUL
        "1;a\u{7F}\r\n",   // DEL
        "1;a\u{1B}[2K\r\n",   // ESC
        "1;a=\"x\u{1}\"\r\n",   // a control byte in a quoted string
        "1;a=\"x\\\u{7F}\"\r\n",   // DEL after a backslash
        "1;a=\"x\r\n",   // a quoted string not closed
        "1;\r\n",   // no name
        "1;=b\r\n",
        "1;a=\r\n",   // no value
        "1;a b\r\n",   // two names without a ;
        "1;a \r\n",   // spaces before the CR
        "1 \r\n",
        "1;a=b c\r\n",
        "1;a=\"b\"c\r\n",
        "1;a,b\r\n",   // not a token byte
        "1;a=b@c\r\n",
        "1;caf\u{E9}\r\n",   // a name is a token: ASCII
    ])
    func refusesChunkExtensionsOutsideTheGrammarWith400(sizeLine: String) {
        let text = "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + sizeLine + "x\r\n0\r\n\r\n"
        #expect(failure(text) == 400)
    }

    @Test(arguments: [
        "T\r\n",   // no colon
        ": v\r\n",   // no name
        "T : v\r\n",   // a space before the colon
        " T: v\r\n",   // obsolete line folding
        "T: a\u{0}b\r\n",
        "T: a\u{1B}b\r\n",
        "T: a\u{7F}\r\n",
        "T: a\nb\r\n",   // a bare LF: not a line end in trailers
        "T: a\r\nU\u{1}: b\r\n",
        "T(: v\r\n",
    ])
    func refusesTrailerLinesThatAreNotFieldLinesWith400(trailer: String) {
        let text = "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n" + trailer + "\r\n"
        #expect(failure(text) == 400)
    }

    @Test func acceptsTrailerFieldLines() throws {
        let text =
            "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n"
            + "T:v\r\nU: \t w x \t\r\nV:\r\nW: caf\u{E9}\r\n\r\n"
        #expect(try parseAll(text).first?.body == Array("x".utf8))
    }

    @Test func refusesTransferEncodingInHTTP10() {
        #expect(failure("POST /a HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n") == 400)
        #expect(failure("POST /a HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") == 400)
        #expect(failure("POST /a HTTP/1.0\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\nx") == 400)
        #expect(failure("POST /a HTTP/1.0\r\nContent-Length: 1\r\n\r\nx") == nil)
    }

    @Test func requiresOneHostFieldInHTTP11AndAtMostOneInHTTP10() {
        #expect(failure("GET /a HTTP/1.1\r\n\r\n") == 400)
        #expect(failure("GET /a HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n") == 400)
        #expect(failure("GET /a HTTP/1.1\r\nHost: a\r\nhOST: b\r\n\r\n") == 400)
        #expect(failure("GET /a HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n") == 400)
        #expect(failure("GET /a HTTP/1.1\r\nhost: a\r\n\r\n") == nil)
        #expect(failure("GET /a HTTP/1.1\r\nHost:\r\n\r\n") == nil)   // empty: allowed (RFC 9112, section 3.2)
        #expect(failure("GET /a HTTP/1.0\r\n\r\n") == nil)
    }

    @Test func takesABareLFAsALineEndInTheHead() throws {
        let requests = try parseAll(
            "GET /a HTTP/1.1\nHost: a\nX: 1\n\nGET /b HTTP/1.1\r\nHost: b\n\r\n"
                + "\nPOST /c HTTP/1.1\nHost: c\r\nContent-Length: 2\n\nhiGET /d HTTP/1.1\nHost: d\r\n\n")
        #expect(requests.map(\.target) == ["/a", "/b", "/c", "/d"])
        #expect(requests[0].headers.map(\.name) == ["Host", "X"])
        #expect(requests[0].header("X") == "1")
        #expect(requests[2].body == Array("hi".utf8))
        // The same, whatever the stream is cut.
        let bytes = Array("GET /a HTTP/1.1\nHost: a\n\nPUT /b HTTP/1.1\r\nHost: b\nContent-Length: 1\r\n\nz".utf8)
        let whole = try parse(pieces: [bytes[...]])
        #expect(whole.map(\.target) == ["/a", "/b"])
        for split in 1..<bytes.count {
            #expect(try parse(pieces: [bytes[..<split], bytes[split...]]) == whole, "split at \(split)")
        }
        #expect(try parse(pieces: bytes.indices.map { bytes[$0...$0] }) == whole, "one byte at a time")
    }

    @Test(arguments: [
        "GET /a HTTP/1.1\rHost: a\r\n\r\n",   // a CR ending the request line
        "GET /a HTTP/1.1\r\r\nHost: a\r\n\r\n",   // a CR before the CR LF (without the check: 505, version "HTTP/1.1\r")
        "GET /a HTTP/1.1\r\nHost: a\rX: 1\r\n\r\n",   // a CR ending a field line
        "GET /a HTTP/1.1\r\nHost: a\r\n\r\r\n\r\n",
        "\rGET /a HTTP/1.1\r\nHost: a\r\n\r\n",   // a CR before the request line
        "GET /a\r HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\r\n\r\nx",
    ])
    func refusesABareCRInTheHeadWith400(text: String) {
        #expect(failure(text) == 400)
    }

    @Test func refusesMethodsWithLowerCaseLettersWith501() {
        #expect(failure("get /a HTTP/1.1\r\nHost: a\r\n\r\n") == 501)
        #expect(failure("Get /a HTTP/1.1\r\nHost: a\r\n\r\n") == 501)
        #expect(failure("GET /a HTTP/1.1\r\nHost: a\r\n\r\n") == nil)
        #expect(failure("M-SEARCH /a HTTP/1.1\r\nHost: a\r\n\r\n") == nil)
    }

    @Test func takesTheAsteriskFormForOPTIONSOnly() {
        #expect(failure("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n") == nil)
        #expect(failure("GET * HTTP/1.1\r\nHost: a\r\n\r\n") == 400)
        #expect(failure("DELETE * HTTP/1.1\r\nHost: a\r\n\r\n") == 400)
    }

    @Test func ignoresAnHTTP10ExpectationOfContinue() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("PUT /x HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        let early = try parser.next()
        let continueFor10 = parser.takeContinueRequest()
        #expect(early == nil)
        #expect(!continueFor10)
        parser.append(Array("okPUT /y HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n".utf8))
        let first = try parser.next(), second = try parser.next()
        #expect(first?.body == Array("ok".utf8))
        let continueFor11 = parser.takeContinueRequest()
        #expect(second == nil)
        #expect(continueFor11)   // HTTP/1.1: answered
    }

    @Test func refusesOversizedHeadsBodiesAndOddVersionsAndEncodings() {
        let limits = HTTPRequestParser.Limits(maximumHeaderBytes: 64, maximumBodyBytes: 8)
        #expect(failure("GET /a HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "a", count: 100))", limits: limits) == 431)
        #expect(failure("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n", limits: limits) == 413)
        #expect(failure("POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n", limits: limits) == 413)
        #expect(failure("GET /a HTTP/2.0\r\n\r\n") == 505)
        #expect(failure("POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n") == 501)
    }

    @Test(
        arguments: [
            ([0xE2, 0x82, 0xAC], true),   // €
            ([0xEF, 0xBF, 0xBD], true),   // U+FFFD itself, which decoding also produces
            ([0xF0, 0x9F, 0x98, 0x80], true),   // an emoji, four bytes
            ([0xC0, 0xAF], false),   // an overlong encoding of "/"
            ([0xED, 0xA0, 0x80], false),   // a surrogate
            ([0xF4, 0x90, 0x80, 0x80], false),   // beyond U+10FFFF
            ([0xE2, 0x82], false),   // cut short
            ([0x80], false),   // a lone continuation byte
            ([0xFF], false),
        ] as [([UInt8], Bool)])
    func acceptsAHeadValueExactlyWhenItIsUTF8(value: [UInt8], valid: Bool) {
        #expect(headValue(value) == (valid ? .accepted(String(decoding: value, as: UTF8.self)) : .notText))
    }

    /// Oracle: Foundation's own UTF-8 decoder, over a seeded sweep of byte runs
    /// built from the bytes where UTF-8's rules change.
    @Test func agreesWithFoundationOnWhichHeadsAreUTF8() {
        let edges: [UInt8] = [
            0x41, 0x7E, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
            0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
        ]
        var generator = SeededGenerator(seed: 0x5EED_0012)
        var accepted = 0
        for _ in 0..<20_000 {
            let value = (0..<Int.random(in: 1...6, using: &generator)).map { _ in edges.randomElement(using: &generator)! }
            let expected = String(bytes: value, encoding: .utf8).map(HeadValue.accepted) ?? .notText
            #expect(headValue(value) == expected, "bytes \(value)")
            if case .accepted = expected { accepted += 1 }
        }
        #expect(accepted > 300)   // the sweep covers both outcomes (498 valid with this seed)
    }

    private enum HeadValue: Equatable {
        case accepted(String)
        case notText
        case other(String)
    }

    private func headValue(_ value: [UInt8]) -> HeadValue {
        var parser = HTTPRequestParser()
        parser.append(Array("GET /a HTTP/1.1\r\nHost: a\r\nX: ".utf8) + value + Array("\r\n\r\n".utf8))
        do {
            return try parser.next()?.headers.last.map { .accepted($0.value) } ?? .other("no request")
        } catch {
            return error.reason == "the request head is not valid text" ? .notText : .other(error.reason)
        }
    }

    @Test func survivesEveryPrefixAndRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let count = Int.random(in: 0..<200, using: &generator)
            var parser = HTTPRequestParser(limits: .init(maximumHeaderBytes: 128, maximumBodyBytes: 64))
            parser.append((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            while (try? parser.next()) != nil {}
        }
        let bytes = Array(Self.post.utf8)
        for end in 0...bytes.count {
            var parser = HTTPRequestParser()
            parser.append(bytes[..<end])
            let request = (try? parser.next()) ?? nil
            #expect(request == nil || end == bytes.count)
        }
    }
}
