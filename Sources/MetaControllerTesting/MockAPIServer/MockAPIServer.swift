public import Foundation
public import MetaControllerNetworking

/// A real HTTP/1.1 server for tests, on 127.0.0.1 and a port of its own, so
/// the real networking code runs against answers the test chooses.
///
/// Register routes, start the server, point the client at ``baseURL``, then
/// assert on what the client received and on what the server recorded in
/// ``requests``.
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
///   connected, mid-request or during a route's delay; so does `deinit`, which stops it.
/// - A route answers a method and a path pattern: literal segments, `:name`
///   parameters and a final `*` wildcard. When several routes match, the one
///   registered last wins, so a test can replace a default route.
/// - Every request is recorded (``requests``). One that no route matches is
///   answered 404 with a body naming it, and listed in ``unmatchedRequests``.
/// - Malformed requests get 400, heads over the limit 431, bodies over the
///   limit 413, unknown transfer encodings 501, other HTTP versions 505, a head
///   slower than ``Limits/headDeadline`` or a whole request slower than
///   ``Limits/requestDeadline`` 408; then the connection is closed.
///   Malformed, as RFC 9112 has it, includes a chunk extension or a trailer line
///   outside the grammar, an HTTP/1.1 request without `Host` or any with two, a
///   `Host` value that is not a host and an optional port (RFC 3986, section
///   3.2.2: `a b`, `x/y`, `a@b`, `[::1`, `x:port`), a request target with a byte
///   outside visible ASCII (raw UTF-8 such as `/items/é`: clients percent-encode it), an
///   HTTP/1.0 request with `Transfer-Encoding`, a bare CR in the head, and a path
///   that does not percent-decode to UTF-8, decodes to NUL, or climbs above the
///   root with `..`. A method with a lower-case letter (`get`) gets 501: methods
///   are case-sensitive. A bare LF ends a head line as CR LF does.
/// - An absolute-form target (`GET http://127.0.0.1:8080/ping`, what a client
///   sends a proxy) is accepted, as RFC 9112 (section 3.2.2) requires of a server:
///   it is routed by its path and query, ``RecordedRequest/target`` keeps it as
///   sent, and its authority stands in for the `Host` value the recorded request
///   shows. One with user information (`http://u@host/`) or no host gets 400.
///   Keep-alive, pipelining, chunked bodies and `Expect: 100-continue` (from
///   HTTP/1.1 clients) are supported. A connection silent for ``Limits/readTimeout`` mid-request, or
///   for ``Limits/idleTimeout`` between requests, is closed; one over
///   ``Limits/maximumConnections`` is answered 503 and closed.
/// - A response header whose name is not a token, or whose value holds a control
///   character other than the tab (CR, LF, NUL, ESC, DEL, ...), or a status code outside
///   100 to 599 (RFC 9110, section 15), is not sent: the request is answered 500 with a
///   body naming it. A 1xx, 204 or 304 answer is sent without `Content-Length` and
///   without a body (RFC 9110, sections 8.6, 15.3.5 and 15.4.5), and a `HEAD` answer
///   with `Content-Length` and without a body.
///
/// Every member may be called from any thread. Each connection is served on a
/// thread of its own, where the route's closure runs.
public final class MockAPIServer: Sendable {
    /// Size and time limits that protect the test process from bad clients.
    ///
    /// A request over a size limit is answered with an error status and its
    /// connection closed; the server carries on serving other connections.
    ///
    /// | Limit | Default | When it is reached |
    /// | --- | --- | --- |
    /// | ``maximumHeaderBytes`` | 16 KiB | 431, closed |
    /// | ``maximumBodyBytes`` | 1 MiB | 413, closed |
    /// | ``headDeadline`` | 10 s | 408, closed |
    /// | ``requestDeadline`` | 60 s | 408, closed |
    /// | ``readTimeout`` | 5 s | closed, unanswered |
    /// | ``idleTimeout`` | 5 s | closed, unanswered |
    /// | ``maximumConnections`` | 64 | 503 to the connection over it, closed |
    /// | ``maximumRetainedBodyBytes`` | `nil`: no cap | the oldest recorded bodies are dropped |
    ///
    /// ```swift
    /// let server = MockAPIServer(limits: .init(maximumBodyBytes: 1024, headDeadline: .milliseconds(200)))
    /// ```
    public struct Limits: Sendable, Equatable {
        /// The largest request head (request line and header fields), in bytes, together with
        /// the trailer fields of a chunked body; over it, 431.
        public var maximumHeaderBytes: Int
        /// The largest request body, in bytes, whether sized by `Content-Length` or chunked; over it, 413.
        ///
        /// For a chunked body, the bytes of its chunk extensions (from each `;` to the end of
        /// the chunk-size line) count too.
        public var maximumBodyBytes: Int
        /// How long a connection may stay silent while a request is under way (its first byte
        /// has arrived, its body has not arrived in full) before it is closed without an answer.
        public var readTimeout: Duration
        /// How long a request head may take to arrive in full, from its first byte (an empty
        /// line before a request line counts); then the server answers 408 and closes the connection.
        ///
        /// A client that trickles a head a byte at a time, never silent for ``readTimeout``,
        /// is dropped at this deadline.
        public var headDeadline: Duration
        /// How long a whole request, head and body, may take to arrive, from its first byte;
        /// then the server answers 408 and closes the connection.
        ///
        /// A client that trickles a body a byte at a time, never silent for ``readTimeout``,
        /// is dropped at this deadline. A request that waits for `100 Continue` counts that
        /// wait, which the server ends at once.
        public var requestDeadline: Duration
        /// How long a connection with no request under way (just opened, or kept alive after
        /// an answer) may wait for the first byte of a request before it is closed without an answer.
        public var idleTimeout: Duration
        /// The most connections served at once; a connection over it is answered
        /// `503 Service Unavailable` with `Connection: close` and closed at once, unread.
        public var maximumConnections: Int
        /// The most body bytes kept in the recorded requests, or `nil` for no cap.
        ///
        /// Recorded requests keep their bodies until ``MockAPIServer/removeAllRequests()``.
        /// Over this cap, the bodies of the oldest recorded requests are dropped, oldest first,
        /// until the bodies kept fit: such a request keeps its method, path, query and
        /// headers, its ``RecordedRequest/body`` becomes empty and its
        /// ``RecordedRequest/bodyWasDropped`` is `true`. A body bigger than the cap is
        /// handed to its route in full, then dropped from the record.
        public var maximumRetainedBodyBytes: Int?

