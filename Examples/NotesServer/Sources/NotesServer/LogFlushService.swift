public import MetaController
public import ServiceLifecycle

// docs:begin shutdown
/// Flushes the app's log when the service group shuts down.
///
/// Hummingbird's application stops its server first (the group shuts services down in the
/// reverse of their order, and the server comes after the services added with `addServices`),
/// so the lines of the last requests are written before the flush.
public struct LogFlushService: Service {
    /// The app-wide MetaController whose log controller is flushed.
    public let app: MetaController

    /// Creates the service.
    /// - Parameter app: The app-wide MetaController.
    public init(app: MetaController) { self.app = app }

    /// Waits for the group's graceful shutdown (or cancellation), then flushes the log.
    public func run() async {
        try? await gracefulShutdown()
        app.logController?.flush()
    }
}
// docs:end shutdown
