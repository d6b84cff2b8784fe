// What the fragments of Docs/Networking.md take from the app around them.
import Foundation
import MetaController

actor Tokens {
    func current() async throws -> String { "token" }
}
let tokens = Tokens()

struct FeedItem: Codable {}
struct NewItem: Codable {
    let title: String
}
struct Item: Codable {}
struct User: Codable {}

extension Example {
    func showSignIn() {}
}

let api = URLSessionApiController(baseURL: URL(string: "https://api.example.com/v1")!)
