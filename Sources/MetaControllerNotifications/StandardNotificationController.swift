public import MetaControllerCore
public import Foundation

/// The default ``NotificationController``: routes each notification to the
/// handler registered for its category, or to the default handler, keeps the
/// badge count and the device token observable, and dispatches every
/// notification on the MetaController's bus (``PushNotification/received``).
///
/// ```swift
/// let notifications = StandardNotificationController()
/// notifications.handle(category: "GAME_INVITATION") { notification in
///     Task { @MainActor in router.showInvitation(notification.customValues["gameID"]?.stringValue) }
/// }
/// notifications.handleOthers { notification in print("unrouted: \(notification.category ?? "none")") }
/// metaController.notificationController = notifications
/// ```
///
/// Handlers run on the thread that delivers, in the order notifications arrive.
public final class StandardNotificationController: NotificationController, MetaControllerConsumer {
    /// Handles one notification.
    public typealias Handler = @Sendable (PushNotification) -> Void

    private struct Routes: Sendable {
        var byCategory: [String: Handler] = [:]
        var fallback: Handler?
    }

    /// The number on the app's icon: the last `badge` received.
    public let badgeCount = Property(0)
    /// The device token as lower-case hex, once registered.
    public let deviceToken = Property<String?>(nil)

    private let routes = Lock(Routes())
    private let reference = WeakMetaControllerReference()

    /// Creates a controller with no handlers.
    public init() {}

    /// The MetaController this controller was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// Routes notifications of `category` to `handler`, replacing an earlier handler of it.
    public func handle(category: String, with handler: @escaping Handler) {
        routes.withLock { $0.byCategory[category] = handler }
    }

    /// Routes notifications whose category has no handler (or that have none) to `handler`.
    public func handleOthers(with handler: @escaping Handler) {
        routes.withLock { $0.fallback = handler }
    }

    /// Updates the badge, calls the notification's handler and dispatches it on the bus.
    public func deliver(_ notification: PushNotification) {
        if let badge = notification.badge { badgeCount.value = badge }
        let handler = routes.withLock { routes in
            notification.category.flatMap { routes.byCategory[$0] } ?? routes.fallback
        }
        if let handler {
            handler(notification)
        } else {
            debugLog("no handler for a notification of category \(notification.category ?? "none")")
        }
        metaController?.signals.dispatch(PushNotification.received, notification, isolation: nil)
    }

    /// Keeps the token as lower-case hex in ``deviceToken``.
    public func didRegister(deviceToken token: Data) {
        deviceToken.value = token.hexString
        debugLog("registered for remote notifications: \(token.hexString, privacy: .private)")
    }
}
