public import Foundation
public import MetaController

/// A request a ``MockAPIServer`` received, for a test to assert on what the client sent.
///
/// ```swift
/// let sent = try #require(server.requests.last)
/// #expect(sent.method == .post)
/// #expect(sent.path == "/items")
/// #expect(sent.header("content-type") == "application/json")
/// #expect(try sent.decodeJSON(NewItem.self) == NewItem(title: "Hello"))
/// ```
public struct RecordedRequest: Sendable {
    /// The method.
    public let method: HTTPMethod
    /// The path, percent-decoded, without the query.
    public let path: String
    /// The query items, percent-decoded, in order.
    public let query: [URLQueryItem]
    /// The header fields, in the order they arrived.
    public let headers: [(name: String, value: String)]
    /// The body; empty when there is none.
    public let body: Data
    /// The values of the route's `:name` segments and its `*` wildcard (under `"*"`).
    public internal(set) var pathParameters: [String: String]

    /// The value of the first header field named `name`, without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The first value of the query item named `name`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Decodes the body as JSON.
    public func decodeJSON<Value: Decodable>(_ type: Value.Type, decoder: JSONDecoder = JSONDecoder()) throws -> Value {
        try decoder.decode(type, from: body)
    }

    /// Builds a recorded request from a parsed one; `nil` when its target has no valid path.
    init?(_ request: HTTPRequestParser.Request) {
        guard let components = URLComponents(string: "http://localhost" + request.target) else { return nil }
        method = HTTPMethod(rawValue: request.method)
        path = components.path
        query = components.queryItems ?? []
        headers = request.headers
        body = Data(request.body)
        pathParameters = [:]
    }
}
