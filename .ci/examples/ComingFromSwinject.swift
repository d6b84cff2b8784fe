// What the fragments of Docs/ComingFromSwinject.md take from the app around them.
import MetaController

protocol UserController: AnyObject, Sendable {}
final class AppUserController: UserController {}
enum UserControllerKey: MetaControllerKey { typealias Value = any UserController }
@MainActor final class ProfileViewController {}

struct CoreAssembly: MetaControllerAssembly {
    func assemble(into metaController: MetaController) {}
}

final class PaymentForm: Sendable {
    init(api: (any ApiController)?) {}
}
final class CheckoutScreen: Sendable {
    init(form: PaymentForm) {}
}
