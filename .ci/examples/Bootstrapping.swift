// What the fragments of Docs/Bootstrapping.md take from the app around them.
import MetaController

final class AppLogController: LogController {
    func log(_ entry: LogEntry) {}
}

@MainActor final class Server: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
    func run() async throws {}
}

struct ProfileAssembly: MetaControllerAssembly {
    func assemble(into metaController: MetaController) {}
}

nonisolated protocol PaymentControllerProtocol: AnyObject, Sendable {}
final class PaymentController: PaymentControllerProtocol {}
enum PaymentControllerKey: MetaControllerKey { typealias Value = any PaymentControllerProtocol }
struct Cart: Sendable {}
@MainActor final class CheckoutViewController {
    init(cart: Cart) {}
}

extension AppApiController {
    func perform(_ request: ApiRequest) async throws(ApiError) -> ApiResponse { fatalError() }
}
