import Dispatch
import Foundation
import MetaControllerTestSupport
import MetaControllerSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MetaController
import MetaControllerTesting
import Testing

@Suite struct MockAPIServerTests {
    private struct User: Codable, Equatable {
        var id: String
    }

    private func started(_ limits: MockAPIServer.Limits = .init()) throws -> MockAPIServer {
        let server = MockAPIServer(limits: limits)
        try server.start()
        return server
    }

    @Test func listensOnLoopbackOnAnEphemeralPortOnceStarted() throws {
        let server = MockAPIServer()
        #expect(server.port == 0)
        try server.start()
        defer { server.stop() }
        #expect(server.port > 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
    }

    @Test func routesByMethodPathParametersAndWildcards() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/users/:id") { .json(User(id: $0.pathParameters["id"] ?? "")) }
        server.route(.get, "/files/*") { .text("file \($0.pathParameters["*"] ?? "")") }
        server.route(.delete, "/users/:id", response: .status(204))

        let client = try RawClient(port: server.port)
        client.send("GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
        let user = client.readResponse()
        #expect(user.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(user.contains("Content-Type: application/json"))
        #expect(user.hasSuffix(#"{"id":"7"}"#))
        client.send("GET /files/a/b.txt HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse().hasSuffix("file a/b.txt"))
        client.send("DELETE /users/7 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(client.readToEnd().hasPrefix("HTTP/1.1 204 No Content"))
        #expect(server.requests.map(\.method) == [.get, .get, .delete])
        #expect(server.requests.first?.pathParameters == ["id": "7"])
    }

    @Test func theRouteRegisteredLastWins() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/*", response: .text("default"))
        server.route(.get, "/special", response: .text("special"))
        let client = try RawClient(port: server.port)
        client.send("GET /special HTTP/1.1\r\nHost: a\r\n\r\nGET /other HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse().hasSuffix("special"))
        #expect(client.readResponse().hasSuffix("default"))
    }

    @Test func recordsWhatTheClientSent() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.post, "/items", response: .status(201))
        let client = try RawClient(port: server.port)
        client.send("POST /items?tag=a%2Bb&tag=c&empty HTTP/1.1\r\nHost: a\r\nX-Trace: 42\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbody")
        #expect(client.readToEnd().hasPrefix("HTTP/1.1 201 Created"))
        let request = try #require(server.requests.first)
        #expect(request.method == .post)
        #expect(request.path == "/items")
        #expect(
            request.query == [
                URLQueryItem(name: "tag", value: "a+b"), URLQueryItem(name: "tag", value: "c"),
                URLQueryItem(name: "empty", value: nil),
            ])
        #expect(request.queryValue("tag") == "a+b")
        #expect(request.header("x-trace") == "42")
        #expect(request.body == Data("body".utf8))
        server.removeAllRequests()
        #expect(server.requests.isEmpty)
    }

    @Test func anUnmatchedRequestGetsA404NamingItAndIsListed() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/known", response: .status(200))
        let client = try RawClient(port: server.port)
        client.send("POST /known HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let response = client.readToEnd()
        #expect(response.hasPrefix("HTTP/1.1 404 Not Found"))
        #expect(response.hasSuffix("no route for POST /known"))
        let options = try RawClient(port: server.port)
        options.send("OPTIONS * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(options.readToEnd().hasSuffix("no route for OPTIONS *"))
        #expect(server.unmatchedRequests.map(\.path) == ["/known", "*"])
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", "HTTP/1.1 400 Bad Request"),
        ("GET /a HTTP/1.1\r\nHost: a\r\nContent-Length: 999\r\n\r\n", "HTTP/1.1 413 Content Too Large"),
        ("GET /a HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "a", count: 300))\r\n\r\n", "HTTP/1.1 431"),
        ("GET /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", "HTTP/1.1 501"),
    ])
    func refusesBadRequestsClosesTheConnectionAndStaysUp(text: String, status: String) throws {
        let server = try started(.init(maximumHeaderBytes: 256, maximumBodyBytes: 100))
        defer { server.stop() }
        server.route(.get, "/ok", response: .text("still here"))
        let bad = try RawClient(port: server.port)
        bad.send(text)
        #expect(bad.readToEnd().hasPrefix(status))   // readToEnd returns: the server closed
        let good = try RawClient(port: server.port)
        good.send("GET /ok HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(good.readResponse().hasSuffix("still here"))
        #expect(server.requests.count == 1)
    }

    @Test func aTruncatedRequestIsDroppedWithoutAnAnswer() throws {
        let server = try started()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc")
        client.finishSending()
        #expect(client.readToEnd() == "")
        #expect(server.requests.isEmpty)
    }

    @Test func answersContinueAndChunkedBodies() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.put, "/upload") { .text("got \($0.body.count)") }
        let client = try RawClient(port: server.port)
        client.send("PUT /upload HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        #expect(client.readResponse() == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("abc")
        #expect(client.readResponse().hasSuffix("got 3"))
        client.send("PUT /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nab")
        client.send("cd\r\n3;ext=1\r\nefg\r\n0\r\n\r\n")
        #expect(client.readResponse().hasSuffix("got 7"))
        #expect(server.requests.last?.body == Data("abcdefg".utf8))
    }

    @Test func faultsCanBeServed() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/garbage", response: .raw(Data("not http at all".utf8)))
        server.route(.get, "/hangup", response: .closeConnection)
        let garbage = try RawClient(port: server.port)
        garbage.send("GET /garbage HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(garbage.readToEnd() == "not http at all")
        let hangup = try RawClient(port: server.port)
        hangup.send("GET /hangup HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(hangup.readToEnd() == "")
    }

    @Test func stopReturnsPromptlyWithClientsConnectedMidRequestAndDelayed() throws {
        let server = try started()
        server.route(.get, "/slow", delay: .seconds(60), response: .text("late"))
        let idle = try RawClient(port: server.port)
        let partial = try RawClient(port: server.port)
        partial.send("GET /slow HTTP/1.1\r\nHost")
        let delayed = try RawClient(port: server.port)
        delayed.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
        // The delayed request is recorded before its delay begins.
        while server.requests.isEmpty {}
        let clock = ContinuousClock()
        let elapsed = clock.measure { server.stop() }
        #expect(elapsed < .seconds(5))
        #expect(delayed.readToEnd() == "")
        #expect(idle.readToEnd() == "")
        server.stop()   // again: nothing happens
        #expect(throws: MockAPIServerError.stopped) { try server.start() }
    }

    @Test func aServerDroppedWithoutStopStopsInItsDeinit() throws {
        var port = 0
        do {
            let server = try started()
            server.route(.get, "/a", delay: .seconds(60), response: .status(200))
            port = server.port
            let waiting = try RawClient(port: port)
            waiting.send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n")
            while server.requests.isEmpty {}   // the route's delay has begun
        }
        // Nothing listens any more: the threads did not keep the server alive.
        #expect(throws: (any Error).self) { try RawClient(port: port) }
    }

    @Test func stopRacingStartLeavesNothingListening() throws {
        for _ in 0..<30 {
            let server = MockAPIServer()
            let outcomes = Lock<[Result<Void, MockAPIServerError>]>([])
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 0 {
                    server.stop()
                } else {
                    let outcome = Result { () throws(MockAPIServerError) in try server.start() }
                    outcomes.withLock { $0.append(outcome) }
                }
            }
            for case .failure(let error) in outcomes.withLock({ $0 }) { #expect(error == .stopped) }
            if server.port > 0 {
                #expect(throws: (any Error).self) { try RawClient(port: server.port) }
            }
        }
    }

    @Test func stopFromInsideARouteDoesNotWaitForItself() throws {
        let server = try started()
        let stopReturned = DispatchSemaphore(value: 0)
        server.route(.post, "/shutdown") { [weak server] _ in
            server?.stop()
            stopReturned.signal()
            return .text("bye")
        }
        let client = try RawClient(port: server.port)
        client.send("POST /shutdown HTTP/1.1\r\nHost: a\r\n\r\n")
        // A stop() that waited for its own thread would take its full 10-second guard.
        #expect(stopReturned.wait(timeout: .now() + 4) == .success)
        #expect(client.readToEnd() == "")   // closed by stop(), unanswered
        #expect(server.requests.map(\.path) == ["/shutdown"])
    }

    @Test func closesAConnectionSilentForTheReadTimeout() throws {
        let server = try started(.init(readTimeout: .milliseconds(100), idleTimeout: .milliseconds(100)))
        defer { server.stop() }
        server.route(.get, "/a", response: .text("a"))
        let idle = try RawClient(port: server.port)
        let partial = try RawClient(port: server.port)
        partial.send("GET /a HTTP/1.1\r\nHost:")
        let afterOne = try RawClient(port: server.port)
        afterOne.send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(afterOne.readResponse().hasSuffix("\r\n\r\na"))
        // Closed by the server, not ended by the client's own 5-second read timeout.
        #expect(idle.readUntilClosed() == ("", true))
        #expect(partial.readUntilClosed() == ("", true))
        #expect(afterOne.readUntilClosed() == ("", true))
        #expect(server.requests.count == 1)
    }

    @Test func dropsAClientTricklingItsHeadAtTheHeadDeadlineAndServesOthersMeanwhile() throws {
        let server = try started(.init(headDeadline: .milliseconds(200)))
        defer { server.stop() }
        server.route(.get, "/ok", response: .text("served"))
        let slow = try RawClient(port: server.port)
        let head = Array("GET /ok HTTP/1.1\r\nHost: a\r\nX: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 400)
        var sent = 0
        // One byte, then up to 20 ms on the socket for the server to answer or close: never
        // silent for the read timeout (5 s), the head never ends, and without a deadline this
        // goes on for 400 bytes (8 s).
        while sent < head.count, !slow.waitUntilReadable(milliseconds: 20) {
            slow.send([head[sent]])
            sent += 1
            if sent == 3 {
                let normal = try RawClient(port: server.port)
                normal.send("GET /ok HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(normal.readResponse().hasSuffix("served"))
            }
        }
        let (text, closed) = slow.readUntilClosed()
        #expect(closed)
        #expect(text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(text.contains("Connection: close\r\n"))
        #expect(sent < head.count)
        #expect(server.requests.map(\.path) == ["/ok"])
    }

    @Test func closesAConnectionIdleForTheIdleTimeoutButNotOneMidRequest() throws {
        let server = try started(.init(readTimeout: .seconds(30), idleTimeout: .milliseconds(200)))
        defer { server.stop() }
        server.route(.get, "/a", response: .text("a"))
        let keptAlive = try RawClient(port: server.port)
        keptAlive.send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(keptAlive.readResponse().hasSuffix("\r\n\r\na"))
        // Closed by the server, not ended by the client's own 5-second read timeout.
        #expect(keptAlive.readUntilClosed() == ("", true))
        let silent = try RawClient(port: server.port)
        #expect(silent.readUntilClosed() == ("", true))
        // Mid-request the read timeout (30 s) applies, not the idle timeout.
        let partial = try RawClient(port: server.port)
        partial.send("GET /a HTTP/1.1\r\nHost: a\r\n")
        #expect(!partial.waitUntilReadable(milliseconds: 600))
        partial.send("\r\n")
        #expect(partial.readResponse().hasSuffix("\r\n\r\na"))
    }

    @Test func answers503ToAConnectionOverTheCapAndServesAgainOnceOneCloses() throws {
        let server = try started(.init(maximumConnections: 3))
        defer { server.stop() }
        server.route(.get, "/a", response: .text("a"))
        let held = try (0..<3).map { _ in try RawClient(port: server.port) }
        for client in held {   // each answered, so each has been accepted and counts
            client.send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(client.readResponse().hasSuffix("\r\n\r\na"))
        }
        let over = try RawClient(port: server.port)
        let (refused, closed) = over.readUntilClosed()
        #expect(closed)
        #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(refused.contains("Connection: close\r\n"))
        #expect(refused.hasSuffix("the server already serves its maximum of 3 connections"))
        // The server has closed its end once the client sees the close: the slot is free.
        held[0].send("GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(held[0].readUntilClosed().closed)
        let next = try RawClient(port: server.port)
        next.send("GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(next.readToEnd().hasSuffix("\r\n\r\na"))
        held[1].send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(held[1].readResponse().hasSuffix("\r\n\r\na"))
        #expect(server.requests.count == 6)
    }

    @Test func refusesAResponseHeaderThatWouldInjectAnother() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/items/:id") { .text("ok").header("X-Echo", $0.pathParameters["id"] ?? "") }
        let client = try RawClient(port: server.port)
        client.send("GET /items/x%0d%0aX-Injected:%20yes HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = client.readResponse()
        let head = response.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
        #expect(head.first == "HTTP/1.1 500 Internal Server Error")
        #expect(!head.contains { $0.lowercased().hasPrefix("x-injected") || $0.lowercased().hasPrefix("x-echo") })
        #expect(response.hasSuffix(#"the route's response header "X-Echo" has a control character in its value: "x\r\nX-Injected: yes""#))
        #expect(server.requests.map(\.path) == ["/items/x\r\nX-Injected: yes"])
        // The connection carries on.
        client.send("GET /items/7 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse().contains("\r\nX-Echo: 7\r\n"))
    }

    @Test(arguments: [
        ("X-Echo\r\nX-Injected", "yes", true),
        ("X-Nul\u{0}", "v", true),
        ("Bad Name", "v", true),
        ("", "v", true),
        ("X-Value", "a\u{0}b", false),
        ("X-Value", "a\rb", false),
        ("X-Value", "a\nb", false),
        ("X-Value", "a\u{1}b", false),
        ("X-Value", "a\u{1B}[31mb", false),
        ("X-Value", "a\u{7F}b", false),
        ("X-Value", "a\u{1F}b", false),
    ])
    func refusesResponseHeadersWithBytesThatBreakTheHead(name: String, value: String, nameIsBad: Bool) throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/a", response: .text("ok").header(name, value))
        let client = try RawClient(port: server.port)
        client.send("GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let response = client.readToEnd()
        #expect(response.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
        let reason =
            nameIsBad
            ? "the route's response header \(name.debugDescription) has a byte not allowed in a field name"
            : "the route's response header \(name.debugDescription) has a control character in its value: \(value.debugDescription)"
        #expect(response.hasSuffix(reason))
        #expect(!response.contains("yes\r\n"))
        #expect(server.requests.count == 1)
    }

    /// A tab and bytes from 0x80 (UTF-8) are allowed in a field value (RFC 9110, section 5.5): sent as they are.
    @Test func sendsAResponseHeaderValueWithATabAndUTF8AsItIs() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/a", response: .text("ok").header("X-Value", "a\tcaf\u{E9}"))
        let client = try RawClient(port: server.port)
        client.send("GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let response = client.readToEnd()
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.contains("\r\nX-Value: a\tcaf\u{E9}\r\n"))
    }

    @Test func dropsTheOldestRecordedBodiesOverTheRetainedCap() throws {
        let server = try started(.init(maximumRetainedBodyBytes: 10))
        defer { server.stop() }
        server.route(.post, "/items") { .text("\($0.body.count)") }
        let client = try RawClient(port: server.port)
        func post(_ path: String, _ body: String) -> String {
            client.send("POST \(path) HTTP/1.1\r\nHost: a\r\nX-Body: \(body)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            return client.readResponse()
        }
        #expect(post("/items", "first1").hasSuffix("\r\n\r\n6"))
        #expect(post("/nowhere", "second").hasPrefix("HTTP/1.1 404"))
        #expect(post("/items", "third3").hasSuffix("\r\n\r\n6"))
        // Over the cap on its own: the route sees it all, the record keeps none of it, and no other body is dropped.
        #expect(post("/items", "twelve bytes").hasSuffix("\r\n\r\n12"))
        let requests = server.requests
        #expect(requests.map(\.bodyWasDropped) == [true, true, false, true])
        #expect(requests.map(\.body) == [Data(), Data(), Data("third3".utf8), Data()])
        #expect(requests.map(\.path) == ["/items", "/nowhere", "/items", "/items"])
        #expect(requests.map { $0.header("X-Body") } == ["first1", "second", "third3", "twelve bytes"])
        #expect(server.unmatchedRequests.map(\.bodyWasDropped) == [true])
        server.removeAllRequests()
        #expect(post("/items", "fourth").hasSuffix("\r\n\r\n6"))
        #expect(post("/items", "fifth").hasSuffix("\r\n\r\n5"))
        #expect(server.requests.map(\.body) == [Data(), Data("fifth".utf8)])
    }

    @Test func keepsTheConnectionOpenUntilTheClientAsksToClose() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/n/:n") { .text($0.pathParameters["n"] ?? "") }
        let client = try RawClient(port: server.port)
        for index in 0..<3 {
            client.send("GET /n/\(index) HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = client.readResponse()
            #expect(response.contains("Connection: keep-alive\r\n"))
            #expect(response.hasSuffix("\r\n\r\n\(index)"))
        }
        client.send("GET /n/last HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let last = client.readToEnd()   // returns because the server closed
        #expect(last.contains("Connection: close\r\n"))
        #expect(last.hasSuffix("last"))

        let old = try RawClient(port: server.port)
        old.send("GET /n/1.0 HTTP/1.0\r\n\r\n")
        #expect(old.readToEnd().hasSuffix("Connection: close\r\n\r\n1.0"))
        let oldKeepAlive = try RawClient(port: server.port)
        oldKeepAlive.send("GET /n/a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(oldKeepAlive.readResponse().hasSuffix("a"))
        oldKeepAlive.send("GET /n/b HTTP/1.0\r\n\r\n")
        #expect(oldKeepAlive.readToEnd().hasSuffix("b"))
    }

    @Test func sendsEachKindOfResponse() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/json", response: .json(User(id: "1"), statusCode: 202))
        server.route(.get, "/data", response: .data(Data([0, 1, 2]), contentType: "image/x-test"))
        server.route(.get, "/status", response: .status(204))
        server.route(
            .get, "/headers",
            response: .text("t").header("X-One", "1").header("content-type", "text/x-custom")
                .header("Content-Length", "999").header("Connection", "upgrade"))
        server.route(.head, "/head", response: .text("not sent for HEAD"))

        let client = try RawClient(port: server.port)
        client.send("GET /json HTTP/1.1\r\nHost: a\r\n\r\n")
        let json = client.readResponse()
        #expect(json.hasPrefix("HTTP/1.1 202 Accepted\r\n"))
        #expect(json.contains("Content-Type: application/json\r\n"))
        #expect(json.hasSuffix("\r\n\r\n{\"id\":\"1\"}"))
        client.send("GET /data HTTP/1.1\r\nHost: a\r\n\r\n")
        let data = client.readResponse()
        #expect(data.contains("Content-Type: image/x-test\r\nContent-Length: 3\r\n"))
        #expect(data.hasSuffix("\r\n\r\n\u{0}\u{1}\u{2}"))
        client.send("GET /status HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse() == "HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n")
        client.send("GET /headers HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(
            client.readResponse() == "HTTP/1.1 200 OK\r\nX-One: 1\r\ncontent-type: text/x-custom\r\n"
                + "Content-Length: 1\r\nConnection: keep-alive\r\n\r\nt")
        client.send("HEAD /head HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let head = client.readToEnd()
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.hasSuffix("Content-Length: 17\r\nConnection: close\r\n\r\n"))
    }

    @Test func decodesThePathBeforeMatchingIt() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/users/:id/files/*") { .text("\($0.pathParameters["id"] ?? "") \($0.pathParameters["*"] ?? "")") }
        let client = try RawClient(port: server.port)
        client.send("GET /users/a%20b/files/x/y.txt?v=1 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse().hasSuffix("a b x/y.txt"))
        #expect(server.requests.first?.path == "/users/a b/files/x/y.txt")
        #expect(server.requests.first?.queryValue("v") == "1")
    }

    @Test func servesManyRawClientsAtOnceEachKeptAlive() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.post, "/echo") { .data($0.body) }
        let failures = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 16) { clientIndex in
            guard let client = try? RawClient(port: server.port) else {
                failures.withLock { $0 += 1 }
                return
            }
            for requestIndex in 0..<5 {
                let body = "\(clientIndex)-\(requestIndex)"
                client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                if !client.readResponse().hasSuffix("\r\n\r\n\(body)") { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(server.requests.count == 80)
    }

    @Test func recordsWhatURLSessionSent() async throws {
        let server = try started()
        defer { server.stop() }
        server.route(.put, "/items/:id") { request in
            .json(User(id: request.pathParameters["id"] ?? ""), statusCode: 201).header("X-Seen", request.header("x-client") ?? "")
        }
        var components = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
        components.path = "/items/42"
        components.queryItems = [URLQueryItem(name: "note", value: "a&b é")]
        var request = URLRequest(url: try #require(components.url))
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("tests", forHTTPHeaderField: "X-Client")
        request.httpBody = Data(#"{"id":"42"}"#.utf8)
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }

        let (body, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 201)
        #expect(http.value(forHTTPHeaderField: "X-Seen") == "tests")
        #expect(try JSONDecoder().decode(User.self, from: body) == User(id: "42"))
        let sent = try #require(server.requests.first)
        #expect(sent.method == .put)
        #expect(sent.path == "/items/42")
        #expect(sent.pathParameters == ["id": "42"])
        #expect(sent.queryValue("note") == "a&b é")
        #expect(sent.header("CONTENT-TYPE") == "application/json")
        #expect(try sent.decodeJSON(User.self) == User(id: "42"))
        #expect(server.unmatchedRequests.isEmpty)
    }

    @Test func aDelayLongerThanURLSessionsTimeoutNeverAnswersInTime() async throws {
        let server = try started()
        defer { server.stop() }   // ends the delay
        server.route(.get, "/slow", delay: .seconds(60), response: .text("late"))
        var request = URLRequest(url: server.baseURL.appendingPathComponent("slow"))
        request.timeoutInterval = 0.2
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        await #expect {
            _ = try await session.data(for: request)
        } throws: { error in
            (error as? URLError)?.code == .timedOut
        }
    }

    @Test func servesManyClientsAtOnceThroughURLSession() async throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/echo/:n") { .text($0.pathParameters["n"] ?? "") }
        let api = URLSessionApiController(baseURL: server.baseURL)
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<40 {
                group.addTask { String(decoding: try await api.send(ApiRequest(.get, "/echo/\(index)")).body, as: UTF8.self) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(answers) == Set((0..<40).map(String.init)))
        #expect(server.requests.count == 40)
    }
}

/// Security: the mock server is reachable from this machine only.
@Suite struct MockAPIServerSecurityTests {
    #if os(Linux)
    @Test func itListensOnLoopbackOnly() throws {
        let server = MockAPIServer()
        try server.start()
        defer { server.stop() }
        // /proc/net/tcp lists listening sockets (state 0A) as hex local_address:port.
        let port = String(format: "%04X", server.port)
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let listening = table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[3] == "0A", fields[1].hasSuffix(":" + port) else { return nil }
            return String(fields[1])
        }
        #expect(listening == ["0100007F:" + port])   // 127.0.0.1, and no other address
        let ipv6 = (try? String(contentsOfFile: "/proc/net/tcp6", encoding: .utf8)) ?? ""
        #expect(!ipv6.contains(":" + port + " "))
    }
    #endif
}

/// Requests the RFCs refuse or frame strictly (RFC 9112 and 9110, paths by RFC 3986), each over a
/// real socket on 127.0.0.1; after each, the server serves another client.
@Suite struct MockAPIServerAttackTests {
    private func started() throws -> MockAPIServer {
        let server = MockAPIServer()
        server.route(.get, "/ok", response: .text("still here"))
        try server.start()
        return server
    }

    /// Sends `text` on a connection of its own. - Returns: What came back before the server closed it.
    private func exchange(_ text: String, with server: MockAPIServer) throws -> (text: String, closed: Bool) {
        let client = try RawClient(port: server.port)
        client.send(text)
        return client.readUntilClosed()
    }

    private func expectStillServing(_ server: MockAPIServer) throws {
        let good = try RawClient(port: server.port)
        good.send("GET /ok HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(good.readResponse().hasSuffix("\r\n\r\nstill here"))
    }

    private static let chunkedHead = "POST /ok HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test(
        arguments: [
            // Chunk extensions with bytes RFC 9112, section 7.1.1 does not allow.
            (chunkedHead + "1;a\nb\r\nx\r\n0\r\n\r\n", "HTTP/1.1 400 "),
            (chunkedHead + "1;a\u{0}\r\nx\r\n0\r\n\r\n", "HTTP/1.1 400 "),
            (chunkedHead + "1;a\u{7F}\r\nx\r\n0\r\n\r\n", "HTTP/1.1 400 "),
            (chunkedHead + "1;a=\u{1B}[2K\r\nx\r\n0\r\n\r\n", "HTTP/1.1 400 "),
            (chunkedHead + "1;a=\"\u{1B}\"\r\nx\r\n0\r\n\r\n", "HTTP/1.1 400 "),
            // Trailer lines that are not field lines (section 7.1.2).
            (chunkedHead + "1\r\nx\r\n0\r\nno colon\r\n\r\n", "HTTP/1.1 400 "),
            (chunkedHead + "1\r\nx\r\n0\r\nT: a\u{1B}b\r\n\r\n", "HTTP/1.1 400 "),
            (chunkedHead + "1\r\nx\r\n0\r\n folded: x\r\n\r\n", "HTTP/1.1 400 "),
            // Host: none in HTTP/1.1, or two (section 3.2).
            ("GET /ok HTTP/1.1\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            // A bare CR in the head (section 2.2).
            ("GET /ok HTTP/1.1\rHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok HTTP/1.1\r\nHost: a\rX: 1\r\n\r\n", "HTTP/1.1 400 "),
            // Methods are case-sensitive (RFC 9110, section 9.1).
            ("get /ok HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 501 "),
            // The asterisk form is for OPTIONS only.
            ("GET * HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            // Paths that do not decode, or climb above the root.
            ("GET /files/../../etc/passwd HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /files/%2e%2e/%2E%2e/etc/passwd HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /files/.%2E/.%2e/etc/passwd HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /a%00b HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /a%C0%AF HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /a%ED%A0%80 HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),   // a surrogate
            ("GET /a%zz HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /a%2 HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /a#frag HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            // A Host value that is not a host and an optional port (RFC 9112, section 3.2;
            // RFC 3986, section 3.2.2).
            ("GET /ok HTTP/1.1\r\nHost: a b\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok HTTP/1.1\r\nHost: x/y\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok HTTP/1.1\r\nHost: a@b\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok HTTP/1.1\r\nHost: [::1\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok HTTP/1.1\r\nHost: x:port\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok HTTP/1.1\r\nHost: [::1]x\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok HTTP/1.1\r\nHost: a%zzb\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok HTTP/1.1\r\nHost: caf\u{E9}\r\n\r\n", "HTTP/1.1 400 "),
            // A request target is visible ASCII (RFC 9112, section 3.2; RFC 3986, section 2).
            ("GET /items/\u{E9} HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET /ok\u{1B}[2K HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            // Absolute forms with user information, or without a host.
            ("GET http://user@a/ok HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET http:///ok HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET http://a b/ok HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
            ("GET ftp://a/ok HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400 "),
        ] as [(String, String)])
    func refusesAndClosesThenServesOthers(text: String, status: String) throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/files/*", response: .text("routed"))
        let (answer, closed) = try exchange(text + "GET /ok HTTP/1.1\r\nHost: a\r\n\r\n", with: server)
        #expect(answer.hasPrefix(status), "\(text.debugDescription) got \(answer.debugDescription)")
        #expect(answer.contains("Connection: close\r\n"))
        #expect(!answer.contains("routed") && !answer.contains("still here"), "the request after it was answered")
        #expect(closed)
        #expect(server.requests.isEmpty)
        try expectStillServing(server)
    }

    @Test(arguments: ["a", "127.0.0.1:8080", "[::1]:80", "[::1]", "[v1.x:y]", "example.com:", "a%20b", "", "A-b_c.d~e!$&'()*+,;="])
    func servesARequestWhoseHostIsAHostAndAPort(host: String) throws {
        let server = try started()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /ok HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        #expect(client.readResponse().hasSuffix("\r\n\r\nstill here"), "Host: \(host)")
        #expect(server.requests.first?.header("Host") == host)
    }

    /// RFC 9112, section 3.2.2: a server accepts the absolute form, and uses its authority in
    /// place of the Host field's value.
    @Test func routesAnAbsoluteFormTargetByItsPathAndQueryWithItsAuthorityAsTheHost() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/items/:id") { .text("item \($0.pathParameters["id"] ?? "?") \($0.query.first?.value ?? "-")") }
        let client = try RawClient(port: server.port)
        client.send("GET HTTP://127.0.0.1:\(server.port)/items/7?sort=new HTTP/1.1\r\nHost: elsewhere\r\n\r\n")
        #expect(client.readResponse().hasSuffix("\r\n\r\nitem 7 new"))
        client.send("GET https://a.example HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse().hasPrefix("HTTP/1.1 404 "))   // the path of an empty one is "/"
        client.send("GET http://[::1]:80?x=1 HTTP/1.0\r\n\r\n")
        #expect(client.readResponse().hasPrefix("HTTP/1.1 404 "))
        let requests = server.requests
        #expect(requests.map(\.target) == ["HTTP://127.0.0.1:\(server.port)/items/7?sort=new", "https://a.example", "http://[::1]:80?x=1"])
        #expect(requests.map(\.path) == ["/items/7", "/", "/"])
        #expect(requests.map { $0.header("Host") } == ["127.0.0.1:\(server.port)", "a.example", "[::1]:80"])
    }

    /// A body trickled a byte at a time, each byte within the read timeout, ends at the
    /// request's deadline with 408; the head's deadline alone never ended it.
    @Test func aTrickledBodyEndsAtTheRequestsDeadline() throws {
        let server = MockAPIServer(
            limits: .init(readTimeout: .seconds(30), headDeadline: .seconds(30), requestDeadline: .milliseconds(300)))
        server.route(.post, "/upload", response: .text("stored"))
        server.route(.get, "/ok", response: .text("still here"))
        try server.start()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\n\r\n")
        // Bytes keep coming (each read timeout of 30 s is far off) until the server answers.
        let started = ContinuousClock.now
        var sent = 0
        while !client.waitUntilReadable(milliseconds: 20), ContinuousClock.now - started < .seconds(120) {
            client.send("x")
            sent += 1
        }
        let (answer, closed) = client.readUntilClosed()
        #expect(answer.hasPrefix("HTTP/1.1 408 "), "after \(sent) bytes: \(answer.debugDescription)")
        #expect(answer.hasSuffix("the request did not arrive in full within 0.3 seconds"))
        #expect(closed)
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(server.requests.isEmpty)
        try expectStillServing(server)
    }

    @Test func anHTTP10RequestWithTransferEncodingIsRefusedAndTheConnectionClosedEvenWithKeepAlive() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.post, "/upload", response: .text("stored"))
        let (answer, closed) = try exchange(
            "POST /upload HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                + "GET /ok HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", with: server)
        #expect(closed)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(answer.hasSuffix("Transfer-Encoding in an HTTP/1.0 request"))
        #expect(!answer.contains("still here"))
        #expect(server.requests.isEmpty)
        try expectStillServing(server)
    }

    @Test func answersAHeadWithBareLFLineEnds() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.post, "/echo") { .text("\($0.header("X") ?? "-") \(String(decoding: $0.body, as: UTF8.self))") }
        let client = try RawClient(port: server.port)
        // Without bare LF as a line end the head never ends: no answer until the read timeout (5 s).
        client.send("GET /ok HTTP/1.1\nHost: a\n\n")
        #expect(client.readResponse().hasSuffix("\r\n\r\nstill here"))
        client.send("POST /echo HTTP/1.1\nHost: a\r\nX: 1\nContent-Length: 2\n\r\nhi")
        #expect(client.readResponse().hasSuffix("\r\n\r\n1 hi"))
        #expect(server.requests.map(\.path) == ["/ok", "/echo"])
    }

    @Test func matchesRawSegmentsThenDecodesEach() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/items/:id") { .text("item \($0.pathParameters["id"] ?? "")") }
        server.route(.get, "/files/*") { .text("file \($0.pathParameters["*"] ?? "")") }
        let client = try RawClient(port: server.port)
        func get(_ target: String) -> String {
            client.send("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = client.readResponse()
            return String(response[(response.range(of: "\r\n\r\n")?.upperBound ?? response.endIndex)...])
        }
        #expect(get("/items/a%2Fb") == "item a/b")
        #expect(get("/items/a%2fb%3Fc?x=1") == "item a/b?c")
        #expect(get("/files/a/b.txt") == "file a/b.txt")
        // Dot segments, plain or encoded, are removed before matching.
        #expect(get("/files/x/../y") == "file y")
        #expect(get("/files/x/%2e%2E/./%2e/y") == "file y")
        #expect(get("/other/.%2e/files/z") == "file z")
        #expect(get("/items/7/..") == "no route for GET /items/")
        // A segment that decodes to hold "/" is one segment: the wildcard never takes it.
        #expect(get("/files/..%2F..%2Fetc/passwd") == "no route for GET /files/../../etc/passwd")
        #expect(get("/files/a%2Fb") == "no route for GET /files/a/b")
        let targets = server.requests.map(\.target)
        #expect(targets.first == "/items/a%2Fb")
        #expect(targets.last == "/files/a%2Fb")
        #expect(server.requests.map(\.path)[3] == "/files/y")
        #expect(server.requests.map(\.pathParameters)[1] == ["id": "a/b?c"])
        #expect(server.unmatchedRequests.map(\.target) == ["/items/7/..", "/files/..%2F..%2Fetc/passwd", "/files/a%2Fb"])
    }

    @Test func aMethodInLowerCaseIsNotServedAsItsUpperCase() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/ping", response: .text("pong"))
        let (answer, closed) = try exchange("get /ping HTTP/1.1\r\nHost: a\r\n\r\n", with: server)
        #expect(answer.hasPrefix("HTTP/1.1 501 Not Implemented\r\n"))
        #expect(!answer.contains("pong"))
        #expect(closed)
        #expect(server.requests.isEmpty)
        // An unknown method in upper case, as before: recorded, 404 naming it.
        let (purge, _) = try exchange("PURGE /ping HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", with: server)
        #expect(purge.hasSuffix("no route for PURGE /ping"))
        #expect(server.unmatchedRequests.map(\.method) == ["PURGE"])
    }

    @Test func sendsNoContinueToAnHTTP10Client() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.put, "/upload") { .text("got \($0.body.count)") }
        let client = try RawClient(port: server.port)
        client.send("PUT /upload HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        // An HTTP/1.1 server answers 100 at once to a 1.1 client (answersContinueAndChunkedBodies);
        // to 1.0 it sends nothing until the body has come.
        #expect(!client.waitUntilReadable(milliseconds: 500))
        client.send("abc")
        let response = client.readToEnd()
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.hasSuffix("got 3"))
    }

    @Test func refusesAMalformedRouteAndAnswersEveryRequest500SayingWhy() throws {
        let server = try started()
        defer { server.stop() }
        #expect(server.routeFaults.isEmpty)
        server.route(.get, "/files/*/raw", response: .text("raw"))
        let reason = #"the route GET "/files/*/raw" is malformed: its * is not its last segment"#
        #expect(server.routeFaults == [reason])
        for target in ["/files/a/raw", "/files/a/b", "/ok"] {
            let (answer, _) = try exchange("GET \(target) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", with: server)
            #expect(answer.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"), "\(target)")
            #expect(answer.hasSuffix(reason))
        }
        #expect(server.unmatchedRequests.count == 3)
    }

    @Test func optionsAsteriskMatchesNoRoute() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.options, "/", response: .text("the root"))
        server.route(.options, "/:id", response: .text("an id"))
        server.route(.options, "/*", response: .text("anything"))
        let (answer, _) = try exchange("OPTIONS * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", with: server)
        #expect(answer.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(answer.hasSuffix("no route for OPTIONS *"))
        #expect(server.unmatchedRequests.map(\.target) == ["*"])
        let (star, _) = try exchange("OPTIONS /* HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", with: server)
        #expect(star.hasSuffix("anything"))   // the path /*: a segment "*", routed as any other
    }

    // MARK: - Answers without a body (RFC 9110, sections 6.4.1, 8.6, 15.3.5, 15.4.5)

    /// 1xx, 204 and 304 answers carry no body and no `Content-Length`, even when the route gave
    /// one; a HEAD answer has `Content-Length` and no body. Pipelined behind each other on one
    /// connection, each answer starts right where the one before ends (the body of a 204 used to
    /// be sent, and the client read it as the start of the next status line).
    @Test func answersWithoutABodySendNoneAndPipelinedAnswersStayApart() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/deleted", response: MockResponse(statusCode: 204, body: Data("stray".utf8)))
        server.route(.get, "/cached", response: .text("stray", statusCode: 304).header("ETag", "\"v1\""))
        server.route(.get, "/hints", response: MockResponse(statusCode: 103, headers: ["Link": "</a.css>; rel=preload"], body: Data("stray".utf8)))
        server.route(.get, "/ok", response: .text("ok"))
        server.route(.head, "/ok", response: .text("ok"))
        let client = try RawClient(port: server.port)
        client.send(
            "GET /deleted HTTP/1.1\r\nHost: a\r\n\r\nGET /cached HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /hints HTTP/1.1\r\nHost: a\r\n\r\nHEAD /ok HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /ok HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let (answers, closed) = client.readUntilClosed()
        #expect(closed)
        #expect(
            answers == "HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n"
                + "HTTP/1.1 304 Not Modified\r\nContent-Type: text/plain; charset=utf-8\r\nETag: \"v1\"\r\nConnection: keep-alive\r\n\r\n"
                + "HTTP/1.1 103 Status 103\r\nLink: </a.css>; rel=preload\r\nConnection: keep-alive\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        #expect(server.requests.map(\.path) == ["/deleted", "/cached", "/hints", "/ok", "/ok"])
    }

    // MARK: - Status codes outside 100 to 599

    /// A route declared with a status code outside 100...599 is refused where it is declared, as
    /// a malformed pattern is: listed in `routeFaults`, and every request answered 500 saying why.
    @Test(arguments: [0, 99, 600, 999, 1_000, -200])
    func refusesARouteDeclaredWithAStatusCodeOutsideTheRange(statusCode: Int) throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/ok", response: .text("fine"))
        server.route(.get, "/odd", response: .status(statusCode))
        let reason =
            "the route GET \"/odd\" answers the status code \(statusCode); a status code is from 100 to 599"
            + " (RFC 9110, section 15): send other bytes with MockResponse.raw(_:)"
        #expect(server.routeFaults == [reason])
        for target in ["/odd", "/ok"] {
            let (answer, _) = try exchange("GET \(target) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", with: server)
            #expect(answer.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"), "\(target)")
            #expect(answer.hasSuffix(reason))
        }
    }

    /// A route's closure that answers a status code outside 100...599 gets a 500 naming it
    /// instead; the connection carries on, and the route's first and last codes go as they are.
    @Test func anAnswerWithAStatusCodeOutsideTheRangeIsNotSent() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/status/:code") { request in .status(Int(request.pathParameters["code"] ?? "") ?? 0) }
        let client = try RawClient(port: server.port)
        client.send("GET /status/1000 HTTP/1.1\r\nHost: a\r\n\r\n")
        let refused = client.readResponse()
        #expect(refused.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
        #expect(
            refused.hasSuffix(
                "the route answered the status code 1000; a status code is from 100 to 599 (RFC 9110, section 15): send other bytes with MockResponse.raw(_:)"))
        client.send("GET /status/599 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse().hasPrefix("HTTP/1.1 599 Status 599\r\n"))
        client.send("GET /status/100 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse() == "HTTP/1.1 100 Continue\r\nConnection: keep-alive\r\n\r\n")
        #expect(server.routeFaults.isEmpty)
    }

    // MARK: - Limits as documented

    /// The defaults of the table in `MockAPIServer.Limits`' documentation.
    @Test func theLimitsDefaultToTheDocumentedValues() {
        let limits = MockAPIServer.Limits()
        #expect(limits.maximumHeaderBytes == 16 * 1024)
        #expect(limits.maximumBodyBytes == 1024 * 1024)
        #expect(limits.headDeadline == .seconds(10))
        #expect(limits.requestDeadline == .seconds(60))
        #expect(limits.readTimeout == .seconds(5))
        #expect(limits.idleTimeout == .seconds(5))
        #expect(limits.maximumConnections == 64)
        #expect(limits.maximumRetainedBodyBytes == nil)
        #expect(MockAPIServer().limits == limits)
    }

    /// DEL (0x7F) in a request header's value is a control character: 400, as for the others.
    @Test func refusesDELInARequestHeaderValue() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/ok", response: .text("still here"))
        let (answer, closed) = try exchange("GET /ok HTTP/1.1\r\nHost: a\r\nX-Value: a\u{7F}b\r\n\r\n", with: server)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(answer.hasSuffix("a control character in the value of X-Value"))
        #expect(closed)
        #expect(server.requests.isEmpty)
        try expectStillServing(server)
    }

    /// A head that stops arriving is answered 408 at the head's deadline, not closed unanswered at
    /// the read timeout (30 s here, past the client's own 5-second wait), and not before it.
    @Test func aStalledHeadIsAnswered408AtItsDeadline() throws {
        let server = MockAPIServer(limits: .init(readTimeout: .seconds(30), headDeadline: .milliseconds(150), idleTimeout: .seconds(30)))
        try server.start()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let sent = ContinuousClock.now
        client.send("GET /ok HTTP/1.1\r\nHost:")
        let (answer, closed) = client.readUntilClosed()
        #expect(ContinuousClock.now - sent >= .milliseconds(150))
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(answer.hasSuffix("the request head did not arrive within 0.15 seconds"))
        #expect(closed)
    }

    /// The head of a second request pipelined behind a first, which stops arriving, has the
    /// head's deadline from when the first was answered: 408, not the idle timeout's silent close.
    @Test func aPipelinedHeadThatStallsIsAnswered408AtItsDeadline() throws {
        let server = MockAPIServer(limits: .init(readTimeout: .seconds(30), headDeadline: .milliseconds(150), idleTimeout: .seconds(30)))
        try server.start()
        defer { server.stop() }
        server.route(.get, "/ok", response: .text("first"))
        let client = try RawClient(port: server.port)
        client.send("GET /ok HTTP/1.1\r\nHost: a\r\n\r\nGET /ok HTTP/1.1\r\nHost:")
        #expect(client.readResponse().hasSuffix("\r\n\r\nfirst"))
        let answered = ContinuousClock.now
        let (answer, closed) = client.readUntilClosed()
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer.debugDescription)")
        #expect(answer.hasSuffix("the request head did not arrive within 0.15 seconds"))
        #expect(closed)
        #expect(ContinuousClock.now - answered < .seconds(5))
        #expect(server.requests.count == 1)
    }
}
