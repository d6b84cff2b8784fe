import Foundation
import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct ApiRequestTests {
    private struct Item: Codable, Equatable {
        var title: String
    }

    private struct Unencodable: Encodable {
        var values: [Double]
    }

    @Test func theMethodDecidesIdempotence() {
        let request = ApiRequest(.get, "/feed")
        #expect(request.method == .get)
        #expect(request.isIdempotent)
        #expect(!ApiRequest(.post, "/items").isIdempotent)
        #expect(request.description == "GET /feed")
    }

    @Test func aJSONRequestEncodesItsBodyAndSetsTheContentType() throws {
        let request = try ApiRequest(.post, "/items", json: Item(title: "Hello"))
        #expect(request.header("content-type") == "application/json")
        #expect(try JSONDecoder().decode(Item.self, from: #require(request.body)) == Item(title: "Hello"))
    }

    @Test func anUnencodableBodyIsAnEncodingErrorNamingTheKeyPath() {
        #expect {
            try ApiRequest(.post, "/values", json: Unencodable(values: [1, .nan]))
        } throws: { error in
            let error = error as? ApiError
            return error?.code == .encoding && error?.keyPath == "values[1]"
                && error?.description.hasPrefix("POST /values: the body does not encode as JSON at values[1]") == true
        }
    }

    @Test func headersAreFoundWithoutRegardToCase() {
        let request = ApiRequest(.get, "/feed", headers: ["X-Trace": "1"])
        #expect(request.header("x-trace") == "1")
        #expect(request.header("X-Other") == nil)
    }

    @Test func methodsAreUpperCasedAndKnowIdempotence() {
        let purge: HTTPMethod = "purge"
        #expect(purge.rawValue == "PURGE")
        #expect(!purge.isIdempotent)
        #expect(HTTPMethod(rawValue: "delete") == .delete)
        #expect(HTTPMethod.put.isIdempotent)
        #expect(!HTTPMethod.patch.isIdempotent)
    }
}
