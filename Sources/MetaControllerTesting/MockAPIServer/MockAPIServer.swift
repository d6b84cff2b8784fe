import Dispatch
public import Foundation
public import MetaController

/// A real HTTP/1.1 server for tests, on 127.0.0.1 and a port of its own, so
/// the real networking code runs against answers the test chooses.
///
/// ```swift
/// let server = MockAPIServer()
/// server.route(.get, "/users/:id") { request in
///     .json(User(id: request.pathParameters["id"]!, name: "Ada"))
/// }
/// try server.start()
/// defer { server.stop() }
///
/// let api = URLSessionApiController(baseURL: server.baseURL)
/// let user = try await api.get("/users/7", decoding: User.self)
/// #expect(server.requests.map(\.path) == ["/users/7"])
/// ```
///
/// - It listens on 127.0.0.1 only, on a port the system picks; it is ready when
///   ``start()`` returns. ``stop()`` returns promptly even with clients
///   connected, mid-request or during a route's delay.
/// - A route answers a method and a path pattern: literal segments, `:name`
///   parameters and a final `*` wildcard. When several routes match, the one
///   registered last wins, so a test can replace a default route.
/// - Every request is recorded (``requests``). One that no route matches is
///   answered 404 with a body naming it, and listed in ``unmatchedRequests``.
/// - Malformed requests get 400, heads over the limit 431, bodies over the
///   limit 413, unknown transfer encodings 501, other HTTP versions 505; then
///   the connection is closed. Keep-alive, pipelining, chunked bodies and
///   `Expect: 100-continue` are supported; idle connections are closed after
///   ``Limits/readTimeout``.
public final class MockAPIServer: Sendable {
    /// Size and time limits that protect the test process from bad clients.
    public struct Limits: Sendable, Equatable {
        /// The largest request head (request line and header fields); over it, 431.
        public var maximumHeaderBytes: Int
        /// The largest request body; over it, 413.
        public var maximumBodyBytes: Int
        /// How long a connection may stay silent before it is closed.
        public var readTimeout: Duration

