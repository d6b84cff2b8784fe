import MetaController

/// Plays the part of `UINavigationController`: a container, not a consumer.
/// Passing a MetaController to it reaches every screen on its stack.
@MainActor
final class NavigationStack: @MainActor MetaControllerContainer {
    private(set) var screens: [AnyObject]

    init(root: AnyObject) { screens = [root] }

    var metaControllerChildren: [AnyObject] { screens }

    var detail: DetailScreen? { screens.last as? DetailScreen }
}
