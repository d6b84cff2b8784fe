public import MetaControllerCore
import MetaControllerSupport
public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The default ``ApiController``: JSON over HTTP with `URLSession`
/// (FoundationNetworking on Linux).
///
/// Give it the server's base URL; requests name paths below it. It is a
/// consumer: put it in a MetaController and it logs each request and response
/// at the debug level, and each failure as an error, through the log controller.
///
/// ```swift
/// let api = URLSessionApiController(
///     baseURL: URL(string: "https://api.example.com/v1")!,
///     timeout: .seconds(20),
///     retryPolicy: RetryPolicy(maximumAttempts: 3),
///     authorize: { _ in ["Authorization": "Bearer \(await tokens.current())"] }
/// )
/// metaController.apiController = api
/// let items = try await api.get("/feed", decoding: [FeedItem].self)
/// ```
///
/// - Timeouts: each attempt must finish within the request's ``ApiRequest/timeout``,
///   or the controller's ``timeout``: the whole exchange, not only the wait for the first byte.
/// - Cancellation: cancelling the task that awaits ``send(_:)`` cancels the
///   transfer at once and throws ``ApiError/Code/cancelled``.
/// - Retries: opt-in, for idempotent requests, as ``retryPolicy`` says.
/// - Logging: bodies are logged as private values (`<private>`) unless ``logsBodies`` is `true`.
public final class URLSessionApiController: ApiController, MetaControllerConsumer {
    /// The URL that request paths are relative to.
    public let baseURL: URL
    /// How long an attempt may take when its request sets no timeout.
    public let timeout: Duration
    /// When failed requests are sent again.
    public let retryPolicy: RetryPolicy
    /// Whether request and response bodies are logged as text rather than `<private>`.
    public let logsBodies: Bool

    private let session: URLSession
    private let authorize: (@Sendable (ApiRequest) async throws -> [String: String])?
    private let reference = WeakMetaControllerReference()

    /// Creates a controller for the server at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: The URL that request paths are relative to, such as `https://api.example.com/v1`.
    ///   - configuration: The session's configuration; ephemeral (no disk cache or cookies) by default.
    ///   - timeout: How long an attempt may take when its request sets no timeout; 60 seconds by default.
    ///   - retryPolicy: When failed requests are sent again; never by default.
    ///   - logsBodies: Whether bodies are logged as text; `false` logs them as `<private>`.
    ///   - authorize: Called before each attempt; the header fields it returns
    ///     are added to those the request does not set. A throw fails the request
    ///     with ``ApiError/Code/authorization``.
    public convenience init(
        baseURL: URL,
        configuration: URLSessionConfiguration = .ephemeral,
        timeout: Duration = .seconds(60),
        retryPolicy: RetryPolicy = .none,
        logsBodies: Bool = false,
        authorize: (@Sendable (ApiRequest) async throws -> [String: String])? = nil
    ) {
        self.init(
            baseURL: baseURL, configuration: configuration, timeout: timeout, retryPolicy: retryPolicy,
            logsBodies: logsBodies, authorize: authorize, delegateQueue: nil)
    }

