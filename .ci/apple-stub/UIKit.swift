// A stub of Apple's UIKit for compile checks on Linux (.ci/check-apple). It is not UIKit: no
// view, no application, no behaviour; only what this package uses, with the shapes and the actor
// isolation of the iOS 26 SDK. UIKit's umbrella header imports Foundation, so this re-exports it.
//
// Pages consulted (developer.apple.com/documentation/uikit/...): UIViewController
// (`@MainActor class UIViewController`, iOS 2, tvOS, visionOS 1), UIViewController/children
// (`var children: [UIViewController] { get }`, iOS 5), UIApplication (`@MainActor class
// UIApplication`), UIApplication/shared, UIApplication/registerForRemoteNotifications() (iOS 8,
// visionOS 1; not tvOS per the page). UIResponder's own page was not found by the search; it is
// `@MainActor` here because its subclasses' pages show `@MainActor class` and the SDK isolates
// the whole UIResponder hierarchy.
//
// What it cannot catch: availability (the Linux compiler ignores Apple platforms' versions);
// Objective-C behaviour (dynamic dispatch, `@objc` selectors); anything not declared here.
@_exported import Foundation

/// `@MainActor class UIResponder: NSObject`.
@available(iOS 2, tvOS 9, visionOS 1, *)
@MainActor
open class UIResponder: NSObject {}

/// `@MainActor class UIViewController: UIResponder`.
@available(iOS 2, tvOS 9, visionOS 1, *)
@MainActor
open class UIViewController: UIResponder {
    /// `var children: [UIViewController] { get }`.
    open var children: [UIViewController] { [] }
}

/// `@MainActor class UIApplication: UIResponder`.
@available(iOS 2, tvOS 9, visionOS 1, *)
@MainActor
open class UIApplication: UIResponder {
    /// `class var shared: UIApplication { get }`.
    open class var shared: UIApplication { fatalError("stub") }
    /// `func registerForRemoteNotifications()`.
    open func registerForRemoteNotifications() {}
}
