import MetaController

/// A Sendable listener that records what it received, in order.
final class Inbox<Value: Sendable>: Sendable {
    private let received = Lock<[Value]>([])
    let name: String
    init(_ name: String = "inbox") { self.name = name }
    func record(_ value: Value) { received.withLock { $0.append(value) } }
    var values: [Value] { received.withLock { $0 } }
}

enum TestSignals {
    static let ping = Signal<Int>("ping")
    static let word = Signal<String>("word")
    static let state = Signal<String>("state", replaysLast: true)
}
