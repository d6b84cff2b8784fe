import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

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

    // MARK: - Answers for previews

    /// The preview's call, as its documentation shows it: no `try`, and the screen gets the items.
    @Test @MainActor func aPreviewMetaControllerAnswersWithAnEncodedValueWithoutThrowing() async {
        let metaController = MetaController.preview { metaController in
            metaController.fakeApiController?.respond(to: .get, "/feed", encoding: [FeedItem(id: 1, title: "Hello")])
        }
        let screen = FeedScreen()
        metaController.passMetaController(to: screen)
        await screen.reload()
        #expect(screen.items == [FeedItem(id: 1, title: "Hello")])
    }

    /// A value that does not encode is not lost silently: the request fails with a 500
    /// that says why, and the fake's MetaController logs it as an error.
    @Test func anAnswerThatDoesNotEncodeFailsTheRequestSayingWhyAndLogs() async throws {
        let metaController = MetaController.withFakes()
        let api = try #require(metaController.fakeApiController)
        api.respond(to: .get, "/numbers", encoding: [Double.nan])
        let error = await #expect(throws: ApiError.self) {
            _ = try await api.send(ApiRequest(.get, "/numbers"))
        }
        #expect(error?.statusCode == 500)
        let body = String(decoding: error?.body ?? Data(), as: UTF8.self)
        #expect(body.hasPrefix("FakeApiController could not encode the canned answer to GET /numbers"))
        let logged = try #require(metaController.fakeLogController?.entries.first)
        #expect(logged.level == .error)
        #expect(logged.message == body)
    }

    @Test func previewBuildsFakesAndRunsTheConfiguration() throws {
        var configured: MetaController?
        let metaController = MetaController.preview { configured = $0 }
        #expect(configured === metaController)
        #expect(metaController.fakeLogController != nil && metaController.fakeLocationController != nil)
        #expect(metaController.fakeApiController != nil && metaController.fakeDataController != nil)
        #expect(metaController.fakeNotificationController != nil)
    }

    @Test func aPreviewLocationIsSetFromCoordinatesAndBadOnesAreLoggedNotSet() throws {
        let metaController = MetaController.preview()
        let location = try #require(metaController.fakeLocationController)
        #expect(location.simulate(latitude: 48.8566, longitude: 2.3522))
        #expect(location.currentLocation.value?.latitude == 48.8566)
        #expect(!location.simulate(latitude: 91, longitude: 0))
        #expect(location.currentLocation.value?.latitude == 48.8566)   // unchanged
        #expect(metaController.fakeLogController?.entries.first?.message.contains("latitude 91.0 is not between -90 and 90") == true)
    }
}
