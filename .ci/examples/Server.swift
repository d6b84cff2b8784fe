// What the plain blocks of Docs/Server.md take from the app around them (the others are
// regions of Examples/NotesServer/, which its own build compiles).
import MetaController

/// A request handled off the main actor, as a server does: the handler works from any actor,
/// also in the Xcode 26 setting.
actor RequestWorker {
    func serve(app: MetaController, user: String) async throws -> [String] {
        let request = MetaController(parent: app, signals: Signals())
        return try await OrdersHandler(metaController: request).orders(of: user)
    }
}
