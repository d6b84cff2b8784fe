// What the fragments of Docs/ComingFromSwinject.md take from the app around them.
import MetaController
import Foundation

nonisolated protocol UserController: AnyObject, Sendable {}
final class AppUserController: UserController {}
enum UserControllerKey: MetaControllerKey { typealias Value = any UserController }
@MainActor final class ProfileViewController {}

struct CoreAssembly: MetaControllerAssembly {
    func assemble(into metaController: MetaController) {}
}

nonisolated final class PaymentForm: Sendable {
    init(api: (any ApiController)?) {}
}
nonisolated final class CheckoutScreen: Sendable {
    init(form: PaymentForm) {}
}
nonisolated final class AvatarCache: Sendable {}
@MainActor let profileScreen = ProfileViewController()


// "Async resolution".
nonisolated final class Database: Sendable {
    static func open(at url: URL) async throws -> Database { Database() }
}
nonisolated let databaseURL = URL(fileURLWithPath: "/tmp/app.sqlite")
