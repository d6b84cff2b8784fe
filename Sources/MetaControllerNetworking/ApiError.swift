import MetaControllerCore
import MetaControllerSupport
public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An error from an ``ApiController``, telling apart what went wrong with a request.
///
/// Match on ``code``; print the error for a sentence naming the request and the cause:
///
/// ```swift
/// do {
///     let items = try await apiController.send(ApiRequest(.get, "/feed"), decoding: [FeedItem].self)
/// } catch let error where error.code == .httpStatus && error.statusCode == 401 {
///     signIn()
/// } catch {
///     errorLog("\(error)")   // GET /feed failed with HTTP 503 (Service Unavailable)
/// }
/// ```
public struct ApiError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The request did not reach the server, or the answer did not come back:
        /// no connection, the connection dropped, a malformed answer.
        public static let transport = Code(name: "transport")
        /// The exchange took longer than the request's timeout.
        public static let timeout = Code(name: "timeout")
        /// The task that sent the request was cancelled.
        public static let cancelled = Code(name: "cancelled")
        /// The server answered with a status outside 200...299; ``ApiError/statusCode``
        /// and ``ApiError/body`` say what it answered.
        public static let httpStatus = Code(name: "httpStatus")
        /// The response's body did not decode; ``ApiError/keyPath`` names where.
        public static let decoding = Code(name: "decoding")
        /// The request's body did not encode; ``ApiError/keyPath`` names where.
        public static let encoding = Code(name: "encoding")
        /// No valid URL can be made from the base URL and the request's path and query.
        public static let invalidRequest = Code(name: "invalidRequest")
        /// The controller's authorization hook threw instead of giving headers.
        public static let authorization = Code(name: "authorization")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public let code: Code

    /// The request that failed.
    public let request: ApiRequest

    /// The HTTP status, for ``Code/httpStatus``; otherwise `nil`.
    public let statusCode: Int?

    /// The response's body, for ``Code/httpStatus`` and ``Code/decoding``; otherwise `nil`.
    public let body: Data?

    /// The key path that failed to decode or encode, such as `items[2].title`,
    /// for ``Code/decoding`` and ``Code/encoding``; otherwise `nil`. Empty for the top level.
    public let keyPath: String?

    /// A sentence naming the request and what went wrong. It leaves out the
    /// body, which may hold private data; read ``body`` for it.
    public let description: String

    /// The body as UTF-8 text, if it is text.
    public var bodyText: String? { body.flatMap { String(data: $0, encoding: .utf8) } }

    init(
        code: Code, request: ApiRequest, description: String,
        statusCode: Int? = nil, body: Data? = nil, keyPath: String? = nil
    ) {
        self.code = code
        self.request = request
        self.statusCode = statusCode
        self.body = body
        self.keyPath = keyPath
        self.description = description
    }

    /// Makes an error for an HTTP status outside 200...299.
    ///
    /// For fake API controllers and tests; real controllers make it themselves.
    ///
    /// ```swift
    /// fake.respond(to: .get, "/feed", with: .failure(.httpStatus(503, for: ApiRequest(.get, "/feed"))))
    /// ```
    public static func httpStatus(_ statusCode: Int, body: Data = Data(), for request: ApiRequest) -> ApiError {
        return ApiError(
            code: .httpStatus, request: request,
            description: "\(request) failed with HTTP \(statusCode) (\(httpReasonPhrase(statusCode)))",
            statusCode: statusCode, body: body)
    }

    /// Makes a transport error with a reason, for fake API controllers and tests.
    public static func transport(_ reason: String, for request: ApiRequest) -> ApiError {
        ApiError(code: .transport, request: request, description: "\(request) failed: \(reason)")
    }

    /// Makes a timeout error, for fake API controllers and tests.
    public static func timeout(after limit: Duration, for request: ApiRequest) -> ApiError {
        ApiError(code: .timeout, request: request, description: "\(request) timed out after \(limit.seconds)")
    }

    /// Makes a cancellation error, for fake API controllers and tests.
    public static func cancelled(for request: ApiRequest) -> ApiError {
        ApiError(code: .cancelled, request: request, description: "\(request) was cancelled")
    }

    /// The same error for another request: a canned error answering the request actually sent.
    package func rebinding(to other: ApiRequest) -> ApiError {
        let old = "\(request)", new = "\(other)"
        let sentence = description.hasPrefix(old) ? new + description.dropFirst(old.count) : description
        return ApiError(
            code: code, request: other, description: sentence,
            statusCode: statusCode, body: body, keyPath: keyPath)
    }

    static func decoding(_ request: ApiRequest, _ type: Any.Type, _ error: any Error, body: Data) -> ApiError {
        let (path, reason) = Self.explain(error)
        let place = path.isEmpty ? "" : " at \(path)"
        return ApiError(
            code: .decoding, request: request,
            description: "\(request) returned a body that does not decode as \(type)\(place): \(reason)",
            body: body, keyPath: path)
    }

    static func encoding(_ request: ApiRequest, _ error: any Error) -> ApiError {
        let (path, reason) = Self.explain(error)
        let place = path.isEmpty ? "" : " at \(path)"
        return ApiError(
            code: .encoding, request: request,
            description: "\(request): the body does not encode as JSON\(place): \(reason)",
            keyPath: path)
    }

    static func invalidRequest(_ request: ApiRequest, baseURL: URL) -> ApiError {
        ApiError(
            code: .invalidRequest, request: request,
            description: "\(request): no valid URL from base \(baseURL.absoluteString), path \"\(request.path)\" and its query")
    }

    static func authorization(_ request: ApiRequest, _ error: any Error) -> ApiError {
        ApiError(
            code: .authorization, request: request,
            description: "\(request): the authorization hook failed: \(error)")
    }

    private static func explain(_ error: any Error) -> (path: String, reason: String) {
        if let error = error as? DecodingError { return (error.keyPath, error.reason) }
        if let error = error as? EncodingError, case .invalidValue(_, let context) = error {
            return (DecodingError.render(context.codingPath), context.debugDescription)
        }
        return ("", String(describing: error))
    }
}
