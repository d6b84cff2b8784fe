import MetaController

/// The second tab: reads the app-defined session controller, and keeps the
/// user's share history through the data controller.
///
/// The data controller is not among its requirements: the store opens after launch (see
/// `AppDelegate.didFinishLaunching()`), and the screen, passed its MetaController at launch,
/// reads `nil` until then and the store from then on, with no pass of its own.
@MainActor
final class ProfileScreen: @MainActor MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.custom(SessionControllerKey.self)]

    var metaController: MetaController?
    private var shares = 0

    /// Listens to a signal that another screen dispatches.
    func viewDidLoad() {
        if dataController == nil { infoLog("share history: the data store is still opening") }
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
        saveAndReloadHistory()
    }

    /// Saves what the user did and reads it back, as the next launch would.
    private func saveAndReloadHistory() {
        guard let dataController else { return }
        do {
            try dataController.save(ShareHistory(userName: sessionController?.userName ?? "", shares: shares), forKey: "share-history")
            infoLog("saved share history: \(shares) share(s)")
            let reloaded = try dataController.fetch(ShareHistory.self, forKey: "share-history")
            infoLog("reloaded share history: \(reloaded?.shares ?? 0) share(s) by \(reloaded?.userName ?? "nobody")")
        } catch {
            errorLog("cannot keep the share history: \(error)")
        }
    }
}

/// What the profile screen keeps between launches.
struct ShareHistory: Codable {
    let userName: String
    let shares: Int
}
