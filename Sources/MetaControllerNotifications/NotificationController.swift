public import MetaControllerCore
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
