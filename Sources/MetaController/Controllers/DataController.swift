/// The controller that stores the app's data.
///
/// It fills the MetaController's `dataController` slot. The protocol says only what
/// a data controller is; its operations come with its default
/// implementation in a later release. An app can already put its own type, or
/// `FakeDataController` from `MetaControllerTesting`, in the slot.
///
/// Controllers live in a `Sendable` ``MetaController`` and are reached from any
/// thread, so they are `Sendable` classes. A controller that needs the others
/// adopts ``MetaControllerConsumer`` too, holds its MetaController weakly
/// (see ``WeakMetaControllerReference``) and receives it when it is put in a slot.
///
/// ```swift
/// final class AppDataController: DataController {}
/// metaController.dataController = AppDataController()
/// ```
public protocol DataController: AnyObject, Sendable {}