    /// The same, with the queue URLSession reports finished transfers on: a test suspends it to
    /// hold URLSession's report while a cancellation answers the caller.
    init(
        baseURL: URL,
        configuration: URLSessionConfiguration = .ephemeral,
        timeout: Duration = .seconds(60),
        retryPolicy: RetryPolicy = .none,
        logsBodies: Bool = false,
        authorize: (@Sendable (ApiRequest) async throws -> [String: String])? = nil,
        delegateQueue: OperationQueue?
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.logsBodies = logsBodies
        self.authorize = authorize
        session = URLSession(configuration: configuration, delegate: nil, delegateQueue: delegateQueue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The MetaController this controller was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// Sends `request`, retrying as ``retryPolicy`` says, and returns the answer
    /// when its status is in 200...299.
    ///
    /// - Throws: ``ApiError`` with the code that says what went wrong on the last attempt.
    public func send(_ request: ApiRequest) async throws(ApiError) -> ApiResponse {
        var attempt = 1
        while true {
            do {
                return try await sendOnce(request)
            } catch {
                guard retryPolicy.shouldRetry(error, attempt: attempt) else {
                    if error.code == .cancelled {
                        debugLog("\(error)")
                    } else {
                        errorLog("\(error)")
                    }
                    throw error
                }
                let delay = retryPolicy.delay(after: attempt)
                attempt += 1
                warningLog("\(error); attempt \(attempt) of \(retryPolicy.maximumAttempts) in \(delay.seconds)")
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw ApiError.cancelled(for: request)
                }
            }
        }
    }

    /// The URL `request` goes to: the base URL's path followed by the request's
    /// path, then the base URL's query items, if any, and the request's.
    ///
    /// - Throws: ``ApiError/Code/invalidRequest`` when they make no valid URL.
    public func url(for request: ApiRequest) throws(ApiError) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
            throw ApiError.invalidRequest(request, baseURL: baseURL)
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        let suffix = request.path.hasPrefix("/") ? request.path : "/" + request.path
        guard let encodedSuffix = suffix.addingPercentEncoding(withAllowedCharacters: .apiPathAllowed) else {
            throw ApiError.invalidRequest(request, baseURL: baseURL)
        }
        components.percentEncodedPath = path + encodedSuffix
        if !request.query.isEmpty {
            components.percentEncodedQueryItems =
                (components.percentEncodedQueryItems ?? [])
                + request.query.map {
                    URLQueryItem(
                        name: $0.name.addingPercentEncoding(withAllowedCharacters: .apiQueryAllowed) ?? $0.name,
                        value: $0.value?.addingPercentEncoding(withAllowedCharacters: .apiQueryAllowed))
                }
        }
        guard let url = components.url, url.scheme != nil, url.host != nil else {
            throw ApiError.invalidRequest(request, baseURL: baseURL)
        }
        return url
    }

    // MARK: - One attempt

    private func sendOnce(_ request: ApiRequest) async throws(ApiError) -> ApiResponse {
        guard !Task.isCancelled else { throw ApiError.cancelled(for: request) }
        var urlRequest = URLRequest(url: try url(for: request))
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let authorize {
            let headers: [String: String]
            do {
                headers = try await authorize(request)
            } catch is CancellationError {
                throw ApiError.cancelled(for: request)
            } catch {
                throw ApiError.authorization(request, error)
            }
            for (name, value) in headers where request.header(name) == nil {
                urlRequest.setValue(value, forHTTPHeaderField: name)
            }
        }
        let limit = request.timeout ?? timeout
        urlRequest.timeoutInterval = limit.wholeSecondsTimeoutInterval

        debugLog(describe(request, url: urlRequest.url))
        let started = ContinuousClock.now
        let (data, response) = try await Transfer(request: request, limit: limit).run(urlRequest, in: session)
        let elapsed = ContinuousClock.now - started
        let headers = response.allHeaderFields.reduce(into: [String: String]()) { headers, field in
            headers[String(describing: field.key)] = String(describing: field.value)
        }
        let answer = ApiResponse(request: request, statusCode: response.statusCode, headers: headers, body: data)
        debugLog(describe(answer, after: elapsed))
        guard (200...299).contains(response.statusCode) else {
            throw ApiError.httpStatus(response.statusCode, body: data, for: request)
        }
        return answer
    }

    private func describe(_ request: ApiRequest, url: URL?) -> LogMessage {
        let target = url?.absoluteString ?? request.path
        guard let body = request.body else { return "\(request.method) \(target)" }
        return "\(request.method) \(target) body \(body.count) bytes: \(bodyText(body), privacy: bodyPrivacy)"
    }

    private func describe(_ response: ApiResponse, after elapsed: Duration) -> LogMessage {
        let milliseconds = Int((elapsed.timeInterval * 1000).rounded())
        let size = response.body.count
        return "\(response.request) -> \(response.statusCode) in \(milliseconds) ms, \(size) bytes: \(bodyText(response.body), privacy: bodyPrivacy)"
    }

    /// Bodies are private unless the controller was asked to log them.
    private var bodyPrivacy: LogPrivacy { logsBodies ? .public : .private }

    private func bodyText(_ body: Data) -> String {
        let text = String(decoding: body.prefix(1024), as: UTF8.self)
        return body.count > 1024 ? text + "…" : text
    }
}

extension CharacterSet {
    /// What may stay unescaped in a request path: unreserved characters, `/` and sub-delimiters but `;`.
    static let apiPathAllowed = CharacterSet(
        charactersIn:
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/!$&'()*+,=:@%")

    /// What may stay unescaped in a query name or value: unreserved characters only,
    /// so `+`, `&` and `=` in values arrive as themselves.
    static let apiQueryAllowed = CharacterSet(
        charactersIn:
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
