import MetaController

/// The second tab: reads the app-defined session controller.
@MainActor
final class ProfileScreen: @MainActor MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.custom(SessionControllerKey.self)]

    var metaController: MetaController?
    private var shares = 0

    /// Listens to a signal that another screen dispatches.
    func viewDidLoad() {
        do {
            try signals?.add(self, to: AppSignals.itemShared) { @MainActor profile, item in
                profile.didShare(item)
            }
        } catch {
            errorLog("cannot listen: \(error)")
        }
    }

    private func didShare(_ item: FeedItem) {
        shares += 1
        infoLog("heard that item \(item.id) was shared (\(shares) so far)")
    }

    func viewDidAppear() {
        infoLog("signed in as \(sessionController?.userName ?? "nobody")")
    }
}
