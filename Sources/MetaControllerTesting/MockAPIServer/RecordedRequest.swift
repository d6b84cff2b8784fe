public import Foundation
public import MetaControllerNetworking

/// A request a ``MockAPIServer`` received, for a test to assert on what the client sent.
///
/// The server records every request it receives in full, in
/// ``MockAPIServer/requests``, and hands it to the route that answers it.
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
    /// The request target exactly as the client sent it, encoded, with the query:
    /// `/users/a%20b?x=1`, or `*` for `OPTIONS *`.
    public let target: String
    /// The path without the query, each segment percent-decoded, with its dot segments removed:
    /// `/users/a b` for `/users/a%20b?x=1`, `/b` for `/a/../b` or `/a/%2e%2e/b`; `*` for `OPTIONS *`.
    ///
    /// An encoded slash reads as a slash here (`/items/a/b` for `/items/a%2Fb`), though the
    /// route saw `a/b` as one segment; ``target`` keeps the difference.
    public let path: String
    /// The query items, percent-decoded, in order; a `+` stays a `+`.
    public let query: [URLQueryItem]
    /// The header fields, in the order they arrived.
    public let headers: [(name: String, value: String)]
    /// The body; empty when there is none, or when it was dropped (``bodyWasDropped``).
    public internal(set) var body: Data
    /// Whether the server dropped the body from its record to stay under
    /// ``MockAPIServer/Limits/maximumRetainedBodyBytes``; ``body`` is then empty.
    ///
    /// The route that answered the request saw the body in full.
    public internal(set) var bodyWasDropped = false
    /// The values of the route's `:name` segments and its `*` wildcard (under `"*"`).
    public internal(set) var pathParameters: [String: String]
    /// Whether a route answered it; `false` for those in ``MockAPIServer/unmatchedRequests``.
    var wasMatched = true

    /// The value of the first header field named `name`, without regard to case.
    ///
    /// ```swift
    /// #expect(request.header("content-type") == "application/json")
    /// ```
    ///
    /// - Parameter name: The field name, in any case.
    /// - Returns: The field's value, or `nil` when the request has no such field.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The first value of the query item named `name`.
    ///
    /// ```swift
    /// // GET /search?q=swift&page=2
    /// #expect(request.queryValue("page") == "2")
    /// ```
    ///
    /// - Parameter name: The item's name, compared exactly.
    /// - Returns: The item's decoded value, or `nil` when there is no such item or it has no value.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Decodes the body as JSON.
    ///
    /// ```swift
    /// #expect(try request.decodeJSON(NewItem.self) == NewItem(title: "Hello"))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder to use.
    /// - Returns: The decoded value.
    /// - Throws: The decoder's `DecodingError` when the body is not that JSON.
    public func decodeJSON<Value: Decodable>(_ type: Value.Type, decoder: JSONDecoder = JSONDecoder()) throws -> Value {
        try decoder.decode(type, from: body)
    }

    /// Forgets the body, keeping the rest.
    mutating func dropBody() {
        body = Data()
        bodyWasDropped = true
    }

    /// The decoded path segments routes are matched against, empty ones left out; empty for `OPTIONS *`.
    let matchedSegments: [String]

    /// Builds a recorded request from a parsed one. - Throws: Why its target has no valid path.
    init(_ request: HTTPRequestParser.Request) throws(RequestPath.Fault) {
        method = HTTPMethod(rawValue: request.method)
        target = request.sentTarget
        if request.target == "*" {   // OPTIONS * asks about the server as a whole; never routed
            path = "*"
            query = []
            matchedSegments = []
        } else {
            let rawPath = request.target.prefix { $0 != "?" }
            let requestPath = try RequestPath(rawPath)
            guard let components = URLComponents(string: "http://localhost" + request.target) else { throw .malformed }
            path = requestPath.path
            matchedSegments = requestPath.matchedSegments
            query = components.queryItems ?? []
        }
        headers = request.headers
        body = Data(request.body)
        pathParameters = [:]
    }
}
