import Foundation
import Hummingbird
import MetaController
import NotesServer

// docs:begin main
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notes-server")
let app = try makeAppMetaController(storingIn: directory)
let server = makeApplication(app: app, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
try await server.runService()   // SIGTERM or SIGINT: stop serving, then flush the log
// docs:end main
