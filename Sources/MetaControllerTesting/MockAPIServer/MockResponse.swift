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
public struct MockResponse: Sendable {
    enum Kind: Sendable {
        case http
        case raw(Data)
        case closeConnection
    }

    let kind: Kind

    /// The HTTP status code.
    public var statusCode: Int
    /// Header fields; `Content-Length` and `Connection` are set by the server.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
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
    public static func json(_ value: some Encodable, statusCode: Int = 200, encoder: JSONEncoder = JSONEncoder()) -> MockResponse {
        do {
            return MockResponse(
                statusCode: statusCode, headers: ["Content-Type": "application/json"], body: try encoder.encode(value))
        } catch {
            return .text("MockResponse.json could not encode \(type(of: value)): \(error)", statusCode: 500)
        }
    }

    /// `data` with a content type.
    public static func data(_ data: Data, contentType: String = "application/octet-stream", statusCode: Int = 200) -> MockResponse {
        MockResponse(statusCode: statusCode, headers: ["Content-Type": contentType], body: data)
    }

    /// `text` as UTF-8 plain text.
    public static func text(_ text: String, statusCode: Int = 200) -> MockResponse {
        MockResponse(statusCode: statusCode, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// A status and no body.
    public static func status(_ statusCode: Int) -> MockResponse {
        MockResponse(statusCode: statusCode)
    }

    /// `bytes` sent as they are, in place of an HTTP response, then the connection closed:
    /// for testing a client against garbage or a response cut short.
    public static func raw(_ bytes: Data) -> MockResponse {
        MockResponse(kind: .raw(bytes))
    }

    /// The connection closed without an answer.
    public static let closeConnection = MockResponse(kind: .closeConnection)

    /// The same response with one more header field.
    public func header(_ name: String, _ value: String) -> MockResponse {
        var copy = self
        copy.headers[name] = value
        return copy
    }
}
