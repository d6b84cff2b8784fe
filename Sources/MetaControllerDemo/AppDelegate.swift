import MetaController

/// Plays the part of `UIApplicationDelegate`: builds the MetaController once
/// and hands it to the root of the screen tree.
@MainActor
final class AppDelegate {
    private(set) var metaController: MetaController?
    private(set) var window: Window?

    /// The one place where controllers are made: no singletons anywhere else.
    func didFinishLaunching() {
        let metaController = MetaController()
        metaController.logController = ConsoleLogController(minimumLevel: .debug)
        metaController.apiController = DemoApiController()
        metaController.sessionController = DemoSessionController(userName: "ada")
        // Location, data and notification controllers arrive with later releases;
        // the settings screen needs the notification one, and the audit will say so.
        metaController.install(ShareAssembly())

        let feedStack = NavigationStack(root: FeedScreen())
        let root = TabBarScreen(tabs: [feedStack, ProfileScreen(), SettingsScreen()])
        let window = Window(root: root)
        metaController.passMetaController(to: window.root)

        self.metaController = metaController
        self.window = window
    }

    /// What a user does after launch: the feed appears, an item is tapped, the
    /// detail screen shares it.
    func simulateUserSession() {
        guard let root = window?.root else { return }
        let profile = root.tabs.compactMap { $0 as? ProfileScreen }.first
        profile?.viewDidLoad()
        root.viewDidAppear()
        root.feed?.viewDidAppear()
        root.feed?.didSelectItem(at: 1)
        root.presented?.detail?.share()
        profile?.viewDidAppear()
    }

    /// Who received the MetaController, and what the audit found.
    func printSummary() {
        guard let metaController, let root = window?.root else { return }
        let audit = metaController.audit(root)
        let received = audit.consumers.filter(\.holdsThisMetaController).map(\.typeName)
        let missed = audit.consumers.filter { !$0.holdsThisMetaController }.map(\.typeName)
        print("")
        print("Summary")
        print("  received the MetaController: \(received.joined(separator: ", "))")
        print("  consumers without it: \(missed.isEmpty ? "none" : missed.joined(separator: ", "))")
        if audit.isSatisfied {
            print("  audit: every requirement is met")
        } else {
            for report in audit.unsatisfied {
                print("  audit: \(report)")
            }
        }
    }
}

/// Plays the part of `UIWindow`: holds the root screen.
@MainActor
final class Window {
    let root: TabBarScreen
    init(root: TabBarScreen) { self.root = root }
}
