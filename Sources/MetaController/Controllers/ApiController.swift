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

/// The key of the built-in ``MetaController/apiController`` slot, named `apiController`.
public enum ApiControllerKey: MetaControllerKey {
    /// What the slot holds.
    public typealias Value = any ApiController
}

extension MetaControllerSlot {
    /// The ``MetaController/apiController`` slot: ``ApiControllerKey``.
    public static let api = MetaControllerSlot.custom(ApiControllerKey.self)
}

extension MetaController {
    /// The controller that talks to the app's server.
    ///
    /// Setting it hands this MetaController to the new controller when it is a consumer.
    public var apiController: (any ApiController)? {
        // Inlinable, as an app's own accessors are: the read is specialized in the caller's code.
        @inlinable get { self[ApiControllerKey.self] }
        @inlinable set { self[ApiControllerKey.self] = newValue }
    }
}

extension MetaControllerReader {
    /// The MetaController's ``MetaController/apiController``, or `nil` when this has no MetaController
    /// or the slot is empty (a strict test MetaController reports the read).
    @inlinable
    public var apiController: (any ApiController)? { self[ApiControllerKey.self] }
}
