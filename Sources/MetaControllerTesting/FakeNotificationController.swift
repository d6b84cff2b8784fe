public import Foundation
public import MetaControllerCore
public import MetaControllerNotifications

/// A notification controller for tests: it records what it delivered and the
/// tokens it was given, and keeps the badge like the real one.
///
/// Deliver payloads as the app delegate would, then assert:
///
/// ```swift
/// let metaController = MetaController.withFakes()
/// let notifications = try #require(metaController.fakeNotificationController)
/// try notifications.receive(payload: Data(#"{"aps": {"badge": 3, "category": "CHAT"}}"#.utf8))
/// #expect(notifications.delivered.map(\.category) == ["CHAT"])
/// #expect(notifications.badgeCount.value == 3)
/// ```
///
/// Each delivered notification is dispatched on the MetaController's bus
/// (`PushNotification.received`), as with the real controller.
public final class FakeNotificationController: NotificationController, MetaControllerConsumer {
    private struct State: Sendable {
        var delivered: [PushNotification] = []
        var tokens: [Data] = []
    }

    /// The badge: the last `badge` delivered.
    public let badgeCount = Property(0)
    /// The last device token registered, as lower-case hex.
    public let deviceToken = Property<String?>(nil)

    private let state = Lock(State())
    private let reference = WeakMetaControllerReference()

    /// Creates a fake with nothing delivered.
    public init() {}

    /// The MetaController this fake was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// Every notification delivered, oldest first.
    public var delivered: [PushNotification] { state.withLock { $0.delivered } }

    /// Every device token registered, oldest first.
    public var registeredTokens: [Data] { state.withLock { $0.tokens } }

    /// Records `notification`, updates the badge and dispatches it on the bus.
    public func deliver(_ notification: PushNotification) {
        state.withLock { $0.delivered.append(notification) }
        if let badge = notification.badge { badgeCount.value = badge }
        metaController?.signals.dispatch(PushNotification.received, notification, isolation: nil)
    }

    /// Records the token and keeps it as hex in ``deviceToken``.
    public func didRegister(deviceToken token: Data) {
        state.withLock { $0.tokens.append(token) }
        deviceToken.value = token.hexString
    }
}
