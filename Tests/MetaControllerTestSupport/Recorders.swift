package import MetaController

/// A Sendable listener that records what it received, in order.
package final class Inbox<Value: Sendable>: Sendable {
    private let received = Lock<[Value]>([])
    package let name: String
    package init(_ name: String = "inbox") { self.name = name }
    package func record(_ value: Value) { received.withLock { $0.append(value) } }
    package var values: [Value] { received.withLock { $0 } }
}

package enum TestSignals {
    package static let ping = Signal<Int>("ping")
    package static let word = Signal<String>("word")
    package static let state = Signal<String>("state", replaysLast: true)
}
