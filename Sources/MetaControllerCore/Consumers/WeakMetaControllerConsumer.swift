/// A consumer that holds its MetaController weakly, in one line: the controllers
/// that live in a MetaController's slots.
///
/// A controller in a slot that reads other controllers must not hold the
/// MetaController strongly, or the two keep each other alive. Adopt this
/// protocol instead of ``MetaControllerConsumer`` and declare one stored
/// property; the protocol provides ``MetaControllerConsumer/metaController``
/// through it:
///
/// ```swift
/// final class AppApiController: ApiController, WeakMetaControllerConsumer {
///     let metaControllerReference = WeakMetaControllerReference()
///
///     func send(_ request: ApiRequest) async throws(ApiError) -> ApiResponse {
///         infoLog("sending \(request)")   // reaches the log controller through the MetaController
///         // ...
///     }
/// }
/// ```
///
/// The reference is a `let`, so a `Sendable` final class stays `Sendable`, and
/// the MetaController is read and set under the reference's lock from any
/// thread. `metaController` answers `nil` once the MetaController is gone. The
/// rest is ``MetaControllerConsumer``'s: the push on set hands the controller
/// its MetaController, ``MetaControllerConsumer/metaControllerDidArrive()``
/// runs then, and ``MetaControllerConsumer/requiredControllers`` is checked.
public protocol WeakMetaControllerConsumer: MetaControllerConsumer {
    /// Where the MetaController is held, weakly: declare it
    /// `let metaControllerReference = WeakMetaControllerReference()`.
    var metaControllerReference: WeakMetaControllerReference { get }
}

extension WeakMetaControllerConsumer {
    /// The MetaController held by ``metaControllerReference``; `nil` before one is
    /// given and once it is gone. Setting it replaces the reference's MetaController.
    public var metaController: MetaController? {
        get { metaControllerReference.metaController }
        set { metaControllerReference.metaController = newValue }
    }
}
