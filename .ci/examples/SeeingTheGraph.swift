// What the fragments of Docs/SeeingTheGraph.md take from the app around them.
import MetaController

final class FeedScreen: MetaControllerConsumer, Sendable {
    var metaController: MetaController? { get { nil } set {} }
}
final class CheckoutScreen: MetaControllerConsumer, Sendable {
    var metaController: MetaController? { get { nil } set {} }
}
enum AppBootstrap {
    static func makeMetaController() -> MetaController { MetaController() }
}
nonisolated struct Item: Sendable {
    let id: Int
}
