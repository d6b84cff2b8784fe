#if canImport(UserNotifications)
import UserNotifications
#if canImport(UIKit)
import UIKit
#endif

/// Asks `UNUserNotificationCenter`, then registers for remote notifications where UIKit exists.
func requestPlatformAuthorization(alert: Bool, badge: Bool, sound: Bool) async throws -> Bool {
    var options: UNAuthorizationOptions = []
    if alert { options.insert(.alert) }
    if badge { options.insert(.badge) }
    if sound { options.insert(.sound) }
    let granted = try await UNUserNotificationCenter.current().requestAuthorization(options: options)
    #if canImport(UIKit) && !os(watchOS)
    if granted {
        await MainActor.run { UIApplication.shared.registerForRemoteNotifications() }
    }
    #endif
    return granted
}
#endif
