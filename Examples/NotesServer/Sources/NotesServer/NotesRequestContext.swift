public import Hummingbird
public import MetaController

// docs:begin context
/// Hummingbird's per-request context, carrying the request's MetaController.
///
/// It adopts ``MetaControllerReader``, so route handlers read controllers and log through it:
/// `context[NotesControllerKey.self]`, `context.infoLog("...")`.
public struct NotesRequestContext: RequestContext, MetaControllerReader {
    /// Hummingbird's own storage.
    public var coreContext: CoreRequestContextStorage
    /// The request's scope; set by ``RequestScopeMiddleware`` before any handler runs.
    public var metaController: MetaController?

    /// Creates the context of a new request; Hummingbird calls it.
    /// - Parameter source: What Hummingbird knows of the request's channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
// docs:end context
