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
///
/// ## Test and preview values
///
/// A key may say what tests and previews find in its slot, so that no test or
/// preview fills it by hand:
///
/// ```swift
/// nonisolated enum FavoritesControllerKey: MetaControllerKey {
///     typealias Value = any FavoritesController
///     static var testValue: Value? { FakeFavoritesController() }
/// }
/// ```
///
/// The MetaControllers of MetaControllerTesting (`withFakes()`,
/// `strict(reporting:)` and `preview(_:)`) put the key's value in the slot the
/// first time the slot is read empty, in them or in a child of theirs, and hand
/// it the MetaController as setting the slot would. Other MetaControllers never
/// use these values: in the app, the slot holds what launch code sets.
///
/// The built-in fakes of those MetaControllers are there at once; a key's value is made
/// only when its slot is first read. What the value starts listening to on the bus while it
/// is handed the MetaController (in its `metaControllerDidArrive()`) it hears from the test
/// MetaController's first line all the same: each payload dispatched on that signal before,
/// in order and once, before its `add(_:to:)` or `listen(to:)` returns, as if it had been
/// set at launch. So an app-wide listener counts what a test or preview did before anything
/// read its slot. The test MetaController keeps its last 10,000 dispatches for this; a strict
/// one reports a listener whose signal had older ones. Listeners added at any other time hear
/// only what comes after, as in the app.
///
/// A key's conformance is never isolated to an actor (the protocol refines
/// `SendableMetatype`), so every actor and thread reads its slot, also in an
/// Xcode 26 app target, where types are main-actor by default.
public protocol MetaControllerKey: SendableMetatype {
    /// The type stored under this key, usually an existential such as `any UserController`.
    associatedtype Value: Sendable

    /// The slot's name in audits and warnings. By default the key's type name
    /// with a trailing `Key` dropped and the first letter lowercased:
    /// `UserControllerKey` is named `userController`.
    static var name: String { get }

    /// What a test MetaController (`withFakes()` and `strict(reporting:)` of
    /// MetaControllerTesting) puts in the slot when it is read empty; by default
    /// `nil`, and the slot stays empty (a strict MetaController reports the read).
    ///
    /// Made again for each MetaController that asks, so each test has a fresh
    /// one: declare it as a computed property that makes a new value. Once made,
    /// it stays in the slot of the MetaController the test made (`reset()` or
    /// setting the slot replaces it). It is made, and handed the MetaController,
    /// outside every lock, so its `metaControllerDidArrive()` may read other
    /// slots; when two threads read the empty slot at once, both may make one,
    /// and both get the one stored first. Only that one is handed the MetaController.
    ///
    /// It is made when its slot is first read, not when the test MetaController is; a
    /// listener it adds on the bus while it is handed the MetaController first hears what
    /// was dispatched on its signal since the test MetaController was made (its last 10,000
    /// dispatches), as if the value had been there from the start (see "Test and preview
    /// values" above).
    static var testValue: Value? { get }

    /// What a preview MetaController (`preview(_:)` of MetaControllerTesting,
    /// and the preview trait) puts in the slot when it is read empty; by default
    /// ``testValue``. Made, kept and caught up with the bus as ``testValue`` is.
    static var previewValue: Value? { get }
}

extension MetaControllerKey {
    /// The key's type name with a trailing `Key` dropped and the first letter lowercased.
    public static var name: String {
        var name = String(describing: Self.self)
        if name.hasSuffix("Key"), name.count > 3 { name.removeLast(3) }
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    /// None: a test MetaController leaves the slot empty.
    public static var testValue: Value? { nil }

    /// ``testValue``.
    public static var previewValue: Value? { testValue }
}
