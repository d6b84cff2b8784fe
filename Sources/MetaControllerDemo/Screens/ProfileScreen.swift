import MetaController

/// The second tab: reads the app-defined session controller.
@MainActor
final class ProfileScreen: @MainActor MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.custom(SessionControllerKey.self)]

    var metaController: MetaController?

    func viewDidAppear() {
        infoLog("signed in as \(sessionController?.userName ?? "nobody")")
    }
}
