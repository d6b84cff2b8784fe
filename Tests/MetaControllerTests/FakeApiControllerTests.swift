import Foundation
import MetaController
import MetaControllerTesting
import Testing

@Suite struct FakeApiControllerTests {
    private struct Item: Codable, Equatable {
        var id: Int
    }

    private struct FeedItem: Codable, Equatable {
        var id: Int
        var title: String
    }

    @MainActor private final class FeedScreen: @MainActor MetaControllerConsumer {
        var metaController: MetaController?
        var items: [FeedItem] = []
        func reload() async {
            items = (try? await apiController?.get("/feed", decoding: [FeedItem].self)) ?? []
        }
    }

    /// The example of FakeApiController's documentation comment, as written there.
    @Test @MainActor func theDocumentedExampleWorks() async throws {
        let screen = FeedScreen()
        let metaController = MetaController.withFakes()
        let api = try #require(metaController.fakeApiController)
        try api.respond(to: .get, "/feed", json: [FeedItem(id: 1, title: "Hello")])
        api.respond(to: .post, "/items", with: .failure(.transport("offline", for: ApiRequest(.post, "/items"))))

        metaController.passMetaController(to: screen)
        await screen.reload()
        #expect(api.requests.map(\.description) == ["GET /feed"])
        #expect(screen.items == [FeedItem(id: 1, title: "Hello")])
    }

    @Test func answersFromCannedResponsesAndRecordsRequests() async throws {
        let api = FakeApiController()
        try api.respond(to: .get, "/items", json: [Item(id: 1)])
        let items = try await api.get("/items", query: [URLQueryItem(name: "page", value: "1")], decoding: [Item].self)
        #expect(items == [Item(id: 1)])
        #expect(api.requests.map(\.description) == ["GET /items"])
        #expect(api.requests.first?.header("Accept") == "application/json")
        #expect(api.requests.first?.query == [URLQueryItem(name: "page", value: "1")])
        #expect(api.unmatchedRequests.isEmpty)
    }

    @Test func anUnmatchedRequestFailsWith404AndIsListed() async {
        let api = FakeApiController()
        api.respond(to: .get, "/items", statusCode: 204)
        await #expect {
            try await api.send(ApiRequest(.post, "/items"))
        } throws: { error in
            (error as? ApiError)?.statusCode == 404
                && (error as? ApiError)?.bodyText == "no canned response for POST /items"
        }
        #expect(api.unmatchedRequests.map(\.description) == ["POST /items"])
    }

    @Test func aCannedFailureIsThrownForTheRequestActuallySent() async {
        let api = FakeApiController()
        api.respond(to: .get, "/feed", with: .failure(.transport("offline", for: ApiRequest(.get, "/feed"))))
        let sent = ApiRequest(.get, "/feed", headers: ["X-Trace": "7"])
        await #expect {
            try await api.send(sent)
        } throws: { error in
            let error = error as? ApiError
            return error?.code == .transport && error?.request == sent && error?.description == "GET /feed failed: offline"
        }
    }

    @Test func aCannedErrorStatusIsThrownAsAnHTTPStatusError() async {
        let api = FakeApiController()
        api.respond(to: .get, "/feed", statusCode: 500, body: Data("boom".utf8))
        await #expect {
            try await api.send(ApiRequest(.get, "/feed"))
        } throws: { error in
            (error as? ApiError)?.code == .httpStatus && (error as? ApiError)?.bodyText == "boom"
        }
    }

    @Test func aLaterResponseReplacesAnEarlierOneAndRecordsCanBeCleared() async throws {
        let api = FakeApiController()
        api.respond(to: .get, "/n", body: Data("1".utf8))
        api.respond(to: .get, "/n", body: Data("2".utf8))
        #expect(try await api.send(ApiRequest(.get, "/n")).body == Data("2".utf8))
        api.removeAllRequests()
        #expect(api.requests.isEmpty)
        #expect(try await api.send(ApiRequest(.get, "/n")).statusCode == 200)
    }

    @Test func aCancelledTaskGetsACancellationError() async {
        let api = FakeApiController()
        api.respond(to: .get, "/feed", statusCode: 200)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await api.send(ApiRequest(.get, "/feed"))
        }
        await #expect {
            try await task.value
        } throws: { error in
            (error as? ApiError)?.code == .cancelled
        }
    }
}
