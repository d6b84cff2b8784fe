/// Names one slot of a ``MetaController``: a built-in one or an app-defined one.
///
/// Consumers list the slots they need in
/// ``MetaControllerConsumer/requiredControllers``, and an audit reports the
/// ones a MetaController lacks:
///
/// ```swift
/// final class CheckoutScreen: MetaControllerConsumer {
///     static let requiredControllers: [MetaControllerSlot] = [.api, .log, .custom(UserControllerKey.self)]
///     var metaController: MetaController?
/// }
/// ```
public struct MetaControllerSlot: Hashable, Sendable, CustomStringConvertible {
    /// The key type's identity: every slot, built-in or the app's, is a ``MetaControllerKey``.
    package let id: ObjectIdentifier

    /// The slot's name as written in code: `apiController`, or the custom key's ``MetaControllerKey/name``.
    public let name: String

    /// Fills the slot in a MetaController with the value its key declares for tests or
    /// previews (``MetaControllerKey/testValue``); whether it is filled then.
    let fillWithDeclaredValue: @Sendable (MetaController) -> Bool

    private init(id: ObjectIdentifier, name: String, fillWithDeclaredValue: @escaping @Sendable (MetaController) -> Bool) {
        self.id = id
        self.name = name
        self.fillWithDeclaredValue = fillWithDeclaredValue
    }

    /// The slot stored under `key`: an app-defined one, or a built-in one by its key
    /// (`.custom(ApiControllerKey.self)` is ``api``).
    public static func custom<Key: MetaControllerKey>(_ key: Key.Type) -> MetaControllerSlot {
        MetaControllerSlot(id: ObjectIdentifier(key), name: Key.name) { $0.declaredValue(Key.self) != nil }
    }

    /// The slot's name.
    public var description: String { name }

    /// Two slots are equal when they are the same slot, whatever their names.
    public static func == (lhs: MetaControllerSlot, rhs: MetaControllerSlot) -> Bool {
        lhs.id == rhs.id
    }

    /// Hashes the slot's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}
