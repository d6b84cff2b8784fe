public import Foundation

/// What the server answered to an ``ApiRequest``: a status in 200...299, headers and body.
///
/// Other statuses arrive as ``ApiError/Code/httpStatus`` errors instead.
///
/// ```swift
/// let response = try await apiController.send(ApiRequest(.get, "/feed"))
/// let items = try response.decode([FeedItem].self)
/// ```
public struct ApiResponse: Sendable, Equatable {
    /// The request this answers.
    public var request: ApiRequest
    /// The HTTP status code.
    public var statusCode: Int
    /// The response's header fields.
    public var headers: [String: String]
    /// The body; empty when there is none.
    public var body: Data

    /// Creates a response, as a fake API controller or a test does.
    ///
    /// - Parameters:
    ///   - request: The request it answers.
    ///   - statusCode: The status; 200 by default.
    ///   - headers: Header fields.
    ///   - body: The body.
    public init(request: ApiRequest, statusCode: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        self.request = request
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The value of a header field, matched without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Decodes the body as JSON.
    ///
    /// - Throws: ``ApiError/Code/decoding``, naming the key path that failed.
    public func decode<Value: Decodable>(
        _ type: Value.Type = Value.self, decoder: JSONDecoder = JSONDecoder()
    ) throws(ApiError) -> Value {
        do {
            return try decoder.decode(type, from: body)
        } catch {
            throw ApiError.decoding(request, Value.self, error, body: body)
        }
    }
}
