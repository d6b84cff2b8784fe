import Foundation
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
        client.send("GET /files/a/b.txt HTTP/1.1\r\n\r\n")
        #expect(client.readResponse().hasSuffix("file a/b.txt"))
        client.send("DELETE /users/7 HTTP/1.1\r\nConnection: close\r\n\r\n")
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
        client.send("GET /special HTTP/1.1\r\n\r\nGET /other HTTP/1.1\r\n\r\n")
        #expect(client.readResponse().hasSuffix("special"))
        #expect(client.readResponse().hasSuffix("default"))
    }

    @Test func recordsWhatTheClientSent() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.post, "/items", response: .status(201))
        let client = try RawClient(port: server.port)
        client.send("POST /items?tag=a%2Bb&tag=c&empty HTTP/1.1\r\nX-Trace: 42\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbody")
        #expect(client.readToEnd().hasPrefix("HTTP/1.1 201 Created"))
        let request = try #require(server.requests.first)
        #expect(request.method == .post)
        #expect(request.path == "/items")
        #expect(request.query == [
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
        client.send("POST /known HTTP/1.1\r\nConnection: close\r\n\r\n")
        let response = client.readToEnd()
        #expect(response.hasPrefix("HTTP/1.1 404 Not Found"))
        #expect(response.hasSuffix("no route for POST /known"))
        #expect(server.unmatchedRequests.map(\.path) == ["/known"])
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", "HTTP/1.1 400 Bad Request"),
        ("GET /a HTTP/1.1\r\nContent-Length: 999\r\n\r\n", "HTTP/1.1 413 Content Too Large"),
        ("GET /a HTTP/1.1\r\nX: \(String(repeating: "a", count: 300))\r\n\r\n", "HTTP/1.1 431"),
        ("GET /a HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", "HTTP/1.1 501"),
    ])
    func refusesBadRequestsClosesTheConnectionAndStaysUp(text: String, status: String) throws {
        let server = try started(.init(maximumHeaderBytes: 256, maximumBodyBytes: 100))
        defer { server.stop() }
        server.route(.get, "/ok", response: .text("still here"))
        let bad = try RawClient(port: server.port)
        bad.send(text)
        #expect(bad.readToEnd().hasPrefix(status))   // readToEnd returns: the server closed
        let good = try RawClient(port: server.port)
        good.send("GET /ok HTTP/1.1\r\n\r\n")
        #expect(good.readResponse().hasSuffix("still here"))
        #expect(server.requests.count == 1)
    }

    @Test func aTruncatedRequestIsDroppedWithoutAnAnswer() throws {
        let server = try started()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("POST /a HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
        client.finishSending()
        #expect(client.readToEnd() == "")
        #expect(server.requests.isEmpty)
    }

    @Test func answersContinueAndChunkedBodies() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.put, "/upload") { .text("got \($0.body.count)") }
        let client = try RawClient(port: server.port)
        client.send("PUT /upload HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        #expect(client.readResponse() == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("abc")
        #expect(client.readResponse().hasSuffix("got 3"))
        client.send("PUT /upload HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n")
        #expect(client.readResponse().hasSuffix("got 4"))
    }

    @Test func faultsCanBeServed() throws {
        let server = try started()
        defer { server.stop() }
        server.route(.get, "/garbage", response: .raw(Data("not http at all".utf8)))
        server.route(.get, "/hangup", response: .closeConnection)
        let garbage = try RawClient(port: server.port)
        garbage.send("GET /garbage HTTP/1.1\r\n\r\n")
        #expect(garbage.readToEnd() == "not http at all")
        let hangup = try RawClient(port: server.port)
        hangup.send("GET /hangup HTTP/1.1\r\n\r\n")
        #expect(hangup.readToEnd() == "")
    }

    @Test func stopReturnsPromptlyWithClientsConnectedMidRequestAndDelayed() throws {
        let server = try started()
        server.route(.get, "/slow", delay: .seconds(60), response: .text("late"))
        let idle = try RawClient(port: server.port)
        let partial = try RawClient(port: server.port)
        partial.send("GET /slow HTTP/1.1\r\nHost")
        let delayed = try RawClient(port: server.port)
        delayed.send("GET /slow HTTP/1.1\r\n\r\n")
        // The delayed request is recorded before its delay begins.
        while server.requests.isEmpty {}
        let clock = ContinuousClock()
        let elapsed = clock.measure { server.stop() }
        #expect(elapsed < .seconds(5))
        #expect(delayed.readToEnd() == "")
        #expect(idle.readToEnd() == "")
        server.stop()   // again: nothing happens
        #expect(throws: MockAPIServerError.self) { try server.start() }
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
