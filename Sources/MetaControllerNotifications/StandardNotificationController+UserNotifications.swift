import MetaControllerCore
#if canImport(UserNotifications)
import UserNotifications
#if os(macOS)
import AppKit
#elseif os(watchOS)
import WatchKit
#elseif canImport(UIKit)
import UIKit
#endif

// Availability (all at or below the package's minimums; see Docs/PlatformSupport.md):
// `UNUserNotificationCenter.requestAuthorization(options:)` iOS 10, macOS 10.14, tvOS 10,
// watchOS 3; `registerForRemoteNotifications()` on UIApplication iOS 8, tvOS 9, visionOS 1;
// on NSApplication macOS 10.14; on WKApplication watchOS 7.

/// Asks `UNUserNotificationCenter`, then registers for remote notifications with the app object.
func requestPlatformAuthorization(alert: Bool, badge: Bool, sound: Bool) async throws -> Bool {
    var options: UNAuthorizationOptions = []
    #if os(tvOS)
    // tvOS shows no alerts and plays no sounds for notifications: only badges.
    if badge { options.insert(.badge) }
    #else
    if alert { options.insert(.alert) }
    if badge { options.insert(.badge) }
    if sound { options.insert(.sound) }
    #endif
    let granted = try await UNUserNotificationCenter.current().requestAuthorization(options: options)
    if granted {
        await MainActor.run {
            #if os(macOS)
            NSApplication.shared.registerForRemoteNotifications()
            #elseif os(watchOS)
            WKApplication.shared().registerForRemoteNotifications()
            #else
            UIApplication.shared.registerForRemoteNotifications()
            #endif
        }
    }
    return granted
}
#endif
