// The built-in `apiController` slot: its key and its accessors, as an app declares its own
// (Docs/CustomControllers.md). The core lists no built-in slot; each is a file like this one.
public import MetaControllerCore

/// The key of the built-in ``MetaController/apiController`` slot, named `apiController`.
public enum ApiControllerKey: MetaControllerKey {
    /// What the slot holds.
    public typealias Value = any ApiController
}

extension MetaControllerSlot {
    /// The ``MetaController/apiController`` slot: ``ApiControllerKey``.
    public static let api = MetaControllerSlot.custom(ApiControllerKey.self)
}

extension MetaController {
    /// The controller that talks to the app's server.
    ///
    /// Setting it hands this MetaController to the new controller when it is a consumer.
    public var apiController: (any ApiController)? {
        // Inlinable, as an app's own accessors are: the read is specialized in the caller's code.
        @inlinable get { self[ApiControllerKey.self] }
        @inlinable set { self[ApiControllerKey.self] = newValue }
    }
}

extension MetaControllerReader {
    /// The MetaController's ``MetaController/apiController``, or `nil` when this has no MetaController
    /// or the slot is empty (a strict test MetaController reports the read).
    @inlinable
    public var apiController: (any ApiController)? { self[ApiControllerKey.self] }
}
