import Foundation
import MetaController
import MetaControllerTesting

// Types whose names the graphs show. Top-level, so that each name is one type.

final class Checkout: Sendable {}
final class PaymentClient: Sendable {}
final class TokenStore: Sendable {}
final class Database: Sendable {}
final class Analytics: Sendable {}
final class NoAnalytics: Sendable {}
final class Orders: Sendable {}
final class Profile: Sendable {}
final class Avatar: Sendable {}
final class Session: Sendable {}
final class Unused: Sendable {}
final class Extra: Sendable {}
final class Thrower: Sendable {}
struct GraphItem: Sendable, Hashable { let id: Int }
final class DetailScreen: Sendable { let item: GraphItem; init(item: GraphItem) { self.item = item } }
final class MainOnly: Sendable {}
final class AsksMainOnly: Sendable {}
final class CallsVerify: Sendable {}
final class BackgroundRequester: Sendable {}
final class CapturingRequester: Sendable {}
final class Captured: Sendable {}
final class SelfRequester: Sendable {}
final class Named: Sendable {}
final class Counted: Sendable {}
final class SharedCounted: Sendable {}

struct SomeError: Error, CustomStringConvertible { var description: String { "it broke" } }

/// A consumer type that requires the API and log slots.
final class FeedScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.api, .log]
    var metaController: MetaController?
}

/// A consumer type that requires nothing.
final class PlainScreen: MetaControllerConsumer {
    var metaController: MetaController?
}

/// A product that reads the API slot while it is made.
final class ReadsApiWhileMade: MetaControllerConsumer {
    var metaController: MetaController?
    func metaControllerDidArrive() { _ = apiController }
}

// The feature-modules example of Docs/SeeingTheGraph.md.

protocol CheckoutController: AnyObject, Sendable {}
protocol ProfileController: AnyObject, Sendable {}
final class LiveCheckoutController: CheckoutController {}
final class LiveProfileController: ProfileController {}
enum CheckoutControllerKey: MetaControllerKey { typealias Value = any CheckoutController }
enum ProfileControllerKey: MetaControllerKey { typealias Value = any ProfileController }

final class CheckoutScreen: MetaControllerConsumer, Sendable {
    static let requiredControllers: [MetaControllerSlot] = [.custom(CheckoutControllerKey.self), .custom(ProfileControllerKey.self)]
    var metaController: MetaController? {
        get { nil }
        set {}
    }
}

/// A controller in a slot that is a consumer and requires a slot.
protocol SyncController: AnyObject, Sendable {}
enum SyncControllerKey: MetaControllerKey { typealias Value = any SyncController }
final class NeedsDataController: SyncController, WeakMetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.data]
    let metaControllerReference = WeakMetaControllerReference()
}

// Two types with the same unqualified name in different enclosing types.
enum ModuleA { final class Screen: Sendable {} }
enum ModuleB { final class Screen: Sendable {} }

// Two consumer types with the same unqualified name.
enum FeatureA {
    final class Home: MetaControllerConsumer { static let requiredControllers: [MetaControllerSlot] = [.api]; var metaController: MetaController? }
}
enum FeatureB {
    final class Home: MetaControllerConsumer { static let requiredControllers: [MetaControllerSlot] = [.data]; var metaController: MetaController? }
}

// Two keys of different slots with the same name.
enum FirstUsersKey: MetaControllerKey { typealias Value = Int; static var name: String { "users" } }
enum SecondUsersKey: MetaControllerKey { typealias Value = Int; static var name: String { "users" } }

/// A custom slot whose name holds what Mermaid, DOT and terminals read specially.
enum HostileKey: MetaControllerKey {
    typealias Value = Int
    static var name: String { "slot \"q\" <b> %&#`| \n\r\u{0}\u{1B}[2K\u{2028} Пример \\l end" }
}

// Types whose own names hold characters Mermaid and DOT read specially (raw identifiers).
final class `Odd "Screen" <T> %&#|;{}[]()`: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.api]
    var metaController: MetaController?
}
final class `Пример例子مثال`: Sendable {}
final class `two words`: Sendable {}
final class `two_words`: Sendable {}

/// Makes the doc's checkout graph: a payment client that needs a token store nobody registered.
func checkoutGraphMetaController() -> MetaController {
    let metaController = MetaController()
    metaController.apiController = FakeApiController()
    metaController.register(Checkout.self) { m in
        _ = try m.make(PaymentClient.self)
        return Checkout()
    }
    metaController.registerShared(PaymentClient.self) { m in
        _ = try m.make(TokenStore.self)
        return PaymentClient()
    }
    return metaController
}

/// A circle of `length` per-request factories named "c0" … registered under `Named`.
func registerCircle(_ metaController: MetaController, length: Int, prefix: String = "c") {
    for index in 0..<length {
        let next = "\(prefix)\((index + 1) % length)"
        metaController.register(Named.self, name: "\(prefix)\(index)") { m in
            _ = try m.make(Named.self, name: next)
            return Named()
        }
    }
}

/// The lines of `text` that declare or connect nodes in Mermaid (not the header, classes or styles).
func mermaidBodyLines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// The Mermaid edge lines, in order.
func mermaidEdgeLines(_ text: String) -> [String] {
    mermaidBodyLines(text).filter { $0.contains(" --> ") || $0.contains(" -.-> ") || $0.contains(" -->|") || $0.contains(" -.->|") }
}

/// A product that reads the data slot while it is made.
final class ReadsDataWhileMade: MetaControllerConsumer {
    var metaController: MetaController?
    func metaControllerDidArrive() { _ = dataController }
}

/// A node's identifier in both pictures, as Docs/SeeingTheGraph.md describes it: made from its
/// kind and its name alone, ASCII letters and digits as they are, a single space between them
/// as `_`, and any other run of characters as `__`, their codes in hexadecimal joined by `x`,
/// and `_` (`api-v1` is `registration_Node_named__20x22_api__2D_v1__22_`).
func pictureIdentifier(_ id: MetaControllerGraph.Node.ID) -> String {
    var identifier = id.kind.description + "_"
    var run: [Unicode.Scalar] = []
    func endRun() {
        if run == [" "] {
            identifier += "_"
        } else if !run.isEmpty {
            identifier += "__" + run.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: "x") + "_"
        }
        run = []
    }
    for scalar in id.name.unicodeScalars {
        if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
            endRun()
            identifier.unicodeScalars.append(scalar)
        } else {
            run.append(scalar)
        }
    }
    endRun()
    return identifier
}
