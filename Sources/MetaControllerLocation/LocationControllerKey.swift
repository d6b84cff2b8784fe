// The built-in `locationController` slot: its key and its accessors, as an app declares its own
// (Docs/CustomControllers.md). The core lists no built-in slot; each is a file like this one.
public import MetaControllerCore

/// The key of the built-in ``MetaController/locationController`` slot, named `locationController`.
public enum LocationControllerKey: MetaControllerKey {
    /// What the slot holds.
    public typealias Value = any LocationController
}

extension MetaControllerSlot {
    /// The ``MetaController/locationController`` slot: ``LocationControllerKey``.
    public static let location = MetaControllerSlot.custom(LocationControllerKey.self)
}

extension MetaController {
    /// The controller that keeps track of the device's location.
    ///
    /// Setting it hands this MetaController to the new controller when it is a consumer.
    public var locationController: (any LocationController)? {
        // Inlinable, as an app's own accessors are: the read is specialized in the caller's code.
        @inlinable get { self[LocationControllerKey.self] }
        @inlinable set { self[LocationControllerKey.self] = newValue }
    }
}

extension MetaControllerReader {
    /// The MetaController's ``MetaController/locationController``, or `nil` when this has no MetaController
    /// or the slot is empty (a strict test MetaController reports the read).
    @inlinable
    public var locationController: (any LocationController)? { self[LocationControllerKey.self] }
}
