import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MetaController
import MetaControllerTesting

/// Requests to a MockAPIServer through URLSessionApiController and through a bare URLSession.
enum ApiBenchmarks {
    static let requests = 200

    static func run() async -> [Row] {
        let server = MockAPIServer()
        server.route(.get, "/item", response: .json(["id": 1]))
        do {
            try server.start()
        } catch {
            print("cannot start the mock server: \(error)")
            return []
        }
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("item")
        let session = URLSession(configuration: .ephemeral)
        let api = URLSessionApiController(baseURL: server.baseURL, configuration: .ephemeral)

        var bare: [Double] = [], controller: [Double] = []
        for _ in 0..<7 {
            bare.append(await time { _ = await bareRequest(url, session) })
            controller.append(await time { _ = try? await api.send(ApiRequest(.get, "/item")) })
        }
        let baseline = median(bare), measured = median(controller)
        return [
            Row("ApiController GET against MockAPIServer (\(requests) in a row)", measured, baseline),
            Row("  baseline: the same GET through a bare URLSession", baseline, baseline),
        ]
    }

    private static func time(_ operation: () async -> Void) async -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<requests { await operation() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(requests)
    }

    private static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    private static func bareRequest(_ url: URL, _ session: URLSession) async -> Int {
        await withCheckedContinuation { continuation in
            session.dataTask(with: URLRequest(url: url)) { data, _, _ in
                continuation.resume(returning: data?.count ?? 0)
            }.resume()
        }
    }
}
