public import Hummingbird
public import MetaController

// docs:begin routes
/// Builds the notes service on an app-wide MetaController.
///
/// - Parameters:
///   - app: The app-wide MetaController, from ``makeAppMetaController(storingIn:logController:)``.
///   - configuration: Where to listen.
public func makeApplication(
    app: MetaController, configuration: ApplicationConfiguration = .init()
) -> some ApplicationProtocol {
    let router = Router(context: NotesRequestContext.self)
    router.add(middleware: RequestScopeMiddleware(app: app))
    router.get("/notes") { request, context -> [String] in
        let user = request.headers[.user] ?? "anonymous"
        guard let notes = context[NotesControllerKey.self] else { throw HTTPError(.serviceUnavailable) }
        return try await notes.notes(of: user).map(\.text)
    }
    router.post("/notes") { request, context -> HTTPResponse.Status in
        let user = request.headers[.user] ?? "anonymous"
        let text = String(buffer: try await request.body.collect(upTo: 64 * 1024))
        guard let notes = context[NotesControllerKey.self] else { throw HTTPError(.serviceUnavailable) }
        try await notes.add(Note(text: text), for: user)
        context.infoLog("added a note")
        return .created
    }
    var application = Application(router: router, configuration: configuration)
    application.addServices(LogFlushService(app: app))
    return application
}
// docs:end routes
