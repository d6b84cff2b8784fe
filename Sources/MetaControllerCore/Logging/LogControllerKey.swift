// The built-in `logController` slot: its key and its accessors, as an app declares its own
// (Docs/CustomControllers.md). The core lists no built-in slot; each is a file like this one.

/// The key of the built-in ``MetaController/logController`` slot, named `logController`.
public enum LogControllerKey: MetaControllerKey {
    /// What the slot holds.
    public typealias Value = any LogController
}

extension MetaControllerSlot {
    /// The ``MetaController/logController`` slot: ``LogControllerKey``.
    public static let log = MetaControllerSlot.custom(LogControllerKey.self)
}

extension MetaController {
    /// The controller that takes log entries; the logging shortcuts of every consumer go through it.
    ///
    /// Setting it hands this MetaController to the new controller when it is a consumer.
    public var logController: (any LogController)? {
        // Inlinable, as an app's own accessors are: the read is specialized in the caller's code.
        @inlinable get { self[LogControllerKey.self] }
        @inlinable set { self[LogControllerKey.self] = newValue }
    }
}

extension MetaControllerReader {
    /// The MetaController's ``MetaController/logController``, or `nil` when this has no MetaController
    /// or the slot is empty (a strict test MetaController reports the read).
    @inlinable
    public var logController: (any LogController)? { self[LogControllerKey.self] }
}
