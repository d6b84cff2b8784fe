public import Foundation

/// The controller that receives push notifications, interprets them and routes
/// them to the app's handlers.
///
/// It fills the MetaController's `notificationController` slot.
/// ``StandardNotificationController`` is the default implementation;
/// `FakeNotificationController` in `MetaControllerTesting` records what it delivered.
///
/// ```swift
/// // In the app delegate's didReceiveRemoteNotification:
/// try metaController.notificationController?.receive(userInfo: userInfo)
///
/// // In the app delegate's didRegisterForRemoteNotificationsWithDeviceToken:
/// metaController.notificationController?.didRegister(deviceToken: token)
/// ```
public protocol NotificationController: AnyObject, Sendable {
    /// The number on the app's icon: the last `badge` received, observable.
    var badgeCount: Property<Int> { get }

    /// The device token as lower-case hex, once registered; observable.
    var deviceToken: Property<String?> { get }

    /// Routes a notification to its category's handler, or the default one,
    /// and updates ``badgeCount`` when it carries a badge.
    func deliver(_ notification: PushNotification)

    /// Records the device token APNs gave the app.
    func didRegister(deviceToken: Data)
}

extension NotificationController {
    /// Parses a payload and delivers it.
    ///
    /// - Throws: ``PushNotificationError`` naming the key when the payload is malformed;
    ///   nothing is delivered then.
    @discardableResult
    public func receive(payload: Data, kind: PushNotification.Kind = .regular) throws(PushNotificationError) -> PushNotification {
        let notification = try PushNotification(payload: payload, kind: kind)
        deliver(notification)
        return notification
    }

    /// Parses a remote notification's `userInfo` and delivers it.
    ///
    /// - Throws: ``PushNotificationError`` naming the key when the payload is malformed.
    @discardableResult
    public func receive(userInfo: [AnyHashable: Any]) throws(PushNotificationError) -> PushNotification {
        let notification = try PushNotification(userInfo: userInfo)
        deliver(notification)
        return notification
    }
}

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
