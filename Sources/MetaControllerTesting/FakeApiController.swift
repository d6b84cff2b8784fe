public import Foundation
public import MetaControllerCore
public import MetaControllerNetworking

/// An API controller for tests: it answers from canned responses, records every
/// request, and touches no network.
///
/// Give it a response per method and path; a request it has none for fails
/// with HTTP 404, as a server would, and is listed in ``unmatchedRequests``.
/// A canned status outside 200...299 is thrown as `ApiError.Code.httpStatus`,
/// as the real controller does.
///
/// ```swift
/// let metaController = MetaController.withFakes()
/// let api = try #require(metaController.fakeApiController)
/// try api.respond(to: .get, "/feed", json: [FeedItem(id: 1, title: "Hello")])
/// api.respond(to: .post, "/items", with: .failure(.transport("offline", for: ApiRequest(.post, "/items"))))
///
/// metaController.passMetaController(to: screen)
/// await screen.reload()
/// #expect(api.requests.map(\.description) == ["GET /feed"])
/// ```
///
/// It adopts `MetaControllerConsumer` and holds its
/// MetaController weakly, as real controllers do. It is safe to use from many tasks at once.
public final class FakeApiController: ApiController, MetaControllerConsumer {
    /// Makes the answer to a request.
    public typealias Responder = @Sendable (ApiRequest) -> Result<ApiResponse, ApiError>

    private struct Route: Hashable, Sendable {
        let method: HTTPMethod
        let path: String
    }

    private struct State: Sendable {
        var responders: [Route: Responder] = [:]
        var requests: [ApiRequest] = []
        var unmatchedRequests: [ApiRequest] = []
    }

    private let state = Lock(State())
    private let reference = WeakMetaControllerReference()

    /// Creates a fake with no canned responses.
    public init() {}

    /// The MetaController this fake was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    // MARK: - Canned responses

    /// Answers requests with `method` and `path` (the query is not compared) by calling `responder`.
    ///
    /// A later call for the same method and path replaces the earlier one.
    ///
    /// ```swift
    /// api.respond(to: .get, "/users/7") { request in
    ///     .success(ApiResponse(request: request, body: Data(#"{"id":7}"#.utf8)))
    /// }
    /// ```
    public func respond(to method: HTTPMethod, _ path: String, responder: @escaping Responder) {
        state.withLock { $0.responders[Route(method: method, path: path)] = responder }
    }

    /// Answers requests with `method` and `path` with `result`.
    public func respond(to method: HTTPMethod, _ path: String, with result: Result<ApiResponse, ApiError>) {
        respond(to: method, path) { request in
            result.map { ApiResponse(request: request, statusCode: $0.statusCode, headers: $0.headers, body: $0.body) }
                .mapError { $0.rebinding(to: request) }
        }
    }

    /// Answers requests with `method` and `path` with `statusCode` and `body`.
    public func respond(to method: HTTPMethod, _ path: String, statusCode: Int = 200, body: Data = Data()) {
        respond(to: method, path) { request in
            .success(ApiResponse(request: request, statusCode: statusCode, body: body))
        }
    }

    /// Answers requests with `method` and `path` with `value` encoded as JSON.
    ///
    /// - Throws: The encoder's error when `value` does not encode.
    public func respond(
        to method: HTTPMethod, _ path: String, statusCode: Int = 200, json value: some Encodable,
        encoder: JSONEncoder = JSONEncoder()
    ) throws {
        let body = try encoder.encode(value)
        respond(to: method, path) { request in
            .success(
                ApiResponse(
                    request: request, statusCode: statusCode,
                    headers: ["Content-Type": "application/json"], body: body))
        }
    }

    /// Answers requests with `method` and `path` with `value` encoded as JSON,
    /// without throwing: the call for previews, whose builders cannot `try`.
    ///
    /// ```swift
    /// #Preview {
    ///     FeedView().metaController(.preview { metaController in
    ///         metaController.fakeApiController?.respond(to: .get, "/feed", encoding: FeedItem.samples)
    ///     })
    /// }
    /// ```
    ///
    /// `value` is encoded once, now. A value that does not encode (a `Double.nan`, say)
    /// is not lost silently: every matching request then fails with HTTP 500,
    /// whose body says what did not encode, and the failure is logged as an
    /// error through this fake's MetaController. Tests, which can `try`, use
    /// ``respond(to:_:statusCode:json:encoder:)`` to hear about it at once.
    ///
    /// - Parameters:
    ///   - method: The request method to answer.
    ///   - path: The request path to answer; the query is not compared.
    ///   - statusCode: The status of the answer; 200 by default.
    ///   - value: The body, encoded as JSON.
    ///   - encoder: The encoder; a plain `JSONEncoder` by default.
    public func respond(
        to method: HTTPMethod, _ path: String, statusCode: Int = 200, encoding value: some Encodable,
        encoder: JSONEncoder = JSONEncoder()
    ) {
        do {
            try respond(to: method, path, statusCode: statusCode, json: value, encoder: encoder)
        } catch {
            let reason = "FakeApiController could not encode the canned answer to \(method) \(path): \(error)"
            respond(to: method, path) { [weak self] request in
                self?.errorLog("\(reason)")
                return .failure(.httpStatus(500, body: Data(reason.utf8), for: request))
            }
        }
    }

    // MARK: - Recorded requests

    /// Every request sent, oldest first, answered or not.
    public var requests: [ApiRequest] { state.withLock { $0.requests } }

    /// The requests that had no canned response, oldest first.
    public var unmatchedRequests: [ApiRequest] { state.withLock { $0.unmatchedRequests } }

    /// Forgets the requests recorded so far; the canned responses stay.
    public func removeAllRequests() {
        state.withLock { state in
            state.requests.removeAll()
            state.unmatchedRequests.removeAll()
        }
    }

    // MARK: - ApiController

    /// Records `request` and answers it from the canned responses.
    ///
    /// - Throws: The canned error; `ApiError.Code.httpStatus` for
    ///   a canned status outside 200...299, or 404 when nothing is canned for the request;
    ///   `ApiError.Code.cancelled` when the task is cancelled.
    public func send(_ request: ApiRequest) async throws(ApiError) -> ApiResponse {
        let responder: Responder? = state.withLock { state in
            state.requests.append(request)
            let responder = state.responders[Route(method: request.method, path: request.path)]
            if responder == nil { state.unmatchedRequests.append(request) }
            return responder
        }
        guard !Task.isCancelled else { throw ApiError.cancelled(for: request) }
        guard let responder else {
            throw ApiError.httpStatus(404, body: Data("no canned response for \(request)".utf8), for: request)
        }
        let response = try responder(request).get()
        guard (200...299).contains(response.statusCode) else {
            throw ApiError.httpStatus(response.statusCode, body: response.body, for: request)
        }
        return response
    }
}
