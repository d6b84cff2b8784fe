import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// An app-wide controller that logs through the parent MetaController, as a server's shared controllers do.
private final class NotesController: MetaControllerConsumer, Sendable {
    private let reference = WeakMetaControllerReference()
    var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    func list(owner: String) -> [String] {
        infoLog("listed notes of \(owner)")
        return []
    }
}

private enum NotesControllerKey: MetaControllerKey {
    typealias Value = NotesController
}

/// A request handler in server style: a Sendable struct that reads its request's MetaController.
private struct NotesHandler: MetaControllerReader, Sendable {
    let metaController: MetaController?

    func handle(request: Int) async {
        debugLog("handling \(request)")
        _ = self[NotesControllerKey.self]?.list(owner: "user\(request % 40)")
        await Task.yield()
        infoLog("handled \(request)", metadata: ["status": "200"])
    }
}

struct RequestScopeTests {
    /// 200 concurrent requests, each in a child MetaController and a metadata scope; the shared
    /// controllers log through the app's MetaController, and every line carries its own request's id.
    @Test func everyLineOfConcurrentRequestsCarriesItsOwnRequestsMetadata() async {
        let app = MetaController()
        let log = FakeLogController()
        app.logController = log
        let notes = NotesController()
        app[NotesControllerKey.self] = notes
        await withTaskGroup(of: Void.self) { group in
            for request in 0..<200 {
                group.addTask {
                    await LogMetadata.withValues(["req": "\(request)"]) {
                        let scope = MetaController(parent: app)
                        await NotesHandler(metaController: scope).handle(request: request)
                    }
                }
            }
        }
        let entries = log.entries
        #expect(entries.count == 600)
        for entry in entries {
            let request = entry.metadata["req"] ?? "none"
            #expect(entry.message.hasSuffix(" \(request)") || entry.message.hasSuffix("user\((Int(request) ?? -1) % 40)"))
        }
        let requests = Dictionary(grouping: entries, by: { $0.metadata["req"] ?? "none" })
        #expect(requests.count == 200 && requests.values.allSatisfy { $0.count == 3 })
    }

    /// Two threads, each in its own scope, log through one shared controller at once.
    @Test func twoThreadsLoggingThroughOneControllerKeepTheirOwnMetadata() async {
        let log = FakeLogController()
        let app = MetaController()
        app.logController = log
        let reader = NotesHandler(metaController: app)
        await withTaskGroup(of: Void.self) { group in
            for thread in ["a", "b"] {
                group.addTask {
                    LogMetadata.withValues(["thread": thread]) {
                        for index in 0..<500 { reader.infoLog("\(thread) \(index)") }
                    }
                }
            }
        }
        #expect(log.entries.count == 1000)
        #expect(log.entries.allSatisfy { $0.message.hasPrefix($0.metadata["thread"] ?? "none") })
    }
}
