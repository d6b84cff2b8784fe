// What the fragments of Docs/TestingTheAPILayer.md take from the app around them.
import MetaControllerTesting

struct User: Codable, Sendable {
    let id: String
    let name: String
}
struct NewItem: Codable, Equatable {
    let title: String
}

extension Example {
    var server: MockAPIServer { MockAPIServer() }
    var items: [NewItem] { [] }
}

let users: [String: User] = [:]
