public import Foundation
public import MetaController

// docs:begin bootstrap
/// Builds the app-wide MetaController once, at startup.
///
/// - Parameters:
///   - directory: Where the notes are stored.
///   - logController: Where every line goes; JSON lines on standard error unless a test passes its own.
public func makeAppMetaController(
    storingIn directory: URL,
    logController: any LogController = StandardLogController(destinations: [StreamLogDestination(format: .jsonLines)])
) throws -> MetaController {
    let app = MetaController()
    app.logController = logController
    app.dataController = try FileDataController(directory: directory)
    app[NotesControllerKey.self] = StoredNotesController()   // receives `app` (the push on set)
    return app
}
// docs:end bootstrap
