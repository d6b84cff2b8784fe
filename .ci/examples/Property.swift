// What the fragments of Docs/Property.md take from the app around them: the first block's
// `self` is the tab bar screen.
import MetaController

nonisolated protocol SessionController: AnyObject, Sendable {
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

/// NotesController is "a plain controller, not on the main actor": a task in no actor calls it
/// (in the Xcode 26 setting, main actor by default, only if it is declared `nonisolated`).
func addInBackground(_ controller: NotesController) async {
    await Task.detached { controller.add("from a background task") }.value
}
