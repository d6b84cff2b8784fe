// What the fragments of Docs/PassingDownTheHierarchy.md take from the app around them.
import MetaController

final class FeedScreen: MetaControllerConsumer {
    var metaController: MetaController?
}
final class ProfileScreen: MetaControllerConsumer {
    var metaController: MetaController?
}
nonisolated protocol PaymentController: AnyObject, Sendable {}
enum PaymentControllerKey: MetaControllerKey { typealias Value = any PaymentController }

@MainActor final class Window {
    var rootViewController: AnyObject?
}

extension Example {
    var detail: FeedScreen { FeedScreen() }
    var screen: FeedScreen { FeedScreen() }
    var tabsScreen: FeedScreen { FeedScreen() }
    var window: Window { Window() }
}

nonisolated enum InboxSignals {
    static let unreadChanged = Signal<Int>("unreadChanged")
}
