// watchOS has UIKit but no UIViewController.
#if canImport(UIKit) && !os(watchOS)
import Foundation
import UIKit

extension PlatformHierarchy {
    /// A view controller's child view controllers: the stack of a
    /// `UINavigationController`, the tabs of a `UITabBarController`, the columns
    /// of a `UISplitViewController`, and any custom container's children.
    ///
    /// UIKit is main-actor bound; off the main thread a view controller is
    /// treated as having no children rather than touched from the wrong thread.
    static func children(of object: AnyObject) -> [AnyObject] {
        guard let viewController = object as? UIViewController, Thread.isMainThread else { return [] }
        return MainActor.assumeIsolated { viewController.children }
    }
}
#endif
