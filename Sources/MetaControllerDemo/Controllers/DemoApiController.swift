import MetaController

/// An API controller that answers from memory. It is a consumer too, so the
/// MetaController is pushed into it on set and it logs through the log controller.
final class DemoApiController: ApiController, MetaControllerConsumer {
    private let reference = WeakMetaControllerReference()

    var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    func send(_ request: ApiRequest) async throws(ApiError) -> ApiResponse {
        throw ApiError.transport("the demo has no server yet", for: request)
    }

    func fetchFeed() -> [FeedItem] {
        let items = [
            FeedItem(id: 1, title: "Singletons considered harmful"),
            FeedItem(id: 2, title: "Passing dependencies down"),
            FeedItem(id: 3, title: "Testing with fakes"),
        ]
        debugLog("GET /feed -> \(items.count) items")
        return items
    }
}

/// One entry of the feed.
struct FeedItem: Sendable {
    let id: Int
    let title: String
}
