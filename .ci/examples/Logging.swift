// What the fragments of Docs/Logging.md take from the app around them.
import Foundation
import MetaController

let logsURL = FileManager.default.temporaryDirectory
let log = StandardLogController(minimumLevel: .debug, destinations: [])

func reportToSupport(_ text: String) {}

nonisolated enum CrashReporter {
    static func breadcrumb(_ text: String) {}
}

extension Example {
    var email: String { "ada@example.com" }
    var token: String { "secret" }
    var notes: [String] { ["a", "b", "c"] }
    var userID: String { "ada" }
    var screen: FeedScreen { FeedScreen() }
}

@MainActor final class FeedScreen: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
    func reload() {}
}

/// What a request handler serves, in the scope example.
func serve() async throws {}
