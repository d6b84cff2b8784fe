import MetaController

/// Shows one item; makes a share sheet at run time through a factory.
@MainActor
final class DetailScreen: @MainActor MetaControllerConsumer, @MainActor MetaControllerContainer {
    var metaController: MetaController?
    var item: FeedItem?
    private(set) var shareSheet: ShareSheet?

    var metaControllerChildren: [AnyObject] { shareSheet.map { [$0] } ?? [] }

    func viewDidAppear() {
        infoLog("showing \"\(item?.title ?? "nothing")\"")
        if let unread = sessionController?.unreadCount { unread.set(max(0, unread.value - 1)) }
    }

    func share() {
        guard let item, let metaController else { return }
        do {
            shareSheet = try metaController.make(ShareSheet.self, argument: item)
            shareSheet?.viewDidAppear()
        } catch {
            errorLog("cannot share: \(error)")
        }
    }
}
