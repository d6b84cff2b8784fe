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
    enum Storage: Hashable, Sendable {
        case location, log, api, data, notification
        case custom(ObjectIdentifier)
    }

    let storage: Storage

    /// The slot's name as written in code: `apiController`, or the custom key's ``MetaControllerKey/name``.
    public let name: String

    private init(_ storage: Storage, name: String) {
        self.storage = storage
        self.name = name
    }

    /// The ``MetaController/locationController`` slot.
    public static let location = MetaControllerSlot(.location, name: "locationController")
    /// The ``MetaController/logController`` slot.
    public static let log = MetaControllerSlot(.log, name: "logController")
    /// The ``MetaController/apiController`` slot.
    public static let api = MetaControllerSlot(.api, name: "apiController")
    /// The ``MetaController/dataController`` slot.
    public static let data = MetaControllerSlot(.data, name: "dataController")
    /// The ``MetaController/notificationController`` slot.
    public static let notification = MetaControllerSlot(.notification, name: "notificationController")

    /// The app-defined slot stored under `key`.
    public static func custom<Key: MetaControllerKey>(_ key: Key.Type) -> MetaControllerSlot {
        MetaControllerSlot(.custom(ObjectIdentifier(key)), name: Key.name)
    }

    /// The slot's name.
    public var description: String { name }

    /// Two slots are equal when they are the same slot, whatever their names.
    public static func == (lhs: MetaControllerSlot, rhs: MetaControllerSlot) -> Bool {
        lhs.storage == rhs.storage
    }

    /// Hashes the slot's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
    }
}
