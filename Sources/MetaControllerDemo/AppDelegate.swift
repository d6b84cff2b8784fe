import Foundation
import MetaController

/// Plays the part of `UIApplicationDelegate`: builds the MetaController once
/// and hands it to the root of the screen tree.
@MainActor
final class AppDelegate: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
    private(set) var window: Window?
    private var backend: DemoBackend?
    private var dataDirectory: URL?
    /// The data store being opened, started at launch and not waited for there.
    private var storeOpening: Task<Void, Never>?

    /// Where the log goes: standard output, or standard error when the demo prints its graph.
    private let logStream: StreamLogDestination.Stream

    init(logStream: StreamLogDestination.Stream = .standardOutput) {
        self.logStream = logStream
    }

    /// The one place where controllers are made: no singletons anywhere else.
    func didFinishLaunching() throws {
        let backend = try DemoBackend()
        let metaController = MetaController()
        metaController.logController = StandardLogController(
            minimumLevel: .debug, destinations: [StreamLogDestination(logStream)])
        // The real API controller, talking HTTP to the demo's in-process server.
        metaController.apiController = URLSessionApiController(baseURL: backend.baseURL, timeout: .seconds(10))
        metaController.sessionController = DemoSessionController(userName: "ada")
        // App data goes to a temporary directory, removed when the demo ends. Opening the store
        // touches the disk, so launch does not wait for it: a task opens it off the main actor and
        // sets the slot when it is open; until then the slot is empty, and the screens read `nil`
        // (Docs/Bootstrapping.md, "A controller that needs async set-up").
        let dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("metacontroller-demo-\(ProcessInfo.processInfo.processIdentifier)")
        storeOpening = Task {
            do {
                metaController.dataController = try await Self.openDataStore(in: dataDirectory)
                metaController.infoLog("data store open")
            } catch {
                metaController.errorLog("the data store did not open: \(error)")
            }
        }
        metaController.notificationController = makeNotificationController()
        // A walk played back from a GPX route; an app would use DeviceLocationController.
        metaController.locationController = try DemoRoute.makeController()
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

    /// Opens the app's data store: it creates its directory and clears what a crash left, so it
    /// runs off the main actor (`@concurrent`), and launch goes on meanwhile.
    @concurrent
    nonisolated private static func openDataStore(in directory: URL) async throws -> FileDataController {
        try FileDataController(directory: directory)
    }

    /// Returns once the data store opened at launch is in its slot (or failed to open).
    func dataStoreOpened() async {
        await storeOpening?.value
    }

    /// What a user does after launch: the feed appears, an item is tapped, the
    /// detail screen shares it.
    func simulateUserSession() async {
        guard let root = window?.root else { return }
        let profile = root.tabs.compactMap { $0 as? ProfileScreen }.first
        profile?.viewDidLoad()   // the store is still opening: the profile reads an empty slot
        root.viewDidAppear()
        // An app goes on at once, and its screens find the store in the slot when they next read
        // it. The demo waits for it here, so that its output is the same on every run.
        await dataStoreOpened()
        await root.feed?.viewDidAppear()
        await root.feed?.didSelectItem(at: 1)
        root.presented?.detail?.share()
        profile?.viewDidAppear()
        await walk()
        didReceiveRemoteNotification(SamplePush.newItem)
        didReceiveRemoteNotification(SamplePush.broken)
        await Task.yield()   // let the handler's main-actor task run
    }

    /// Shows the settings tab and plays the demo's GPX route through the location controller.
    private func walk() async {
        guard let settings = window?.root.tabs.compactMap({ $0 as? SettingsScreen }).first,
            let location = metaController?.locationController as? SimulatedLocationController
        else { return }
        settings.viewDidAppear()
        infoLog("walking \(location.route.points.count) points of the demo route")
        await location.play()
    }

    /// Routes pushes by category: new feed items go to the feed.
    private func makeNotificationController() -> StandardNotificationController {
        let notifications = StandardNotificationController()
        notifications.handle(category: "NEW_ITEM") { [weak self] notification in
            let itemID = notification.customValues["itemID"]?.intValue ?? 0
            Task { @MainActor in self?.window?.root.feed?.newItemArrived(itemID) }
        }
        return notifications
    }

    /// As `application(_:didReceiveRemoteNotification:)`: hand the payload to the controller.
    func didReceiveRemoteNotification(_ payload: Data) {
        guard let notifications = metaController?.notificationController else { return }
        do {
            let notification = try notifications.receive(payload: payload)
            var title = "no title"
            if case .text(let text)? = notification.alert?.title { title = text }
            infoLog("push received: \"\(title)\", category \(notification.category ?? "none"), badge \(notification.badge ?? 0)")
        } catch {
            errorLog("push refused: \(error)")
        }
    }

    /// What the app does when it is about to end: write out the log, stop the server.
    func willTerminate() {
        metaController?.logController?.flush()
        backend?.stop()
        if let dataDirectory { try? FileManager.default.removeItem(at: dataDirectory) }
    }

    /// The graph of the MetaController built at launch, verified with the
    /// screens the demo shows: `--graph` prints it as Mermaid, `--graph dot`
    /// as GraphViz DOT, `--graph text` as the text a snapshot test compares.
    func graph() -> MetaControllerGraph? {
        metaController?.graph(
            consumers: [
                TabBarScreen.self, FeedScreen.self, DetailScreen.self, ProfileScreen.self, SettingsScreen.self,
            ],
            samples: [FactorySample(FeedItem(id: 1, title: "A sample item"))])
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
