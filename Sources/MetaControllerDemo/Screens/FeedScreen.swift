import MetaController

/// The first tab: loads the feed through the API controller and opens an item
/// with a segue-like transition.
@MainActor
final class FeedScreen: @MainActor MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.api, .log]

    var metaController: MetaController?
    private var items: [FeedItem] = []
    weak var host: TabBarScreen?

    func viewDidAppear() async {
        do {
            items = try await apiController?.get("/feed", decoding: [FeedItem].self) ?? []
            infoLog("showing \(items.count) items")
            sessionController?.unreadCount.set(items.count)
        } catch {
            errorLog("cannot load the feed: \(error)")
        }
    }

    /// Called when a push announces a new item.
    func newItemArrived(_ itemID: Int) {
        infoLog("a push announced item \(itemID); the feed will show it on the next refresh")
    }

    func didSelectItem(at index: Int) async {
        guard items.indices.contains(index) else {
            warningLog("no item at \(index)")
            return
        }
        // The "storyboard" makes the destination: a detail screen inside its own navigation stack.
        let segue = Segue(identifier: "showDetail", destination: NavigationStack(root: DetailScreen()))
        await prepare(for: segue, item: items[index])
    }

    /// As in `prepare(for:sender:)`: the destination's class is not needed to
    /// hand it the MetaController; the navigation stack is unwrapped by the walk.
    func prepare(for segue: Segue, item: FeedItem) async {
        passMetaController(to: segue.destination)
        guard let stack = segue.destination as? NavigationStack else { return }
        stack.detail?.item = item
        debugLog("performing \(segue.identifier) for item \(item.id)")
        host?.present(stack)
        await stack.detail?.viewDidAppear()
    }
}
