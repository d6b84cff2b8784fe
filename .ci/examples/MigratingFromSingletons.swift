// What the fragments of Docs/MigratingFromSingletons.md take from the app around them.
import MetaController

final class AppLogController: LogController {
    func log(_ entry: LogEntry) {}
}

final class ApiManager: Sendable {
    static let shared = ApiManager()
    func fetchFeed() {}
    func perform(_ request: ApiRequest) async throws(ApiError) -> ApiResponse { fatalError() }
}

@MainActor final class Window {
    var rootViewController: AnyObject?
}

extension Example {
    var window: Window? { nil }
}

@MainActor final class FeedViewController: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
}
