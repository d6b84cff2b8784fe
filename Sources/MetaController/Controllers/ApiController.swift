/// The controller that talks to the app's server.
///
/// It fills the MetaController's `apiController` slot. The protocol says only what
/// an API controller is; its operations come with its default
/// implementation in a later release. An app can already put its own type, or
/// `FakeApiController` from `MetaControllerTesting`, in the slot.
///
/// Controllers live in a `Sendable` ``MetaController`` and are reached from any
/// thread, so they are `Sendable` classes. A controller that needs the others
/// adopts ``MetaControllerConsumer`` too, holds its MetaController weakly
/// (see ``WeakMetaControllerReference``) and receives it when it is put in a slot.
///
/// ```swift
/// final class AppApiController: ApiController {}
/// metaController.apiController = AppApiController()
/// ```
public protocol ApiController: AnyObject, Sendable {}
