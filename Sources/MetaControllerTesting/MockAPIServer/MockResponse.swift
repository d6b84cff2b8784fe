public import Foundation

/// What a ``MockAPIServer`` route answers: a status, headers and a body, or a
/// fault for testing how a client copes.
///
/// ```swift
/// server.route(.get, "/users/:id") { request in
///     .json(User(id: request.pathParameters["id"] ?? ""))
/// }
/// server.route(.get, "/broken", response: .raw(Data("not http".utf8)))
/// ```
///
/// An HTTP response carries `Content-Length`, and `Connection: keep-alive`
/// unless the request asked to close. A 1xx, 204 or 304 response ends with its
/// head: it is sent without `Content-Length` and without the ``body`` (RFC 9110,
/// sections 6.4.1, 8.6, 15.3.5 and 15.4.5). The faults, ``raw(_:)`` and
/// ``closeConnection``, end the connection; their ``statusCode``,
/// ``headers`` and ``body`` are not used.
public struct MockResponse: Sendable {
    enum Kind: Sendable {
        case http
        case raw(Data)
        case closeConnection
    }

    let kind: Kind

    /// The HTTP status code, from 100 to 599 (RFC 9110, section 15).
    ///
    /// A route declared with a response whose code is outside that range is refused (see
    /// ``MockAPIServer/route(_:_:delay:response:)``); a route's closure that answers one gets a
    /// 500 naming it in its place. Send any other status line with ``raw(_:)``.
    public var statusCode: Int
    /// Header fields; `Content-Length` and `Connection` are set by the server.
    public var headers: [String: String]
    /// The body; not sent for a 1xx, 204 or 304 status, nor in answer to `HEAD`.
    public var body: Data

    /// Creates a response from its parts.
    ///
    /// The static factories (``json(_:statusCode:encoder:)``, ``text(_:statusCode:)``,
    /// ``data(_:contentType:statusCode:)``, ``status(_:)``) cover most needs.
    ///
    /// ```swift
    /// MockResponse(statusCode: 429, headers: ["Retry-After": "1"], body: Data("slow down".utf8))
    /// ```
    ///
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(statusCode: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        kind = .http
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    private init(kind: Kind) {
        self.kind = kind
        statusCode = 0
        headers = [:]
        body = Data()
    }

    /// `value` encoded as JSON, with `Content-Type: application/json`.
    ///
    /// A value that does not encode gives a 500 whose body names the encoding error,
    /// so the test sees what went wrong.
    ///
    /// ```swift
    /// server.route(.get, "/items", response: .json([Item(id: 1)]))
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - statusCode: The status code.
    ///   - encoder: The encoder, for date or key strategies.
    /// - Returns: The response.
    public static func json(_ value: some Encodable, statusCode: Int = 200, encoder: JSONEncoder = JSONEncoder()) -> MockResponse {
        do {
            return MockResponse(
                statusCode: statusCode, headers: ["Content-Type": "application/json"], body: try encoder.encode(value))
        } catch {
            return .text("MockResponse.json could not encode \(type(of: value)): \(error)", statusCode: 500)
        }
    }

    /// `data` with a content type.
    ///
    /// ```swift
    /// server.route(.get, "/avatar.png", response: .data(pngBytes, contentType: "image/png"))
    /// ```
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - contentType: The `Content-Type` field.
    ///   - statusCode: The status code.
    /// - Returns: The response.
    public static func data(_ data: Data, contentType: String = "application/octet-stream", statusCode: Int = 200) -> MockResponse {
        MockResponse(statusCode: statusCode, headers: ["Content-Type": contentType], body: data)
    }

    /// `text` as UTF-8 plain text.
    ///
    /// ```swift
    /// server.route(.get, "/feed", response: .text("down for maintenance", statusCode: 503))
    /// ```
    ///
    /// - Parameters:
    ///   - text: The body.
    ///   - statusCode: The status code.
    /// - Returns: The response, with `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ text: String, statusCode: Int = 200) -> MockResponse {
        MockResponse(statusCode: statusCode, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// A status and no body.
    ///
    /// ```swift
    /// server.route(.delete, "/items/:id", response: .status(204))
    /// ```
    ///
    /// - Parameter statusCode: The status code.
    /// - Returns: The response.
    public static func status(_ statusCode: Int) -> MockResponse {
        MockResponse(statusCode: statusCode)
    }

    /// `bytes` sent as they are, in place of an HTTP response, then the connection closed:
    /// for testing a client against garbage or a response cut short.
    ///
    /// ```swift
    /// server.route(.get, "/garbage", response: .raw(Data("not http at all".utf8)))
    /// server.route(.get, "/cut", response: .raw(Data("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort".utf8)))
    /// ```
    ///
    /// - Parameter bytes: What to send.
    /// - Returns: The fault.
    public static func raw(_ bytes: Data) -> MockResponse {
        MockResponse(kind: .raw(bytes))
    }

    /// The connection closed without an answer, for testing a client against a server that hangs up.
    ///
    /// ```swift
    /// server.route(.get, "/hangup", response: .closeConnection)
    /// ```
    public static let closeConnection = MockResponse(kind: .closeConnection)

    /// The same response with one more header field.
    ///
    /// A field of the same name, in any case, is replaced. `Content-Length`
    /// and `Connection` are the server's to set and are not sent.
    ///
    /// ```swift
    /// server.route(.post, "/items", response: .status(201).header("Location", "/items/9"))
    /// ```
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    /// - Returns: The response with the field.
    public func header(_ name: String, _ value: String) -> MockResponse {
        var copy = self
        for existing in copy.headers.keys where existing.caseInsensitiveCompare(name) == .orderedSame {
            copy.headers[existing] = nil
        }
        copy.headers[name] = value
        return copy
    }
}