        /// Creates limits: 16 KiB of head, 1 MiB of body and 5 seconds of silence by default.
        public init(maximumHeaderBytes: Int = 16 * 1024, maximumBodyBytes: Int = 1024 * 1024, readTimeout: Duration = .seconds(5)) {
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBodyBytes = maximumBodyBytes
            self.readTimeout = readTimeout
        }
    }

    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let delay: Duration
        let respond: @Sendable (RecordedRequest) -> MockResponse
    }

    private struct State: Sendable {
        var listener: Int32?
        var wake: (read: Int32, write: Int32)?
        var port = 0
        var isStarting = false
        var isStopped = false
        var routes: [Route] = []
        var requests: [RecordedRequest] = []
        var unmatchedRequests: [RecordedRequest] = []
        var connections: Set<Int32> = []
    }

    /// The limits this server enforces.
    public let limits: Limits

    private let state = Lock(State())
    private let threads = DispatchGroup()

    /// Creates a stopped server; add routes, then ``start()`` it.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    deinit { stop() }

    // MARK: - Lifecycle

    /// Starts listening on 127.0.0.1 and a port the system picks. Calling it again does nothing.
    ///
    /// - Throws: ``MockAPIServerError`` naming the step that failed; a stopped
    ///   server cannot start again.
    public func start() throws(MockAPIServerError) {
        enum Phase { case ready, running, stopped }
        let phase: Phase = state.withLock { state in
            if state.isStopped { return .stopped }
            if state.isStarting { return .running }
            state.isStarting = true
            return .ready
        }
        switch phase {
        case .stopped: throw MockAPIServerError(step: "start a stopped server", errno: EINVAL)
        case .running: return
        case .ready: break
        }
        let listener: Int32, port: Int, wake: (read: Int32, write: Int32)
        do throws(MockAPIServerError) {
            (listener, port) = try Socket.listenOnLoopback()
            do throws(MockAPIServerError) {
                wake = try Socket.makeWakePipe()
            } catch {
                Socket.close(listener)
                throw error
            }
        } catch {
            state.withLock { $0.isStarting = false }
            throw error
        }
        state.withLock { state in
            state.listener = listener
            state.wake = wake
            state.port = port
        }
        spawn { self.acceptConnections(on: listener, wake: wake.read) }
    }

    /// Stops the server: closes the listening socket and every connection, and
    /// ends route delays at once. Returns when its threads are done; calling it again does nothing.
    public func stop() {
        let running: (listener: Int32, wake: (read: Int32, write: Int32))? = state.withLock { state in
            guard !state.isStopped else { return nil }
            state.isStopped = true
            for connection in state.connections { Socket.shutdownBoth(connection) }
            guard let listener = state.listener, let wake = state.wake else { return nil }
            return (listener, wake)
        }
        guard let running else { return }
        Socket.signal(running.wake.write)
        // Threads end within one poll; the bound is a guard against a bug, not a wait for work.
        _ = threads.wait(timeout: .now() + 10)
        Socket.close(running.listener)
        Socket.close(running.wake.write)
        Socket.close(running.wake.read)
    }

    /// The port the server listens on; 0 before ``start()``.
    public var port: Int { state.withLock { $0.port } }

    /// `http://127.0.0.1:PORT`, the base URL to give a client.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    // MARK: - Routes

    /// Answers requests with `method` whose path matches `pattern` by calling `respond`.
    ///
    /// Patterns are paths whose segments are literals, `:name` parameters, or a
    /// final `*` that matches the rest (at least one segment). When several
    /// routes match, the one registered last wins.
    ///
    /// ```swift
    /// server.route(.get, "/files/*", delay: .milliseconds(50)) { request in
    ///     .text("file \(request.pathParameters["*"]!)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method to answer.
    ///   - pattern: The path pattern.
    ///   - delay: How long to wait before answering; `stop()` ends the wait.
    ///   - respond: Makes the answer; runs on the connection's thread.
    public func route(
        _ method: HTTPMethod, _ pattern: String, delay: Duration = .zero,
        _ respond: @escaping @Sendable (RecordedRequest) -> MockResponse
    ) {
        let route = Route(method: method, pattern: RoutePattern(pattern), delay: delay, respond: respond)
        state.withLock { $0.routes.append(route) }
    }

    /// Answers requests with `method` whose path matches `pattern` with `response`.
    ///
    /// ```swift
    /// server.route(.get, "/health", response: .status(204))
    /// ```
    public func route(_ method: HTTPMethod, _ pattern: String, delay: Duration = .zero, response: MockResponse) {
        route(method, pattern, delay: delay) { _ in response }
    }

    // MARK: - Recorded requests

    /// Every request received in full, oldest first, matched or not.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// The requests no route matched, oldest first.
    public var unmatchedRequests: [RecordedRequest] { state.withLock { $0.unmatchedRequests } }

    /// Forgets the requests recorded so far; the routes stay.
    public func removeAllRequests() {
        state.withLock { state in
            state.requests.removeAll()
            state.unmatchedRequests.removeAll()
        }
    }

    // MARK: - Threads

    private func spawn(_ body: @escaping @Sendable () -> Void) {
        threads.enter()
        let thread = Thread { [threads] in
            body()
            threads.leave()
        }
        thread.start()
    }

    private func acceptConnections(on listener: Int32, wake: Int32) {
        while Socket.wait(for: listener, orWake: wake, milliseconds: -1) == .readable {
            guard let connection = Socket.accept(on: listener) else { continue }
            let admitted = state.withLock { state in
                guard !state.isStopped else { return false }
                state.connections.insert(connection)
                return true
            }
            guard admitted else {
                Socket.close(connection)
                return
            }
            spawn { self.serve(connection, wake: wake) }
        }
    }

    private func serve(_ connection: Int32, wake: Int32) {
        defer {
            state.withLock { _ = $0.connections.remove(connection) }
            Socket.close(connection)
        }
        var parser = HTTPRequestParser(limits: .init(
            maximumHeaderBytes: limits.maximumHeaderBytes, maximumBodyBytes: limits.maximumBodyBytes))
        let timeout = Int32(clamping: limits.readTimeout.components.seconds * 1000
            + limits.readTimeout.components.attoseconds / 1_000_000_000_000_000)
        while true {
            // Answer every whole request that has arrived, then read more.
            do {
                while let request = try parser.next() {
                    guard answer(request, on: connection, wake: wake) else { return }
                }
                if parser.takeContinueRequest() {
                    guard Socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: connection) else { return }
                }
            } catch {
                let body = Array(error.reason.utf8)
                let head = "HTTP/1.1 \(error.statusCode) \(httpReasonPhrase(error.statusCode))\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                Socket.write(Array(head.utf8) + body, to: connection)
                return
            }
            guard Socket.wait(for: connection, orWake: wake, milliseconds: max(1, timeout)) == .readable else { return }
            let bytes = Socket.read(from: connection)
            guard !bytes.isEmpty else { return }   // the client closed, perhaps mid-request
            parser.append(bytes)
        }
    }

    /// Answers one request. - Returns: Whether the connection stays open.
    private func answer(_ parsed: HTTPRequestParser.Request, on connection: Int32, wake: Int32) -> Bool {
        guard var request = RecordedRequest(parsed) else {
            let body = Array("malformed request target".utf8)
            let head = "HTTP/1.1 400 Bad Request\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            Socket.write(Array(head.utf8) + body, to: connection)
            return false
        }
        let matched: (Route, [String: String])? = state.withLock { state in
            for route in state.routes.reversed() where route.method == request.method {
                if let parameters = route.pattern.match(request.path) { return (route, parameters) }
            }
            return nil
        }
        let response: MockResponse
        if let (route, parameters) = matched {
            request.pathParameters = parameters
            state.withLock { $0.requests.append(request) }
            if route.delay > .zero {
                let milliseconds = Int32(clamping: route.delay.components.seconds * 1000
                    + route.delay.components.attoseconds / 1_000_000_000_000_000)
                if Socket.wait(for: wake, orWake: wake, milliseconds: max(1, milliseconds)) != .timedOut { return false }
            }
            response = route.respond(request)
        } else {
            state.withLock { state in
                state.requests.append(request)
                state.unmatchedRequests.append(request)
            }
            response = .text("no route for \(request.method) \(request.path)", statusCode: 404)
        }
        switch response.kind {
        case .closeConnection:
            return false
        case .raw(let bytes):
            Socket.write(Array(bytes), to: connection)
            return false
        case .http:
            let keepAlive = parsed.keepsAlive
            var head = "HTTP/1.1 \(response.statusCode) \(httpReasonPhrase(response.statusCode))\r\n"
            for (name, value) in response.headers.sorted(by: { $0.key < $1.key })
            where !["content-length", "connection"].contains(name.lowercased()) {
                head += "\(name): \(value)\r\n"
            }
            let body = parsed.method == "HEAD" ? [] : Array(response.body)
            head += "Content-Length: \(response.body.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
            return Socket.write(Array(head.utf8) + body, to: connection) && keepAlive
        }
    }
}
