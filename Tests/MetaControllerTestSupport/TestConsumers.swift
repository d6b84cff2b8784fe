package import MetaController
import MetaControllerTesting

/// A screen-like consumer that holds its MetaController strongly.
package final class Screen: MetaControllerConsumer {
    package var metaController: MetaController?
    package let name: String
    package init(_ name: String = "screen") { self.name = name }
}

/// A screen that needs an API and a notification controller.
package final class SettingsScreen: MetaControllerConsumer {
    package init() {}
    package static let requiredControllers: [MetaControllerSlot] = [.api, .notification]
    package var metaController: MetaController?
}

/// A screen that needs the app-defined user controller.
package final class ProfileScreen: MetaControllerConsumer {
    package init() {}
    package static let requiredControllers: [MetaControllerSlot] = [.log, .custom(UserControllerKey.self)]
    package var metaController: MetaController?
}

/// A navigation-stack-like container that is not a consumer itself.
package final class Stack: MetaControllerContainer {
    package var items: [AnyObject]
    package init(_ items: [AnyObject]) { self.items = items }
    package var metaControllerChildren: [AnyObject] { items }
}

/// A consumer that is also a container (a tab bar screen).
package final class TabsScreen: MetaControllerConsumer, MetaControllerContainer {
    package var metaController: MetaController?
    package var tabs: [AnyObject]
    package init(_ tabs: [AnyObject]) { self.tabs = tabs }
    package var metaControllerChildren: [AnyObject] { tabs }
}

/// An object that is neither a consumer nor a container.
package final class PlainObject {
    package init() {}
}

/// Logs from a known function at a known line.
package final class LocationUpdater: MetaControllerConsumer {
    package init() {}
    package var metaController: MetaController?
    package private(set) var lastLine: UInt = 0

    package func updateLocation() {
        lastLine = #line; debugLog("Bazinga!")
    }
}

// MARK: - An app-defined controller

package protocol UserController: AnyObject, Sendable {
    var userName: String { get }
}

package enum UserControllerKey: MetaControllerKey {
    package typealias Value = any UserController
}

// The long form: a MetaController property with get and set.
extension MetaController {
    package var userController: (any UserController)? {
        get { self[UserControllerKey.self] }
        set { self[UserControllerKey.self] = newValue }
    }
}

// The short form: one line for consumers.
extension MetaControllerConsumer {
    package var userController: (any UserController)? { self[UserControllerKey.self] }
}

/// A custom slot that holds a value type and has no accessor but the subscripts.
package enum RetryCountKey: MetaControllerKey {
    package typealias Value = Int
}

package final class TestUserController: UserController, MetaControllerConsumer {
    package let userName: String
    private let reference = WeakMetaControllerReference()
    package init(userName: String = "ada") { self.userName = userName }
    package var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }
}

/// A controller that is not a consumer; it answers every request with an empty 200.
package final class PlainApiController: ApiController {
    package init() {}
    package func send(_ request: ApiRequest) async throws(ApiError) -> ApiResponse { ApiResponse(request: request) }
}

/// A thread-safe counter for tests that count calls from many tasks.
package final class Counter: Sendable {
    private let count = Lock(0)
    package init() {}
    package func increment() { count.withLock { $0 += 1 } }
    package var value: Int { count.withLock { $0 } }
}
