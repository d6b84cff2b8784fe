import MetaController
import MetaControllerTesting

/// A screen-like consumer that holds its MetaController strongly.
final class Screen: MetaControllerConsumer {
    var metaController: MetaController?
    let name: String
    init(_ name: String = "screen") { self.name = name }
}

/// A screen that needs an API and a notification controller.
final class SettingsScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.api, .notification]
    var metaController: MetaController?
}

/// A screen that needs the app-defined user controller.
final class ProfileScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.log, .custom(UserControllerKey.self)]
    var metaController: MetaController?
}

/// A navigation-stack-like container that is not a consumer itself.
final class Stack: MetaControllerContainer {
    var items: [AnyObject]
    init(_ items: [AnyObject]) { self.items = items }
    var metaControllerChildren: [AnyObject] { items }
}

/// A consumer that is also a container (a tab bar screen).
final class TabsScreen: MetaControllerConsumer, MetaControllerContainer {
    var metaController: MetaController?
    var tabs: [AnyObject]
    init(_ tabs: [AnyObject]) { self.tabs = tabs }
    var metaControllerChildren: [AnyObject] { tabs }
}

/// An object that is neither a consumer nor a container.
final class PlainObject {}

/// Logs from a known function at a known line.
final class LocationUpdater: MetaControllerConsumer {
    var metaController: MetaController?
    private(set) var lastLine: UInt = 0

    func updateLocation() {
        lastLine = #line; debugLog("Bazinga!")
    }
}

// MARK: - An app-defined controller

protocol UserController: AnyObject, Sendable {
    var userName: String { get }
}

enum UserControllerKey: MetaControllerKey {
    typealias Value = any UserController
}

// The long form: a MetaController property with get and set.
extension MetaController {
    var userController: (any UserController)? {
        get { self[UserControllerKey.self] }
        set { self[UserControllerKey.self] = newValue }
    }
}

// The short form: one line for consumers.
extension MetaControllerConsumer {
    var userController: (any UserController)? { self[UserControllerKey.self] }
}

/// A custom slot that holds a value type and has no accessor but the subscripts.
enum RetryCountKey: MetaControllerKey {
    typealias Value = Int
}

final class TestUserController: UserController, MetaControllerConsumer {
    let userName: String
    private let reference = WeakMetaControllerReference()
    init(userName: String = "ada") { self.userName = userName }
    var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }
}

/// A controller that is not a consumer; it answers every request with an empty 200.
final class PlainApiController: ApiController {
    func send(_ request: ApiRequest) async throws(ApiError) -> ApiResponse { ApiResponse(request: request) }
}

/// A thread-safe counter for tests that count calls from many tasks.
final class Counter: Sendable {
    private let count = Lock(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
