import Benchmark
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MetaController
import MetaControllerTesting

/// Scenario 6: a GET to a MockAPIServer through URLSessionApiController and
/// through a bare URLSession.
enum ApiBenchmarks {
    /// A server on loopback and the two clients, made in a benchmark's setup.
    final class Fixture {
        let server = MockAPIServer()
        var url: URL?
        var session: URLSession?
        var api: URLSessionApiController?

        func start() throws {
            server.route(.get, "/item", response: .json(["id": 1]))
            try server.start()
            url = server.baseURL.appendingPathComponent("item")
            session = URLSession(configuration: .ephemeral)
            api = URLSessionApiController(baseURL: server.baseURL, configuration: .ephemeral)
        }

        func stop() {
            session?.invalidateAndCancel()
            server.stop()
        }
    }

    static func register() {
        let bare = Fixture()
        Benchmark(
            "api-get-urlsession",
            configuration: Workload.single(
                maxDuration: .seconds(3), maxIterations: 3_000, warmupIterations: 20,
                setup: { try bare.start() }, teardown: { bare.stop() })
        ) { _ in
            let data = await get(bare.url!, bare.session!)
            precondition(data > 0)
        }

        let controller = Fixture()
        Benchmark(
            "api-get-controller",
            configuration: Workload.single(
                maxDuration: .seconds(3), maxIterations: 3_000, warmupIterations: 20,
                setup: { try controller.start() }, teardown: { controller.stop() })
        ) { _ in
            let response = try! await controller.api!.send(ApiRequest(.get, "/item"))
            blackHole(response)
        }
    }

    private static func get(_ url: URL, _ session: URLSession) async -> Int {
        await withCheckedContinuation { continuation in
            session.dataTask(with: URLRequest(url: url)) { data, _, _ in
                continuation.resume(returning: data?.count ?? 0)
            }.resume()
        }
    }
}
