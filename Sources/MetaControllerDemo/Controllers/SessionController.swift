import MetaController

/// An app-defined controller in a custom slot: who is signed in.
protocol SessionController: AnyObject, Sendable {
    var userName: String { get }
    /// How many feed items the user has not opened: the tab bar shows it as a badge.
    var unreadCount: Property<Int> { get }
}

enum SessionControllerKey: MetaControllerKey {
    typealias Value = any SessionController
}

extension MetaController {
    var sessionController: (any SessionController)? {
        get { self[SessionControllerKey.self] }
        set { self[SessionControllerKey.self] = newValue }
    }
}

extension MetaControllerConsumer {
    var sessionController: (any SessionController)? { metaController?.sessionController }
}

final class DemoSessionController: SessionController {
    let userName: String
    let unreadCount = Property(0)
    init(userName: String) { self.userName = userName }
}
