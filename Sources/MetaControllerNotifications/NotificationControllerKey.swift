// The built-in `notificationController` slot: its key and its accessors, as an app declares its own
// (Docs/CustomControllers.md). The core lists no built-in slot; each is a file like this one.
public import MetaControllerCore

/// The key of the built-in ``MetaController/notificationController`` slot, named `notificationController`.
public enum NotificationControllerKey: MetaControllerKey {
    /// What the slot holds.
    public typealias Value = any NotificationController
}

extension MetaControllerSlot {
    /// The ``MetaController/notificationController`` slot: ``NotificationControllerKey``.
    public static let notification = MetaControllerSlot.custom(NotificationControllerKey.self)
}

extension MetaController {
    /// The controller that receives and interprets push notifications.
    ///
    /// Setting it hands this MetaController to the new controller when it is a consumer.
    public var notificationController: (any NotificationController)? {
        // Inlinable, as an app's own accessors are: the read is specialized in the caller's code.
        @inlinable get { self[NotificationControllerKey.self] }
        @inlinable set { self[NotificationControllerKey.self] = newValue }
    }
}

extension MetaControllerReader {
    /// The MetaController's ``MetaController/notificationController``, or `nil` when this has no MetaController
    /// or the slot is empty (a strict test MetaController reports the read).
    @inlinable
    public var notificationController: (any NotificationController)? { self[NotificationControllerKey.self] }
}
