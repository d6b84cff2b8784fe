// A stub of Apple's UserNotifications for compile checks on Linux (.ci/check-apple). It is not
// UserNotifications: nothing is asked or shown; only what this package uses, with the shapes and
// the isolation (none: the class and its methods are nonisolated) of the iOS 26 SDK. The
// framework's umbrella header imports Foundation, so this re-exports it.
//
// Pages consulted (developer.apple.com/documentation/usernotifications/...):
// UNUserNotificationCenter (`class UNUserNotificationCenter`, iOS 10, macOS 10.14, tvOS 10,
// watchOS 3, visionOS 1), UNUserNotificationCenter/current(), UNUserNotificationCenter/
// requestAuthorization(options:completionHandler:) (`func requestAuthorization(options:
// UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) ->
// Void)`; Swift imports it also as `async throws -> Bool`, the form declared here),
// UNAuthorizationOptions (an option set of `UInt`).
//
// The SDK's class is not declared Sendable on the pages; neither is it here, which is the
// stricter choice. What it cannot catch: availability; anything not declared here.
@_exported import Foundation

/// `struct UNAuthorizationOptions: OptionSet`.
@available(iOS 10, macOS 10.14, tvOS 10, watchOS 3, visionOS 1, *)
public struct UNAuthorizationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
}

/// `class UNUserNotificationCenter: NSObject`.
@available(iOS 10, macOS 10.14, tvOS 10, watchOS 3, visionOS 1, *)
open class UNUserNotificationCenter: NSObject {
    /// `class func current() -> UNUserNotificationCenter`.
    open class func current() -> UNUserNotificationCenter { fatalError("stub") }
    /// The async form of `requestAuthorization(options:completionHandler:)`.
    open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool { false }
}
