// What the fragments of Docs/Property.md take from the app around them: the first block's
// `self` is the tab bar screen.
import MetaController

protocol SessionController: AnyObject, Sendable {
    var unreadCount: Property<Int> { get }
}

extension Example {
    var session: AppSessionController { AppSessionController() }
    var items: [String] { [] }
    var screen: ItemScreen { ItemScreen() }
    var item: String { "item" }
    func showBadge(_ count: Int) {}
}

@MainActor final class ItemScreen {
    func open(_ item: String) {}
}
