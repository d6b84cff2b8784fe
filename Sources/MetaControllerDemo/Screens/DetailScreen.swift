import MetaController

/// Shows one item; makes a share sheet at run time through a factory.
@MainActor
final class DetailScreen: @MainActor MetaControllerConsumer, @MainActor MetaControllerContainer {
    var metaController: MetaController?
    var item: FeedItem?
    private(set) var shareSheet: ShareSheet?

    var metaControllerChildren: [AnyObject] { shareSheet.map { [$0] } ?? [] }

    func viewDidAppear() async {
        guard let item else { return }
        infoLog("showing \"\(item.title)\"")
        if let unread = sessionController?.unreadCount { unread.set(max(0, unread.value - 1)) }
        do {
            let comments = try await apiController?.get("/feed/\(item.id)/comments", decoding: [String].self) ?? []
            infoLog("\(comments.count) comments")
        } catch  where error.code == .httpStatus {
            // The API controller has logged the failure; the screen says what the user sees.
            warningLog("comments unavailable (HTTP \(error.statusCode ?? 0)); showing the item without them")
        } catch {
            warningLog("comments unavailable: \(error)")
        }
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
