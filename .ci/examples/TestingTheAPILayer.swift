// What the fragments of Docs/TestingTheAPILayer.md take from the app around them.
import MetaControllerTesting

nonisolated struct User: Codable, Sendable {
    let id: String
    let name: String
}
nonisolated struct NewItem: Codable, Equatable {
    let title: String
}

extension Example {
    var server: MockAPIServer { MockAPIServer() }
    var items: [NewItem] { [] }
}

nonisolated let users: [String: User] = [:]
