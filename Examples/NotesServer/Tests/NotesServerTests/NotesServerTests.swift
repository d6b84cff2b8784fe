import Foundation
import Hummingbird
import HummingbirdTesting
import MetaController
import MetaControllerTesting
import NotesServer
import Testing

// docs:begin testing
@Suite struct NotesServerTests {
    /// The app-wide MetaController of a test: fakes, and the real notes controller.
    func makeApp() -> MetaController {
        let app = MetaController.withFakes()
        app[NotesControllerKey.self] = StoredNotesController()
        return app
    }

    @Test func addedNotesAreListed() async throws {
        let app = makeApp()
        try await makeApplication(app: app).test(.router) { client in
            let headers: HTTPFields = [.user: "ada", .requestID: "r1"]
            try await client.execute(uri: "/notes", method: .post, headers: headers, body: ByteBuffer(string: "milk")) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/notes", method: .get, headers: headers) {
                #expect(String(buffer: $0.body) == #"["milk"]"#)
            }
        }
        // Every line of the request carries its metadata, the shared controller's lines included.
        let lines = app.fakeLogController?.entries ?? []
        #expect(lines.map(\.message) == ["saved a note", "added a note", "listed 1 notes"])
        #expect(lines.allSatisfy { $0.metadata == ["req": "r1", "user": "ada"] })
    }
}
// docs:end testing

extension NotesServerTests {
    /// 200 requests at once across 40 users: each line carries its own request's id and user, and
    /// every note arrives (run under the thread sanitizer in CI).
    @Test func concurrentRequestsKeepTheirOwnMetadata() async throws {
        let app = makeApp()
        let requests = (0..<200).map { (id: "req-\($0)", user: "user\($0 % 40)") }
        try await makeApplication(app: app).test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for request in requests {
                    group.addTask {
                        let headers: HTTPFields = [.user: request.user, .requestID: request.id]
                        try await client.execute(
                            uri: "/notes", method: .post, headers: headers, body: ByteBuffer(string: request.id)
                        ) { #expect($0.status == .created) }
                    }
                }
                try await group.waitForAll()
            }
            for user in 0..<40 {
                try await client.execute(uri: "/notes", method: .get, headers: [.user: "user\(user)"]) { response in
                    let texts = try JSONDecoder().decode([String].self, from: Data(String(buffer: response.body).utf8))
                    #expect(Set(texts) == Set(requests.filter { $0.user == "user\(user)" }.map(\.id)))
                }
            }
        }
        let lines = (app.fakeLogController?.entries ?? []).filter { $0.metadata["req"]?.hasPrefix("req-") == true }
        #expect(lines.count == 2 * requests.count)
        for request in requests {
            let own = lines.filter { $0.metadata["req"] == request.id }
            #expect(own.map(\.message) == ["saved a note", "added a note"])
            #expect(own.allSatisfy { $0.metadata["user"] == request.user })
        }
    }

    /// A request without an id gets one; requests never share it.
    @Test func requestsWithoutAnIDGetTheirOwn() async throws {
        let app = makeApp()
        try await makeApplication(app: app).test(.router) { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/notes", method: .get, headers: [.user: "ada"]) { #expect($0.status == .ok) }
            }
        }
        let ids = (app.fakeLogController?.entries ?? []).compactMap { $0.metadata["req"] }
        #expect(ids.count == 2)
        #expect(Set(ids).count == 2)
    }

    /// Shutting the service group down flushes the log once, after the server has stopped.
    @Test func shutdownFlushesTheLog() async throws {
        let app = makeApp()
        let application = makeApplication(app: app, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            try await client.execute(uri: "/notes", method: .get, headers: [.user: "ada"]) { #expect($0.status == .ok) }
            #expect(app.fakeLogController?.flushCount == 0)
        }
        #expect(app.fakeLogController?.flushCount == 1)
    }
}
