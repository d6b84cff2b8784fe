import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// A whole app graph, used and torn down: nothing of it may stay alive.
@Suite struct AppGraphLeakTests {
    private final class Screen: MetaControllerConsumer, Sendable {
        private let reference = WeakMetaControllerReference()
        var metaController: MetaController? {
            get { reference.metaController }
            set { reference.metaController = newValue }
        }
    }

    private static let ping = Signal<Int>("leak-test-ping")

    /// Weak references to everything the graph made.
    private struct Watched {
        weak var metaController: MetaController?
        weak var log: StandardLogController?
        weak var file: FileLogDestination?
        weak var api: URLSessionApiController?
        weak var data: FileDataController?
        weak var location: SimulatedLocationController?
        weak var notifications: StandardNotificationController?
        weak var screen: Screen?
        weak var signals: Signals?
        weak var badge: Property<Int>?
        weak var server: MockAPIServer?

        var survivors: [String] {
            var names: [String] = []
            if metaController != nil { names.append("MetaController") }
            if log != nil { names.append("StandardLogController") }
            if file != nil { names.append("FileLogDestination") }
            if api != nil { names.append("URLSessionApiController") }
            if data != nil { names.append("FileDataController") }
            if location != nil { names.append("SimulatedLocationController") }
            if notifications != nil { names.append("StandardNotificationController") }
            if screen != nil { names.append("Screen") }
            if signals != nil { names.append("Signals") }
            if badge != nil { names.append("Property") }
            if server != nil { names.append("MockAPIServer") }
            return names
        }
    }

    private func buildUseAndDrop(in directory: URL) async throws -> Watched {
        let server = MockAPIServer()
        server.route(.get, "/ping", response: .text("pong"))
        try server.start()
        let file = try FileLogDestination(directory: directory.appendingPathComponent("logs"))
        let log = StandardLogController(minimumLevel: .debug, destinations: [file, MemoryLogDestination()])
        let api = URLSessionApiController(baseURL: server.baseURL)
        let data = try FileDataController(directory: directory.appendingPathComponent("store"))
        let route = try GPXRoute(data: Data(#"<gpx><wpt lat="1" lon="2"/><wpt lat="1.1" lon="2"/></gpx>"#.utf8))
        let location = SimulatedLocationController(route: route, sleep: { _ in })
        let notifications = StandardNotificationController()

        let metaController = MetaController()
        metaController.logController = log
        metaController.apiController = api
        metaController.dataController = data
        metaController.locationController = location
        metaController.notificationController = notifications
        let screen = Screen()
        metaController.passMetaController(to: screen)

        // Use everything, with listeners and subscribers that capture the screen weakly.
        try metaController.signals.add(screen, to: Self.ping) { screen, value in screen.debugLog("ping \(value)") }
        notifications.badgeCount.subscribe(screen) { screen, count in screen.debugLog("badge \(count)") }
        let token = location.currentLocation.observe { _ in }
        metaController.signals.dispatch(Self.ping, 1)
        _ = try await api.send(ApiRequest(.get, "/ping"))
        try await data.save(["a": 1], forKey: "k")
        await location.play()
        try notifications.receive(payload: Data(#"{"aps": {"badge": 2}}"#.utf8))
        log.flush()
        token.cancel()
        server.stop()

        return Watched(
            metaController: metaController, log: log, file: file, api: api, data: data, location: location,
            notifications: notifications, screen: screen, signals: metaController.signals,
            badge: notifications.badgeCount, server: server)
    }

    @Test func nothingOfATornDownAppGraphStaysAlive() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let watched = try await buildUseAndDrop(in: directory)
        // URLSession finishes invalidating its session on its own queue; wait for that to end,
        // not for a time: a bounded number of yields, each letting queued work run.
        var rounds = 0
        while !watched.survivors.isEmpty, rounds < 1000 {
            await Task.yield()
            rounds += 1
        }
        #expect(watched.survivors == [])
    }
}