        /// Creates limits; each default is in the table above.
        ///
        /// - Parameters:
        ///   - maximumHeaderBytes: The largest request head, with the trailers.
        ///   - maximumBodyBytes: The largest request body, with the chunk extensions.
        ///   - readTimeout: How long a connection may stay silent mid-request.
        ///   - headDeadline: How long a request head may take to arrive.
        ///   - requestDeadline: How long a whole request, head and body, may take to arrive.
        ///   - idleTimeout: How long a connection may wait for a request.
        ///   - maximumConnections: The most connections served at once.
        ///   - maximumRetainedBodyBytes: The most body bytes kept in recorded requests; `nil` for no cap.
        public init(
            maximumHeaderBytes: Int = 16 * 1024, maximumBodyBytes: Int = 1024 * 1024, readTimeout: Duration = .seconds(5),
            headDeadline: Duration = .seconds(10), idleTimeout: Duration = .seconds(5), maximumConnections: Int = 64,
            maximumRetainedBodyBytes: Int? = nil, requestDeadline: Duration = .seconds(60)
        ) {
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBodyBytes = maximumBodyBytes
            self.readTimeout = readTimeout
            self.headDeadline = headDeadline
            self.requestDeadline = requestDeadline
            self.idleTimeout = idleTimeout
            self.maximumConnections = maximumConnections
            self.maximumRetainedBodyBytes = maximumRetainedBodyBytes
        }
    }

    /// The limits this server enforces.
    public var limits: Limits { engine.limits }

    private let engine: ServerEngine

    /// Creates a stopped server; add routes, then ``start()`` it.
    ///
    /// Routes may be added before or after the server starts.
    ///
    /// - Parameter limits: The size and time limits to enforce.
    public init(limits: Limits = Limits()) {
        engine = ServerEngine(limits: limits)
    }

    /// Stops the server, as ``stop()`` does.
    deinit { engine.stop() }

    // MARK: - Lifecycle

    /// Starts listening on 127.0.0.1 and a port the system picks.
    ///
    /// The server accepts connections as soon as this returns. Calling it
    /// again, while running, does nothing.
    ///
    /// ```swift
    /// let server = MockAPIServer()
    /// try server.start()
    /// defer { server.stop() }
    /// ```
    ///
    /// - Throws: ``MockAPIServerError`` naming the system call that failed, or
    ///   ``MockAPIServerError/stopped`` once the server has been stopped: a
    ///   stopped server does not start again.
    public func start() throws(MockAPIServerError) {
        try engine.start()
    }

    /// Stops the server: closes the listening socket and every connection, and
    /// ends route delays at once.
    ///
    /// It returns when the server's threads are done, which is promptly, even
    /// with clients connected, mid-request or waiting on a delay; clients
    /// waiting for an answer see the connection closed. Afterwards nothing
    /// listens on ``port``. Calling it again does nothing. Called from inside a
    /// route's closure, it returns at once and the server finishes closing
    /// when that closure returns.
    public func stop() {
        engine.stop()
    }

    /// The port the server listens on; 0 before ``start()``.
    public var port: Int { engine.port }

    /// `http://127.0.0.1:PORT`, the base URL to give a client.
    ///
    /// Read it after ``start()``: before, the port in it is 0 and no client can connect.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    // MARK: - Routes

