import Foundation
import MetaController
import MetaControllerTesting
import Testing

@Suite struct URLSessionApiControllerTests {
    // MARK: - URLs

    @Test(arguments: [
        ("http://127.0.0.1:8080/api/", "/users/7", "http://127.0.0.1:8080/api/users/7"),
        ("http://127.0.0.1:8080/api", "users/7", "http://127.0.0.1:8080/api/users/7"),
        ("http://127.0.0.1:8080", "/a b/é", "http://127.0.0.1:8080/a%20b/%C3%A9"),
        ("https://example.com/v1?key=k", "/feed", "https://example.com/v1/feed?key=k"),
    ])
    func theURLJoinsTheBasePathAndTheRequestPath(base: String, path: String, expected: String) throws {
        let api = URLSessionApiController(baseURL: try #require(URL(string: base)))
        #expect(try api.url(for: ApiRequest(.get, path)).absoluteString == expected)
    }

    @Test func queryValuesArriveAsThemselves() throws {
        let api = URLSessionApiController(baseURL: try #require(URL(string: "http://127.0.0.1:1")))
        let request = ApiRequest(.get, "/search", query: [
            URLQueryItem(name: "q", value: "a+b&c=d é"),
            URLQueryItem(name: "flag", value: nil),
        ])
        #expect(try api.url(for: request).query == "q=a%2Bb%26c%3Dd%20%C3%A9&flag")
    }

    @Test func aBaseWithoutAHostIsAnInvalidRequest() throws {
        let api = URLSessionApiController(baseURL: try #require(URL(string: "file:///tmp")))
        #expect {
            try api.url(for: ApiRequest(.get, "/feed"))
        } throws: { error in
            (error as? ApiError)?.code == .invalidRequest
        }
    }
}
