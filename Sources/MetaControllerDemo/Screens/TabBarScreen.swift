import MetaController

/// Plays the part of `UITabBarController`: a consumer and a container of its
/// tabs and of whatever it presents.
@MainActor
final class TabBarScreen: @MainActor MetaControllerConsumer, @MainActor MetaControllerContainer {
    var metaController: MetaController?
    let tabs: [AnyObject]
    var presented: NavigationStack?

    init(tabs: [AnyObject]) {
        self.tabs = tabs
        feed?.host = self
    }

    var metaControllerChildren: [AnyObject] { tabs + (presented.map { [$0] } ?? []) }

    var feed: FeedScreen? {
        tabs.lazy.compactMap { ($0 as? NavigationStack)?.screens.first as? FeedScreen }.first
    }

    func viewDidAppear() {
        infoLog("\(tabs.count) tabs ready")
        // Observe a Property of a controller: the screen is held weakly and handed back.
        sessionController?.unreadCount.subscribe(self, replay: true) { @MainActor tabBar, count in
            tabBar.showBadge(count)
        }
    }

    private func showBadge(_ count: Int) {
        debugLog("feed tab badge shows \(count)")
    }

    func present(_ stack: NavigationStack) {
        presented = stack
    }
}
