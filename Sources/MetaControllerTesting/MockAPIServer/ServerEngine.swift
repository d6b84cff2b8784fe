#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import MetaControllerCore
import MetaControllerLogging
import MetaControllerNetworking
import MetaControllerStorage
import MetaControllerLocation
import MetaControllerNotifications
import MetaControllerSupport

/// The running part of a ``MockAPIServer``: its state, its threads, and the
/// HTTP exchange on each connection.
///
/// The server's threads hold the engine, never the ``MockAPIServer`` itself,
/// so a server a test forgets to stop still reaches its `deinit`, which stops
/// the engine.
final class ServerEngine: Sendable {
    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let delay: Duration
        let respond: @Sendable (RecordedRequest) -> MockResponse
    }

    private struct Running: Sendable {
        let listener: Int32
        let wake: (read: Int32, write: Int32)
    }

    private struct State: Sendable {
        var running: Running?
        var port = 0
        var isStarting = false
        var isStopped = false
        var routes: [Route] = []
        /// Why each route given a malformed pattern was refused; while any is, every request is answered 500.
        var routeFaults: [String] = []
        var requests: [RecordedRequest] = []
        /// The body bytes kept in `requests`, and the first of them whose body may still be kept.
        var retainedBodyBytes = 0
        var firstRetainedBody = 0
        var connections: Set<Int32> = []
        /// The threads serving now, so `stop()` called from a route does not wait for itself.
        var threadIDs: Set<UInt> = []
    }

    let limits: MockAPIServer.Limits
    private let state = Lock(State())
    private let threads = DispatchGroup()

    init(limits: MockAPIServer.Limits) {
        self.limits = limits
    }

    // MARK: - Lifecycle

    func start() throws(MockAPIServerError) {
        enum Phase { case ready, alreadyStarted, stopped }
        let phase: Phase = state.withLock { state in
            if state.isStopped { return .stopped }
            if state.isStarting { return .alreadyStarted }
            state.isStarting = true
            return .ready
        }
        switch phase {
        case .stopped: throw .stopped
        case .alreadyStarted: return
        case .ready: break
        }
        let running: Running, port: Int
        do throws(MockAPIServerError) {
            let (listener, boundPort) = try Socket.listenOnLoopback()
            do throws(MockAPIServerError) {
                running = Running(listener: listener, wake: try Socket.makeWakePipe())
                port = boundPort
            } catch {
                Socket.close(listener)
                throw error
            }
        } catch {
            state.withLock { $0.isStarting = false }
            throw error
        }
        // `stop()` may have run while the socket was made; then nothing may start.
        let admitted = state.withLock { state in
            guard !state.isStopped else { return false }
            state.running = running
            state.port = port
            threads.enter()   // before `stop()` can see `running`, so its wait includes this thread
            return true
        }
        guard admitted else {
            Socket.close(running.listener)
            Socket.close(running.wake.read)
            Socket.close(running.wake.write)
            throw .stopped
        }
        startThread { self.acceptConnections(on: running.listener, wake: running.wake.read) }
    }

    func stop() {
        let found: (running: Running?, onServerThread: Bool)? = state.withLock { state in
            guard !state.isStopped else { return nil }
            state.isStopped = true
            for connection in state.connections { Socket.shutdownBoth(connection) }
            return (state.running, state.threadIDs.contains(currentThreadID()))
        }
        guard let found, let running = found.running else { return }
        Socket.signal(running.wake.write)
        let closeDescriptors: @Sendable () -> Void = {
            Socket.close(running.listener)
            Socket.close(running.wake.write)
            Socket.close(running.wake.read)
        }
        // Threads end within one poll, once they see the wake pipe. From a route's
        // closure, or if a route's closure never returns, the descriptors are closed
        // when the last thread has gone, so none is reused under a thread still polling it.
        if !found.onServerThread, threads.wait(timeout: .now() + 10) == .success {
            closeDescriptors()
        } else {
            threads.notify(queue: .global(), execute: closeDescriptors)
        }
    }

    var port: Int { state.withLock { $0.port } }

    // MARK: - Routes and records

    func add(_ route: Route) {
        state.withLock { $0.routes.append(route) }
    }

    /// Notes a route refused for its malformed pattern.
    func addRouteFault(_ fault: String) {
        state.withLock { $0.routeFaults.append(fault) }
    }

    var routeFaults: [String] { state.withLock { $0.routeFaults } }

    var requests: [RecordedRequest] { state.withLock { $0.requests } }

    var unmatchedRequests: [RecordedRequest] { state.withLock { $0.requests }.filter { !$0.wasMatched } }

    func removeAllRequests() {
        state.withLock { state in
            state.requests.removeAll()
            state.retainedBodyBytes = 0
            state.firstRetainedBody = 0
        }
    }

    /// Records `request`, then drops the oldest bodies over ``MockAPIServer/Limits/maximumRetainedBodyBytes``.
    private func record(_ request: RecordedRequest) {
        state.withLock { state in
            var request = request
            if let cap = limits.maximumRetainedBodyBytes, request.body.count > cap {
                request.dropBody()   // it could never be kept; the others stay
            }
            state.requests.append(request)
            state.retainedBodyBytes += request.body.count
            guard let cap = limits.maximumRetainedBodyBytes else { return }
            while state.retainedBodyBytes > cap, state.firstRetainedBody < state.requests.count {
                state.retainedBodyBytes -= state.requests[state.firstRetainedBody].body.count
                state.requests[state.firstRetainedBody].dropBody()
                state.firstRetainedBody += 1
            }
        }
    }

    // MARK: - Threads

    /// Runs `body` on a new thread; the caller has entered `threads` for it.
    private func startThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [state, threads] in
            let id = currentThreadID()
            state.withLock { _ = $0.threadIDs.insert(id) }
            body()
            state.withLock { _ = $0.threadIDs.remove(id) }
            threads.leave()
        }
        thread.start()
    }

    private func acceptConnections(on listener: Int32, wake: Int32) {
        while Socket.wait(for: listener, orWake: wake, milliseconds: -1) == .readable {
            guard let connection = Socket.accept(on: listener) else {
                // Out of descriptors, say: try again shortly rather than spin.
                if Socket.wait(for: wake, orWake: wake, milliseconds: 10) != .timedOut { return }
                continue
            }
            enum Admission { case admitted, overCap, stopped }
            let admission: Admission = state.withLock { state in
                guard !state.isStopped else { return .stopped }
                guard state.connections.count < limits.maximumConnections else { return .overCap }
                state.connections.insert(connection)
                threads.enter()
                return .admitted
            }
            switch admission {
            case .stopped:
                Socket.close(connection)
                return
            case .overCap:
                // Answered at once, unread, so a client over the cap hears why rather than hangs.
                refuse(
                    statusCode: 503, reason: "the server already serves its maximum of \(limits.maximumConnections) connections",
                    on: connection)
                Socket.close(connection)
            case .admitted:
                startThread { self.serve(connection, wake: wake) }
            }
        }
    }

    private func serve(_ connection: Int32, wake: Int32) {
        defer {
            state.withLock { _ = $0.connections.remove(connection) }
            Socket.close(connection)
        }
        var parser = HTTPRequestParser(
            limits: .init(
                maximumHeaderBytes: limits.maximumHeaderBytes, maximumBodyBytes: limits.maximumBodyBytes))
        let clock = ContinuousClock()
        // When the first byte of the head awaited arrived; `nil` while no head is under way.
        var headStarted: ContinuousClock.Instant?
        // When the first byte of the request under way arrived, head or body; `nil` while none is.
        var requestStarted: ContinuousClock.Instant?
        while true {
            // Answer every whole request that has arrived, then read more.
            do {
                var answered = false
                while let request = try parser.next() {
                    guard answer(request, on: connection, wake: wake) else { return }
                    answered = true
                }
                if answered { requestStarted = parser.hasBufferedBytes ? clock.now : nil }
                if !parser.isAwaitingHead {
                    headStarted = nil   // a body is awaited: the read timeout and the request's deadline apply
                } else if answered {
                    headStarted = requestStarted
                }
                if parser.takeContinueRequest() {
                    guard Socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: connection) else { return }
                }
            } catch {
                refuse(statusCode: error.statusCode, reason: error.reason, on: connection)
                return
            }
            // The 408 reason once the head's deadline or the whole request's has passed.
            func deadlinePassed() -> String? {
                if let headStarted, clock.now - headStarted >= limits.headDeadline {
                    return "the request head did not arrive within \(limits.headDeadline)"
                }
                // A body trickled a byte at a time, never silent for the read timeout, ends here.
                if let requestStarted, clock.now - requestStarted >= limits.requestDeadline {
                    return "the request did not arrive in full within \(limits.requestDeadline)"
                }
                return nil
            }
            if let reason = deadlinePassed() {
                refuse(statusCode: 408, reason: reason, on: connection)
                return
            }
            var timeout = limits.readTimeout
            if let requestStarted { timeout = min(timeout, limits.requestDeadline - (clock.now - requestStarted)) }
            if let headStarted {
                timeout = min(timeout, limits.headDeadline - (clock.now - headStarted))
            } else if parser.isAwaitingHead {
                timeout = limits.idleTimeout
            }
            switch Socket.wait(for: connection, orWake: wake, milliseconds: timeout.pollMilliseconds) {
            case .readable:
                break
            case .timedOut:
                // At a deadline, 408; after the read or idle timeout, closed without an answer.
                if let reason = deadlinePassed() { refuse(statusCode: 408, reason: reason, on: connection) }
                return
            case .stopped:
                return
            }
            let bytes = Socket.read(from: connection)
            guard !bytes.isEmpty else { return }   // the client closed, perhaps mid-request
            if headStarted == nil, parser.isAwaitingHead { headStarted = clock.now }
            if requestStarted == nil { requestStarted = headStarted ?? clock.now }
            parser.append(bytes)
        }
    }

    /// Answers `statusCode` with `reason` as the body, before the connection is closed.
    private func refuse(statusCode: Int, reason: String, on connection: Int32) {
        let body = Array(reason.utf8)
        let head =
            "HTTP/1.1 \(statusCode) \(httpReasonPhrase(statusCode))\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        Socket.write(Array(head.utf8) + body, to: connection)
    }

    /// Answers one request. - Returns: Whether the connection stays open.
    private func answer(_ parsed: HTTPRequestParser.Request, on connection: Int32, wake: Int32) -> Bool {
        var request: RecordedRequest
        do {
            request = try RecordedRequest(parsed)
        } catch {
            refuse(statusCode: 400, reason: "\(error.reason): \(parsed.target.prefix(80))", on: connection)
            return false
        }
        let (matched, routeFault): ((route: Route, parameters: [String: String])?, String?) = state.withLock { state in
            if let fault = state.routeFaults.first { return (nil, fault) }
            // The asterisk form (OPTIONS *) names no path: no route matches it.
            guard request.path != "*" else { return (nil, nil) }
            for route in state.routes.reversed() where route.method == request.method {
                if let parameters = route.pattern.match(segments: request.matchedSegments) { return ((route, parameters), nil) }
            }
            return (nil, nil)
        }
        let response: MockResponse
        if let routeFault {
            request.wasMatched = false
            record(request)
            response = .text(routeFault, statusCode: 500)
        } else if let matched {
            request.pathParameters = matched.parameters
            record(request)
            // The delay ends early, without an answer, when the server stops.
            if matched.route.delay > .zero,
                Socket.wait(for: wake, orWake: wake, milliseconds: matched.route.delay.pollMilliseconds) != .timedOut
            {
                return false
            }
            response = matched.route.respond(request)
        } else {
            request.wasMatched = false
            record(request)
            response = .text("no route for \(request.method) \(request.path)", statusCode: 404)
        }
        switch response.kind {
        case .closeConnection:
            return false
        case .raw(let bytes):
            Socket.write(Array(bytes), to: connection)
            return false
        case .http:
            // A status or a header that would break the head is not sent: the test sees why instead.
            let fault = Self.statusFault(response.statusCode).map { "the route answered \($0)" } ?? Self.headerFault(in: response)
            let sent = fault.map { MockResponse.text($0, statusCode: 500) } ?? response
            let keepAlive = parsed.keepsAlive
            var head = "HTTP/1.1 \(sent.statusCode) \(httpReasonPhrase(sent.statusCode))\r\n"
            for (name, value) in sent.headers.sorted(by: { $0.key < $1.key })
            where !["content-length", "connection"].contains(name.lowercased()) {
                head += "\(name): \(value)\r\n"
            }
            // A 1xx, 204 or 304 answer ends with its head: a Content-Length or a body there would be
            // read as the start of the next answer on the connection.
            let hasContent = Self.hasContent(statusCode: sent.statusCode)
            if hasContent { head += "Content-Length: \(sent.body.count)\r\n" }
            head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
            let body = parsed.method == "HEAD" || !hasContent ? [] : Array(sent.body)
            return Socket.write(Array(head.utf8) + body, to: connection) && keepAlive
        }
    }
}

