/// The controller that receives and interprets push notifications.
///
/// It fills the MetaController's `notificationController` slot. The protocol says only what
/// a notification controller is; its operations come with its default
/// implementation in a later release. An app can already put its own type, or
/// `FakeNotificationController` from `MetaControllerTesting`, in the slot.
///
/// Controllers live in a `Sendable` ``MetaController`` and are reached from any
/// thread, so they are `Sendable` classes. A controller that needs the others
/// adopts ``MetaControllerConsumer`` too, holds its MetaController weakly
/// (see ``WeakMetaControllerReference``) and receives it when it is put in a slot.
///
/// ```swift
/// final class AppNotificationController: NotificationController {}
/// metaController.notificationController = AppNotificationController()
/// ```
public protocol NotificationController: AnyObject, Sendable {}
