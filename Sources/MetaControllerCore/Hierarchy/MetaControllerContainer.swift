/// An object that contains other objects a MetaController should reach: a
/// navigation stack, a tab bar, a split view, a list of cells.
///
/// Passing a MetaController to a container passes it on to each of its
/// children, and to theirs, depth first, in the order the children are listed.
/// The container need not be a consumer itself. The caller never needs the
/// children's classes: only consumers among them take the MetaController.
///
/// ```swift
/// final class TabsScreen: MetaControllerConsumer, MetaControllerContainer {
///     var metaController: MetaController?
///     var tabs: [AnyObject] = [FeedScreen(), ProfileScreen()]
///     var metaControllerChildren: [AnyObject] { tabs }
/// }
///
/// metaController.passMetaController(to: tabsScreen)   // reaches both tabs
/// ```
///
/// On UIKit, every `UIViewController` is already treated as a container of
/// its `children` (so a `UINavigationController`, `UITabBarController` or
/// `UISplitViewController` passes on to the screens it holds) unless it adopts
/// this protocol, which then decides.
public protocol MetaControllerContainer: AnyObject {
    /// The objects a MetaController passed to this one should reach next.
    var metaControllerChildren: [AnyObject] { get }
}
