// What the fragments of Docs/TestingWithFakes.md take from the app around them.
import MetaController

final class FeedScreen: MetaControllerConsumer, Sendable {
    var metaController: MetaController? { get { nil } set {} }
    func refresh() {}
}
final class LocationUpdater: MetaControllerConsumer, Sendable {
    var metaController: MetaController? { get { nil } set {} }
    func updateLocation() {}
}
nonisolated protocol UserController: AnyObject, Sendable {
    var currentUserName: String? { get }
}
enum UserControllerKey: MetaControllerKey { typealias Value = any UserController }
final class FailingApiController: ApiController {
    func send(_ request: ApiRequest) async throws(ApiError) -> ApiResponse { fatalError() }
}
final class CheckoutScreen: MetaControllerConsumer, Sendable {
    var metaController: MetaController? { get { nil } set {} }
}
@MainActor final class RootViewController {}
enum AppBootstrap {
    static func makeMetaController() -> MetaController { MetaController() }
}
nonisolated struct Item: Sendable {
    let id: Int
}
