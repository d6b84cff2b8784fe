import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport
import MetaControllerSupport
@testable import MetaControllerNetworking

@Suite struct URLSessionApiControllerTests {
    // MARK: - URLs

    @Test(arguments: [
        ("http://127.0.0.1:8080/api/", "/users/7", "http://127.0.0.1:8080/api/users/7"),
        ("http://127.0.0.1:8080/api", "users/7", "http://127.0.0.1:8080/api/users/7"),
        ("http://127.0.0.1:8080", "/a b/é", "http://127.0.0.1:8080/a%20b/%C3%A9"),
        ("https://example.com/v1?key=k", "/feed", "https://example.com/v1/feed?key=k"),
    ])
    func theURLJoinsTheBasePathAndTheRequestPath(base: String, path: String, expected: String) throws {
        let api = URLSessionApiController(baseURL: try #require(URL(string: base)))
        #expect(try api.url(for: ApiRequest(.get, path)).absoluteString == expected)
    }

    @Test func queryValuesArriveAsThemselves() throws {
        let api = URLSessionApiController(baseURL: try #require(URL(string: "http://127.0.0.1:1")))
        let request = ApiRequest(
            .get, "/search",
            query: [
                URLQueryItem(name: "q", value: "a+b&c=d é"),
                URLQueryItem(name: "flag", value: nil),
            ])
        #expect(try api.url(for: request).query == "q=a%2Bb%26c%3Dd%20%C3%A9&flag")
    }

    @Test func aBaseWithoutAHostIsAnInvalidRequest() throws {
        let api = URLSessionApiController(baseURL: try #require(URL(string: "file:///tmp")))
        #expect {
            try api.url(for: ApiRequest(.get, "/feed"))
        } throws: { error in
            (error as? ApiError)?.code == .invalidRequest
        }
    }
}

/// The real controller against a real server on 127.0.0.1.
@Suite struct URLSessionApiControllerServerTests {
    private struct Item: Codable, Equatable {
        var id: Int
        var title: String
    }

    private func serve(_ routes: (MockAPIServer) -> Void) throws -> MockAPIServer {
        let server = MockAPIServer()
        routes(server)
        try server.start()
        return server
    }

    private func expectError(
        _ code: ApiError.Code, _ body: () async throws -> some Any, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ApiError? {
        do {
            _ = try await body()
            Issue.record("expected \(code), got success", sourceLocation: sourceLocation)
        } catch let error as ApiError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record("expected an ApiError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test func sendsTheRequestAndDecodesTheAnswer() async throws {
        let server = try serve {
            $0.route(.post, "/items") { request in
                var item = (try? request.decodeJSON(Item.self)) ?? Item(id: 0, title: "?")
                item.id = 7
                return .json(item, statusCode: 201)
            }
        }
        defer { server.stop() }
        let api = URLSessionApiController(baseURL: server.baseURL)
        let saved = try await api.send(
            .post, "/items", json: Item(id: 0, title: "Hello"), decoding: Item.self)
        #expect(saved == Item(id: 7, title: "Hello"))
        let sent = try #require(server.requests.first)
        #expect(sent.header("Content-Type") == "application/json")
        #expect(sent.header("Accept") == "application/json")
    }

    @Test func anErrorStatusKeepsTheStatusAndBody() async throws {
        let server = try serve { $0.route(.get, "/feed", response: .text("maintenance", statusCode: 503)) }
        defer { server.stop() }
        let error = await expectError(.httpStatus) {
            try await URLSessionApiController(baseURL: server.baseURL).send(ApiRequest(.get, "/feed"))
        }
        #expect(error?.statusCode == 503)
        #expect(error?.bodyText == "maintenance")
    }

    @Test func aBodyThatDoesNotDecodeNamesTheKeyPath() async throws {
        let server = try serve { $0.route(.get, "/items", response: .data(Data(#"[{"id": 1, "title": 2}]"#.utf8))) }
        defer { server.stop() }
        let error = await expectError(.decoding) {
            try await URLSessionApiController(baseURL: server.baseURL).get("/items", decoding: [Item].self)
        }
        #expect(error?.keyPath == "[0].title")
    }

    @Test func aRefusedConnectionIsATransportError() async throws {
        let server = try serve { _ in }
        let url = server.baseURL
        server.stop()   // nothing listens on the port any more
        _ = await expectError(.transport) {
            try await URLSessionApiController(baseURL: url).send(ApiRequest(.get, "/feed"))
        }
    }

    @Test func garbageAndAHangUpAreTransportErrors() async throws {
        let server = try serve {
            $0.route(.get, "/garbage", response: .raw(Data("not http\r\n\r\n".utf8)))
            $0.route(.get, "/hangup", response: .closeConnection)
        }
        defer { server.stop() }
        let api = URLSessionApiController(baseURL: server.baseURL)
        _ = await expectError(.transport) { try await api.send(ApiRequest(.get, "/garbage")) }
        _ = await expectError(.transport) { try await api.send(ApiRequest(.get, "/hangup")) }
    }

    @Test func aConnectionClosedMidResponseIsATransportError() async throws {
        // The head promises 100 bytes; 5 arrive, then the server closes the connection.
        let cut = Data("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\nshort".utf8)
        let server = try serve { $0.route(.get, "/cut", response: .raw(cut)) }
        defer { server.stop() }
        let error = await expectError(.transport) {
            try await URLSessionApiController(baseURL: server.baseURL).send(ApiRequest(.get, "/cut"))
        }
        #expect(error?.description.hasPrefix("GET /cut failed: ") == true)
    }

    @Test func aSlowAnswerTimesOutAtTheRequestsTimeout() async throws {
        let server = try serve { $0.route(.get, "/slow", delay: .seconds(3600), response: .text("late")) }
        defer { server.stop() }
        let api = URLSessionApiController(baseURL: server.baseURL, timeout: .seconds(3600))
        let started = ContinuousClock.now
        let error = await expectError(.timeout) {
            try await api.send(ApiRequest(.get, "/slow", timeout: .milliseconds(200)))
        }
        // No upper bound on the time taken: a request that did not time out would get the
        // route's answer (an hour away; `stop()` ends the delay) and fail `expectError` instead.
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        #expect(error?.description == "GET /slow timed out after 0.2 seconds")
    }

    @Test(arguments: [Duration.milliseconds(300), .milliseconds(1500)])
    func aSubSecondTimeoutIsHonouredNotTruncated(limit: Duration) async throws {
        let server = try serve { $0.route(.get, "/slow", delay: .seconds(3600), response: .text("late")) }
        defer { server.stop() }
        let api = URLSessionApiController(baseURL: server.baseURL, timeout: limit)
        let started = ContinuousClock.now
        let error = await expectError(.timeout) { try await api.send(ApiRequest(.get, "/slow")) }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= limit, "timed out after \(elapsed), before its limit of \(limit)")
        #expect(error?.description == "GET /slow timed out after \(limit == .milliseconds(300) ? "0.3" : "1.5") seconds")
    }

    @Test func anAnswerWithinASubSecondTimeoutSucceeds() async throws {
        // Truncated to whole seconds, 900 ms was no time at all; 850 ms of it are left for a busy machine.
        let server = try serve { $0.route(.get, "/quick", delay: .milliseconds(50), response: .text("on time")) }
        defer { server.stop() }
        let api = URLSessionApiController(baseURL: server.baseURL, timeout: .seconds(30))
        let response = try await api.send(ApiRequest(.get, "/quick", timeout: .milliseconds(900)))
        #expect(response.body == Data("on time".utf8))
    }

    /// The server answers only when stopped, and the request's limit is as long: however late a
    /// busy machine runs the test after the request arrived, the cancellation decides the outcome.
    /// (With a 30 s answer, a loaded CI run reached the cancel after it and saw success.)
    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        let server = try serve { $0.route(.get, "/slow", delay: .seconds(3600), response: .text("late")) }
        defer { server.stop() }
        let api = URLSessionApiController(baseURL: server.baseURL, timeout: .seconds(3600))
        let task = Task { try await api.send(ApiRequest(.get, "/slow")) }
        while server.requests.isEmpty { await Task.yield() }   // the request has arrived
        task.cancel()
        _ = await expectError(.cancelled) { try await task.value }
    }

    /// "Cancels the transfer at once": with URLSession's report of the cancelled transfer held (its
    /// delegate queue suspended), the cancellation itself answers the caller. The bound only turns
    /// a caller left waiting for that report into a failure; a passing run never waits for it.
    @Test func aCancellationAnswersTheCallerWithoutWaitingForURLSessionsReport() async throws {
        let server = try serve { $0.route(.get, "/slow", delay: .seconds(3600), response: .text("late")) }
        defer { server.stop() }
        let reports = OperationQueue()
        reports.isSuspended = true
        let api = URLSessionApiController(baseURL: server.baseURL, timeout: .seconds(3600), delegateQueue: reports)
        let task = Task { () -> ApiError.Code? in
            do throws(ApiError) {
                _ = try await api.send(ApiRequest(.get, "/slow"))
                return nil
            } catch {
                return error.code
            }
        }
        while server.requests.isEmpty { await Task.yield() }
        task.cancel()
        enum Outcome: Equatable {
            case answered(ApiError.Code?)
            case notAnswered
        }
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            group.addTask { .answered(await task.value) }
            group.addTask {
                do {
                    try await Task.sleep(for: .seconds(120))
                } catch {
                    return .notAnswered   // answered in time: this is discarded
                }
                reports.isSuspended = false   // lets URLSession's report end the send, so the group can end
                return .notAnswered
            }
            defer { group.cancelAll() }
            return await group.next()!
        }
        reports.isSuspended = false   // URLSession's report comes now, and finds the caller answered
        #expect(outcome == .answered(.cancelled), "\(outcome)")
    }

    @Test func retriesAnIdempotentRequestUntilItSucceeds() async throws {
        let attempts = Counter()
        let server = try serve {
            $0.route(.get, "/flaky") { _ in
                attempts.increment()
                return attempts.value < 3 ? .status(503) : .text("ok")
            }
        }
        defer { server.stop() }
        let log = FakeLogController()
        let metaController = MetaController()
        metaController.logController = log
        let api = URLSessionApiController(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(1)))
        metaController.apiController = api
        let response = try await api.send(ApiRequest(.get, "/flaky"))
        #expect(response.body == Data("ok".utf8))
        #expect(attempts.value == 3)
        #expect(
            log.entries.filter { $0.level == .warning }.map(\.message) == [
                "GET /flaky failed with HTTP 503 (Service Unavailable); attempt 2 of 3 in 0.001 seconds",
                "GET /flaky failed with HTTP 503 (Service Unavailable); attempt 3 of 3 in 0.002 seconds",
            ])
    }

    @Test func doesNotRetryAPostOrGoPastTheLastAttempt() async throws {
        let attempts = Counter()
        let server = try serve {
            $0.route(.post, "/down") { _ in
                attempts.increment(); return .status(503)
            }
            $0.route(.get, "/down") { _ in
                attempts.increment(); return .status(503)
            }
        }
        defer { server.stop() }
        let api = URLSessionApiController(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(1)))
        _ = await expectError(.httpStatus) { try await api.send(ApiRequest(.post, "/down")) }
        #expect(attempts.value == 1)
        _ = await expectError(.httpStatus) { try await api.send(ApiRequest(.get, "/down")) }
        #expect(attempts.value == 3)
    }

    @Test func theAuthorizationHookAddsHeadersTheRequestDoesNotSet() async throws {
        let server = try serve { $0.route(.get, "/me", response: .status(200)) }
        defer { server.stop() }
        let api = URLSessionApiController(
            baseURL: server.baseURL,
            authorize: { _ in
                ["Authorization": "Bearer secret", "X-Client": "hook"]
            })
        _ = try await api.send(ApiRequest(.get, "/me", headers: ["X-Client": "request"]))
        let sent = try #require(server.requests.first)
        #expect(sent.header("Authorization") == "Bearer secret")
        #expect(sent.header("X-Client") == "request")
    }

    @Test func aThrowingAuthorizationHookFailsTheRequestBeforeSending() async throws {
        struct NoToken: Error {}
        let server = try serve { $0.route(.get, "/me", response: .status(200)) }
        defer { server.stop() }
        let api = URLSessionApiController(baseURL: server.baseURL, authorize: { _ in throw NoToken() })
        _ = await expectError(.authorization) { try await api.send(ApiRequest(.get, "/me")) }
        #expect(server.requests.isEmpty)
    }

    @Test func logsRequestsAndResponsesWithBodiesPrivateAndFailuresAsErrors() async throws {
        let server = try serve {
            $0.route(.post, "/items", response: .text("secret answer"))
            $0.route(.get, "/missing", response: .status(404))
        }
        defer { server.stop() }
        let log = FakeLogController()
        let metaController = MetaController()
        metaController.logController = log
        let api = URLSessionApiController(baseURL: server.baseURL)
        metaController.apiController = api
        _ = try await api.send(ApiRequest(.post, "/items", body: Data("secret question".utf8)))
        _ = try? await api.send(ApiRequest(.get, "/missing"))
        let text = log.entries.map(\.description).joined(separator: "\n")
        #expect(!text.contains("secret"))
        #expect(log.messages.contains("POST \(server.baseURL.absoluteString)/items body 15 bytes: <private>"))
        #expect(log.messages.contains { $0.hasPrefix("POST /items -> 200 in ") && $0.hasSuffix("13 bytes: <private>") })
        #expect(log.entries.filter { $0.level == .error }.map(\.message) == ["GET /missing failed with HTTP 404 (Not Found)"])
        #expect(log.entries.allSatisfy { $0.fileName == "URLSessionApiController.swift" })
    }

    @Test func logsBodiesWhenAsked() async throws {
        let server = try serve { $0.route(.get, "/items", response: .text("visible")) }
        defer { server.stop() }
        let log = FakeLogController()
        let metaController = MetaController()
        metaController.logController = log
        metaController.apiController = URLSessionApiController(baseURL: server.baseURL, logsBodies: true)
        _ = try await metaController.apiController?.send(ApiRequest(.get, "/items"))
        #expect(log.messages.contains { $0.hasSuffix("7 bytes: visible") })
    }
}
