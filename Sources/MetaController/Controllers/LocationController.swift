/// The controller that keeps track of where the device is.
///
/// It fills the MetaController's `locationController` slot. The protocol says only what
/// a location controller is; its operations come with its default
/// implementation in a later release. An app can already put its own type, or
/// `FakeLocationController` from `MetaControllerTesting`, in the slot.
///
/// Controllers live in a `Sendable` ``MetaController`` and are reached from any
/// thread, so they are `Sendable` classes. A controller that needs the others
/// adopts ``MetaControllerConsumer`` too, holds its MetaController weakly
/// (see ``WeakMetaControllerReference``) and receives it when it is put in a slot.
///
/// ```swift
/// final class AppLocationController: LocationController {}
/// metaController.locationController = AppLocationController()
/// ```
public protocol LocationController: AnyObject, Sendable {}
