extension StandardNotificationController {
    /// Asks the user for permission to show alerts, badges and sounds, and
    /// registers the app for remote notifications when permission is granted.
    ///
    /// On Apple platforms it asks `UNUserNotificationCenter` and, when the
    /// user allows, calls `registerForRemoteNotifications()` on the app object
    /// (`UIApplication` on iOS, iPadOS, tvOS and visionOS, `NSApplication` on
    /// macOS, `WKApplication` on watchOS); the token then arrives in the app
    /// delegate, which hands it to ``didRegister(deviceToken:)``. tvOS shows
    /// badges only, so there `alert` and `sound` are not asked for. Where
    /// there are no user notifications (Linux), it returns `false`.
    ///
    /// ```swift
    /// let allowed = try await notifications.requestAuthorization()
    /// ```
    ///
    /// - Returns: Whether the user allowed notifications.
    /// - Throws: The system's error when it cannot ask.
    public func requestAuthorization(alert: Bool = true, badge: Bool = true, sound: Bool = true) async throws -> Bool {
        let granted = try await requestPlatformAuthorization(alert: alert, badge: badge, sound: sound)
        infoLog("notification permission \(granted ? "granted" : "not granted")")
        return granted
    }
}

import MetaControllerCore
#if !canImport(UserNotifications)
/// Without UserNotifications there is no one to ask.
func requestPlatformAuthorization(alert: Bool, badge: Bool, sound: Bool) async throws -> Bool {
    false
}
#endif