extension ServerEngine {
    /// The status codes a route may answer: RFC 9110, section 15, "All valid status codes are
    /// within the range of 100 to 599, inclusive".
    static let statusCodes = 100...599

    /// Why `statusCode` cannot be sent (`the status code 600; a status code is from 100 to 599 …`,
    /// for "the route answers …"), or `nil` when it can.
    static func statusFault(_ statusCode: Int) -> String? {
        guard !statusCodes.contains(statusCode) else { return nil }
        return "the status code \(statusCode); a status code is from 100 to 599 (RFC 9110, section 15): send other bytes with MockResponse.raw(_:)"
    }

    /// Whether an answer with `statusCode` carries content, and so `Content-Length`: 1xx
    /// (informational), 204 (No Content) and 304 (Not Modified) never do (RFC 9110, sections 6.4.1,
    /// 8.6, 15.3.5 and 15.4.5: a server MUST NOT send `Content-Length` in a 1xx or 204 answer).
    static func hasContent(statusCode: Int) -> Bool {
        statusCode >= 200 && statusCode != 204 && statusCode != 304
    }

    /// Why `response`'s header fields cannot be sent as they are, or `nil` when they can.
    ///
    /// Bytes are checked, not `Character`s: Swift counts "\r\n" as one character. A name
    /// must be a token; a value must hold no control character but the tab (RFC 9110, section
    /// 5.5: visible characters, spaces, tabs and bytes from 0x80): CR, LF or NUL could end
    /// the field and add others, and ESC or DEL reach a client's terminal or log as they are.
    static func headerFault(in response: MockResponse) -> String? {
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key })
        where !["content-length", "connection"].contains(name.lowercased()) {   // the server's own, never sent
            if name.utf8.isEmpty || !name.utf8.allSatisfy(isHTTPTokenByte) {
                return "the route's response header \(name.debugDescription) has a byte not allowed in a field name"
            }
            if value.utf8.contains(where: { $0 < 32 && $0 != 9 || $0 == 127 }) {
                return "the route's response header \(name.debugDescription) has a control character in its value: \(value.debugDescription)"
            }
        }
        return nil
    }
}

extension Duration {
    /// The duration in whole milliseconds for `poll`, rounded up so a wait is never
    /// shorter than asked, at least 1 and at most `Int32.max`.
    fileprivate var pollMilliseconds: Int32 {
        let (seconds, attoseconds) = components
        guard seconds < Int64(Int32.max) / 1000 else { return .max }
        let (milliseconds, rest) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000)
        return max(1, Int32(clamping: seconds * 1000 + milliseconds + (rest > 0 ? 1 : 0)))
    }
}

/// An identifier of the calling thread, unique among the threads alive.
private func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
