// What the fragments of Docs/Signals.md take from the app around them.
import MetaController

struct FeedItem: Sendable {
    let id: Int
    let title: String
}

extension Example {
    var item: FeedItem { FeedItem(id: 1, title: "Hello") }
}

@MainActor final class ShareSheet: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
    init(item: FeedItem) {}
    func viewDidAppear() {}
}
