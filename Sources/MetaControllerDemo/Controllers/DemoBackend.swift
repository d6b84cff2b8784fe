import Foundation
import MetaController
import MetaControllerTesting

/// The demo's server: a `MockAPIServer` on 127.0.0.1, started in-process, so
/// the real `URLSessionApiController` makes real HTTP requests with no outside server.
final class DemoBackend {
    private let server = MockAPIServer()

    static let feed = [
        FeedItem(id: 1, title: "Singletons considered harmful"),
        FeedItem(id: 2, title: "Passing dependencies down"),
        FeedItem(id: 3, title: "Testing with fakes"),
    ]

    /// Starts the server. - Throws: `MockAPIServerError` when no port can be had.
    init() throws {
        server.route(.get, "/feed", response: .json(Self.feed))
        // Comments are down, so the demo shows how a failure reaches the log.
        server.route(.get, "/feed/:id/comments", response: .text("comments are resting", statusCode: 503))
        try server.start()
    }

    var baseURL: URL { server.baseURL }

    func stop() { server.stop() }
}

/// One entry of the feed.
struct FeedItem: Codable, Sendable {
    let id: Int
    let title: String
}
