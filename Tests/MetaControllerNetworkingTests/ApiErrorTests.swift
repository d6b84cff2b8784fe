import Foundation
import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct ApiErrorTests {
    private struct Feed: Decodable {
        struct Item: Decodable {
            var id: Int
            var title: String
        }
        var items: [Item]
    }

    private let request = ApiRequest(.get, "/feed")

    @Test func anHTTPStatusErrorNamesTheRequestAndStatusAndKeepsTheBody() {
        let error = ApiError.httpStatus(503, body: Data("down".utf8), for: request)
        #expect(error.code == .httpStatus)
        #expect(error.statusCode == 503)
        #expect(error.bodyText == "down")
        #expect(error.description.hasPrefix("GET /feed failed with HTTP 503"))
        #expect(!error.description.contains("down"))   // bodies stay out of descriptions
    }

    @Test func otherKindsHaveReadableDescriptions() {
        #expect(ApiError.transport("cannot connect", for: request).description == "GET /feed failed: cannot connect")
        #expect(ApiError.timeout(after: .seconds(2), for: request).description == "GET /feed timed out after 2 seconds")
        #expect(ApiError.timeout(after: .milliseconds(250), for: request).description == "GET /feed timed out after 0.25 seconds")
        #expect(ApiError.cancelled(for: request).description == "GET /feed was cancelled")
    }

    @Test(arguments: [
        (#"{"items": [{"id": 1, "title": "a"}, {"id": 2, "title": 3}]}"#, "items[1].title"),
        (#"{"items": [{"id": 1}]}"#, "items[0].title"),
        (#"{"items": null}"#, "items"),
        (#"{"items": [{"id": 1, "title": "a"}"#, ""),
    ])
    func aDecodingErrorNamesTheKeyPathThatFailed(json: String, keyPath: String) {
        let response = ApiResponse(request: request, body: Data(json.utf8))
        #expect {
            try response.decode(Feed.self)
        } throws: { error in
            let error = error as? ApiError
            return error?.code == .decoding && error?.keyPath == keyPath && error?.body == Data(json.utf8)
                && error?.description.contains("does not decode as Feed") == true
        }
    }
}
