import Foundation
import Hummingbird
import Logging
import MetaController
import MetaControllerSwiftLog
import NotesServer

// docs:begin main
// One log for everything: Hummingbird's own lines (through swift-log) and the app's.
let log = StandardLogController(destinations: [StreamLogDestination(format: .jsonLines)])
LoggingSystem.bootstrap { _ in MetaControllerLogHandler(logController: log) }

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notes-server")
let app = try makeAppMetaController(storingIn: directory, logController: log)
let server = makeApplication(app: app, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
try await server.runService()   // SIGTERM or SIGINT: stop serving, then flush the log
// docs:end main
