// The built-in `dataController` slot: its key and its accessors, as an app declares its own
// (Docs/CustomControllers.md). The core lists no built-in slot; each is a file like this one.
public import MetaControllerCore

/// The key of the built-in ``MetaController/dataController`` slot, named `dataController`.
public enum DataControllerKey: MetaControllerKey {
    /// What the slot holds.
    public typealias Value = any DataController
}

extension MetaControllerSlot {
    /// The ``MetaController/dataController`` slot: ``DataControllerKey``.
    public static let data = MetaControllerSlot.custom(DataControllerKey.self)
}

extension MetaController {
    /// The controller that stores the app's data.
    ///
    /// Setting it hands this MetaController to the new controller when it is a consumer.
    public var dataController: (any DataController)? {
        // Inlinable, as an app's own accessors are: the read is specialized in the caller's code.
        @inlinable get { self[DataControllerKey.self] }
        @inlinable set { self[DataControllerKey.self] = newValue }
    }
}

extension MetaControllerReader {
    /// The MetaController's ``MetaController/dataController``, or `nil` when this has no MetaController
    /// or the slot is empty (a strict test MetaController reports the read).
    @inlinable
    public var dataController: (any DataController)? { self[DataControllerKey.self] }
}
