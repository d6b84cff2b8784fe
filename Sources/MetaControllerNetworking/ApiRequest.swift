public import Foundation

/// One request to the app's server: method, path, query, headers and body.
///
/// The path is relative to the API controller's base URL. Build plain requests
/// with the initializer and JSON ones with ``init(_:_:query:headers:json:encoder:timeout:)``:
///
/// ```swift
/// let feed = ApiRequest(.get, "/feed", query: [URLQueryItem(name: "page", value: "2")])
/// let save = try ApiRequest(.post, "/items", json: NewItem(title: "Hello"))
/// let items = try await apiController.send(feed, decoding: [FeedItem].self)
/// ```
public struct ApiRequest: Sendable, Equatable, CustomStringConvertible {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path below the base URL, such as `/users/7`.
    public var path: String
    /// Query items, percent-encoded when sent (a `+` included).
    public var query: [URLQueryItem]
    /// Header fields to send, in addition to those the controller adds.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?
    /// How long the whole exchange may take before it fails with a timeout;
    /// `nil` uses the controller's default.
    public var timeout: Duration?
    /// Whether the request may be sent again after a failure. By default, the
    /// method decides (``HTTPMethod/isIdempotent``); set it for a `POST` that the
    /// server deduplicates, for example with an idempotency key.
    public var isIdempotent: Bool

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path below the base URL.
    ///   - query: Query items.
    ///   - headers: Header fields.
    ///   - body: The body.
    ///   - timeout: A limit for the whole exchange; `nil` for the controller's default.
    public init(
        _ method: HTTPMethod,
        _ path: String,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: Data? = nil,
        timeout: Duration? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
        isIdempotent = method.isIdempotent
    }

    /// Creates a request whose body is `json` encoded as JSON, with a
    /// `Content-Type: application/json` header.
    ///
    /// ```swift
    /// let request = try ApiRequest(.post, "/items", json: NewItem(title: "Hello"))
    /// ```
    ///
    /// - Throws: ``ApiError/Code/encoding`` when `json` cannot be encoded, naming the key path.
    public init(
        _ method: HTTPMethod,
        _ path: String,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        json: some Encodable,
        encoder: JSONEncoder = JSONEncoder(),
        timeout: Duration? = nil
    ) throws(ApiError) {
        self.init(method, path, query: query, headers: headers, timeout: timeout)
        do {
            body = try encoder.encode(json)
        } catch {
            throw ApiError.encoding(self, error)
        }
        if header("Content-Type") == nil { self.headers["Content-Type"] = "application/json" }
    }

    /// The value of a header field, matched without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The method and path: `GET /users/7`.
    public var description: String { "\(method) \(path)" }
}
