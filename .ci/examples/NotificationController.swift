// What the fragments of Docs/NotificationController.md take from the app around them.
import MetaController

@MainActor final class Router {
    func showInvitation(_ gameID: String?) {}
}
@MainActor let router = Router()
