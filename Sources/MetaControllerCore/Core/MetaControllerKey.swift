/// A key for an app-defined controller slot in a ``MetaController``.
///
/// Every slot is stored under a key. The five built-in slots cover what most
/// apps start with, and are keys too (``ApiControllerKey`` and the others); an
/// app with more controllers declares a key for each, without forking the
/// package. The key is a type, so a typo is a compile error rather than a
/// silent miss:
///
/// ```swift
/// protocol UserController: AnyObject, Sendable { var userName: String { get } }
///
/// enum UserControllerKey: MetaControllerKey { typealias Value = any UserController }
///
/// extension MetaControllerReader {
///     var userController: (any UserController)? { self[UserControllerKey.self] }
/// }
///
/// metaController[UserControllerKey.self] = AppUserController()
/// ```
///
/// Setting the slot hands the MetaController to the new value when it is a
/// ``MetaControllerConsumer``, as the built-in slots do. A consumer declares
/// that it needs the slot with ``MetaControllerSlot/custom(_:)``.
public protocol MetaControllerKey {
    /// The type stored under this key, usually an existential such as `any UserController`.
    associatedtype Value: Sendable

    /// The slot's name in audits and warnings. By default the key's type name
    /// with a trailing `Key` dropped and the first letter lowercased:
    /// `UserControllerKey` is named `userController`.
    static var name: String { get }
}

extension MetaControllerKey {
    /// The key's type name with a trailing `Key` dropped and the first letter lowercased.
    public static var name: String {
        var name = String(describing: Self.self)
        if name.hasSuffix("Key"), name.count > 3 { name.removeLast(3) }
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }
}
