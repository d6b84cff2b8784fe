import Foundation
import MetaController

/// Plays the part of `UIApplicationDelegate`: builds the MetaController once
/// and hands it to the root of the screen tree.
@MainActor
final class AppDelegate {
    private(set) var metaController: MetaController?
    private(set) var window: Window?
    private var backend: DemoBackend?
    private var dataDirectory: URL?

    /// The one place where controllers are made: no singletons anywhere else.
    func didFinishLaunching() throws {
        let backend = try DemoBackend()
        let metaController = MetaController()
        metaController.logController = StandardLogController(
            minimumLevel: .debug, destinations: [StreamLogDestination(.standardOutput)])
        // The real API controller, talking HTTP to the demo's in-process server.
        metaController.apiController = URLSessionApiController(baseURL: backend.baseURL, timeout: .seconds(10))
        metaController.sessionController = DemoSessionController(userName: "ada")
        // App data goes to a temporary directory, removed when the demo ends.
        let dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("metacontroller-demo-\(ProcessInfo.processInfo.processIdentifier)")
        metaController.dataController = try FileDataController(directory: dataDirectory)
        // Location and notification controllers arrive with later releases;
        // the settings screen needs the notification one, and the audit will say so.
        metaController.install(ShareAssembly())

        let feedStack = NavigationStack(root: FeedScreen())
        let root = TabBarScreen(tabs: [feedStack, ProfileScreen(), SettingsScreen()])
        let window = Window(root: root)
        metaController.passMetaController(to: window.root)

        self.metaController = metaController
        self.window = window
        self.backend = backend
        self.dataDirectory = dataDirectory
    }

    /// What a user does after launch: the feed appears, an item is tapped, the
    /// detail screen shares it.
    func simulateUserSession() async {
        guard let root = window?.root else { return }
        let profile = root.tabs.compactMap { $0 as? ProfileScreen }.first
        profile?.viewDidLoad()
        root.viewDidAppear()
        await root.feed?.viewDidAppear()
        await root.feed?.didSelectItem(at: 1)
        root.presented?.detail?.share()
        profile?.viewDidAppear()
    }

    /// What the app does when it is about to end: write out the log, stop the server.
    func willTerminate() {
        (metaController?.logController as? StandardLogController)?.flush()
        backend?.stop()
        if let dataDirectory { try? FileManager.default.removeItem(at: dataDirectory) }
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