    /// Answers requests with `method` whose path matches `pattern` by calling `respond`.
    ///
    /// A pattern is a path whose segments are literals, `:name` parameters
    /// (one segment each), or a final `*` that matches the rest of the path
    /// (at least one segment). The values are in
    /// ``RecordedRequest/pathParameters``, the wildcard's under `"*"`. A request's
    /// path, without its query, is split into segments first, then each segment is
    /// percent-decoded, then dot segments (`.`, `..`, also as `%2e`) are removed, so
    /// `/items/a%2Fb` matches `/items/:id` with `id` `a/b`. The `*` never takes a
    /// segment that decodes to hold `/`, so its value cannot climb out with `..%2F`.
    /// Empty segments are ignored, so `/a//b/` matches `/a/b`. `OPTIONS *` matches no route.
    ///
    /// A malformed pattern is refused: one not starting with `/`, holding `?` or `#`,
    /// with a `*` that is not the whole last segment, a `:` without a name, two
    /// parameters of one name, or a `.` or `..` segment. The route is not added, the
    /// reason is listed in ``routeFaults``, and from then on **every request is
    /// answered 500** with that reason as its body, so the test that made the mistake fails
    /// and says why, rather than meeting a route that matches something else.
    ///
    /// When several routes match a request, **the one registered last wins**,
    /// so a test can override a broad route registered in its setup:
    ///
    /// ```swift
    /// server.route(.get, "/files/*") { request in
    ///     .text("file \(request.pathParameters["*"]!)")
    /// }
    /// server.route(.get, "/files/secret.txt", response: .status(403))   // wins for this path
    /// server.route(.get, "/slow", delay: .milliseconds(50), response: .text("late"))
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method to answer.
    ///   - pattern: The path pattern.
    ///   - delay: How long to wait before answering; the request is recorded
    ///     before the wait, and ``stop()`` ends it, closing the connection unanswered.
    ///   - respond: Makes the answer; runs on the connection's thread, outside any lock,
    ///     so it may read the server's ``requests``.
    public func route(
        _ method: HTTPMethod, _ pattern: String, delay: Duration = .zero,
        _ respond: @escaping @Sendable (RecordedRequest) -> MockResponse
    ) {
        do {
            engine.add(.init(method: method, pattern: try RoutePattern(pattern), delay: delay, respond: respond))
        } catch {
            engine.addRouteFault("the route \(method) \(pattern.debugDescription) is malformed: \(error.reason)")
        }
    }

    /// Answers requests with `method` whose path matches `pattern` with `response`.
    ///
    /// The same as ``route(_:_:delay:_:)`` with a closure that returns `response`. A
    /// `response` whose status code is outside 100 to 599 (RFC 9110, section 15) is refused
    /// here, as a malformed pattern is: the route is not added, the reason is listed in
    /// ``routeFaults`` (`the route GET "/odd" answers the status code 1000; a status code is
    /// from 100 to 599 …`), and every request is answered 500 with it. ``MockResponse/raw(_:)``
    /// sends any other status line.
    ///
    /// ```swift
    /// server.route(.get, "/health", response: .status(204))
    /// server.route(.get, "/broken", response: .raw(Data("not http".utf8)))
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method to answer.
    ///   - pattern: The path pattern.
    ///   - delay: How long to wait before answering.
    ///   - response: The answer.
    public func route(_ method: HTTPMethod, _ pattern: String, delay: Duration = .zero, response: MockResponse) {
        if case .http = response.kind, let fault = ServerEngine.statusFault(response.statusCode) {
            engine.addRouteFault("the route \(method) \(pattern.debugDescription) answers \(fault)")
            return
        }
        route(method, pattern, delay: delay) { _ in response }
    }

    /// Why each route given a malformed pattern, or a response with a status code outside 100
    /// to 599, was refused, oldest first; empty when none was.
    ///
    /// While it is not empty, every request is answered 500 with its first reason as the body,
    /// such as `the route GET "/files/*/raw" is malformed: its * is not its last segment`.
    ///
    /// ```swift
    /// #expect(server.routeFaults.isEmpty)
    /// ```
    public var routeFaults: [String] { engine.routeFaults }

    // MARK: - Recorded requests

    /// Every request received in full, oldest first, matched or not.
    ///
    /// A request is recorded before its route's delay and closure run. Requests
    /// refused as malformed or too large, and requests cut short by the client,
    /// are not recorded. Bodies are kept until ``removeAllRequests()``, or
    /// dropped, oldest first, over ``Limits/maximumRetainedBodyBytes``.
    ///
    /// ```swift
    /// let sent = try #require(server.requests.last)
    /// #expect(sent.header("Authorization") == "Bearer secret")
    /// ```
    public var requests: [RecordedRequest] { engine.requests }

    /// The requests no route matched, oldest first; each was answered 404, or 500 while
    /// a route with a malformed pattern is listed in ``routeFaults``.
    ///
    /// ```swift
    /// #expect(server.unmatchedRequests.isEmpty, "the client called an endpoint the test did not expect")
    /// ```
    public var unmatchedRequests: [RecordedRequest] { engine.unmatchedRequests }

    /// Forgets the requests recorded so far, matched and unmatched; the routes stay.
    public func removeAllRequests() {
        engine.removeAllRequests()
    }
}
