import Foundation
public import HTTPTypes
public import Hummingbird
public import MetaController

// docs:begin middleware
/// Gives every request a scope: a child MetaController of the app's, and log metadata that
/// every line logged while serving the request carries, whichever controller logs it.
public struct RequestScopeMiddleware: RouterMiddleware {
    /// The app-wide MetaController each request's scope falls back to.
    public let app: MetaController

    /// Creates the middleware.
    /// - Parameter app: The app-wide MetaController.
    public init(app: MetaController) { self.app = app }

    /// Runs the rest of the chain inside the request's scope.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Its context; the chain after this middleware sees `metaController` set.
    ///   - next: The rest of the chain.
    public func handle(
        _ request: Request, context: NotesRequestContext,
        next: (Request, NotesRequestContext) async throws -> Response
    ) async throws -> Response {
        let id = request.headers[.requestID] ?? UUID().uuidString
        let user = request.headers[.user] ?? "anonymous"
        var context = context
        // The request's own scope, with a bus of its own: what it dispatches, no other request hears.
        context.metaController = MetaController(parent: app, signals: Signals())
        return try await LogMetadata.withValues(["req": id, "user": user]) {
            try await next(request, context)
        }
    }
}

extension HTTPField.Name {
    /// `X-Request-ID`: the caller's id for the request, logged with every line.
    public static let requestID = Self("X-Request-ID")!
    /// `User`: who the notes belong to (a real service would authenticate).
    public static let user = Self("User")!
}
// docs:end middleware
