/// The controller that talks to the app's server.
///
/// It fills the MetaController's `apiController` slot. Its one requirement,
/// ``send(_:)``, sends an ``ApiRequest`` and returns the ``ApiResponse`` or
/// throws an ``ApiError`` that says what went wrong; JSON helpers build on it
/// (``send(_:decoding:decoder:)``). ``URLSessionApiController`` is the default
/// implementation; `FakeApiController` in `MetaControllerTesting` answers
/// from canned responses without a network.
///
/// Controllers live in a `Sendable` ``MetaController`` and are reached from any
/// thread, so they are `Sendable` classes. A controller that needs the others
/// adopts ``MetaControllerConsumer`` too, holds its MetaController weakly
/// (see ``WeakMetaControllerReference``) and receives it when it is put in a slot.
///
/// ```swift
/// metaController.apiController = URLSessionApiController(baseURL: serverURL)
///
/// // In any consumer:
/// let items = try await apiController?.send(ApiRequest(.get, "/feed"), decoding: [FeedItem].self)
/// ```
public protocol ApiController: AnyObject, Sendable {
    /// Sends `request` and returns the server's answer when its status is in 200...299.
    ///
    /// - Throws: An ``ApiError`` whose code tells a transport failure, a
    ///   timeout, a cancellation and an HTTP status apart.
    func send(_ request: ApiRequest) async throws(ApiError) -> ApiResponse
}
