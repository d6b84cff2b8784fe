/// A value that uses the app's controllers through a ``MetaController`` it
/// holds: the accessors, logging shortcuts and hand-off every consumer has,
/// for any type, with a read-only property.
///
/// A struct, a `Sendable` final class with `let`s or an actor adopts it by
/// declaring `metaController`, usually a `let` set when the value is made. It
/// then reads controllers through short accessors (``apiController``,
/// ``logController``, ``signals``, ``subscript(_:)`` for custom slots), logs with
/// one call (``debugLog(_:metadata:file:function:line:)``) and passes the
/// MetaController on (``passMetaController(to:replacingExisting:file:function:line:)``):
///
/// ```swift
/// struct NotesHandler: MetaControllerReader, Sendable {
///     let metaController: MetaController?
///
///     func list(for user: String) async throws -> [String] {
///         infoLog("listing notes", metadata: ["user": user])
///         return []
///     }
/// }
/// ```
///
/// ``MetaControllerConsumer`` refines it with a settable property, for objects
/// that receive their MetaController by passing; the accessors and shortcuts
/// are the same ones. A strict test MetaController (MetaControllerTesting's
/// `MetaController.strict(reporting:)`) reports a reader's reads of unfilled
/// slots as it reports a consumer's.
///
/// ## Actors
///
/// An actor adopts it with a `let`, which is `nonisolated`, so the accessors
/// and shortcuts can be called from inside and outside the actor:
///
/// ```swift
/// actor SyncEngine: MetaControllerReader {
///     let metaController: MetaController?
///     init(metaController: MetaController?) { self.metaController = metaController }
///
///     func sync() { infoLog("syncing") }
/// }
/// ```
public protocol MetaControllerReader {
    /// The MetaController this value reads its controllers from; `nil` when it has none.
    var metaController: MetaController? { get }
}

extension MetaControllerReader {
    /// The app-defined controller the MetaController holds under `key`; `nil`
    /// when there is no MetaController or no such controller.
    ///
    /// One line gives every consumer and reader a typed accessor for a custom slot:
    ///
    /// ```swift
    /// extension MetaControllerReader {
    ///     var userController: (any UserController)? { self[UserControllerKey.self] }
    /// }
    /// ```
    ///
    /// - Parameter key: The slot's key type.
    @inlinable
    public subscript<Key: MetaControllerKey>(key: Key.Type) -> Key.Value? {
        guard let metaController else { return nil }
        return metaController[key] ?? metaController.unfilled(.custom(key), readBy: Self.self)
    }

    /// The MetaController's event bus; `nil` when there is no MetaController.
    ///
    /// ```swift
    /// signals?.dispatch(AppSignals.feedLoaded, items)
    /// ```
    public var signals: Signals? {
        // Typed, so that the MetaController's own `signals` is read: on a
        // MetaController (itself a reader) this accessor would find itself.
        guard let metaController else { return nil }
        let signals: Signals = metaController.signals
        return signals
    }

    /// Hands this object's MetaController on to `target`, and through it to
    /// `target`'s children.
    ///
    /// Does nothing when this object has no MetaController. Otherwise it is
    /// ``MetaController/passMetaController(to:replacingExisting:file:function:line:)``
    /// on this object's MetaController: see there for what happens to a
    /// target that already holds one.
    ///
    /// ```swift
    /// func prepare(for segue: UIStoryboardSegue, sender: Any?) {
    ///     passMetaController(to: segue.destination)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: Any object, or `nil`; only consumers receive the MetaController.
    ///   - replacingExisting: Pass `true` to replace a different MetaController the target already holds.
    ///   - file: The caller's file, for warnings; leave the default.
    ///   - function: The caller's function, for warnings; leave the default.
    ///   - line: The caller's line, for warnings; leave the default.
    public func passMetaController(
        to target: AnyObject?,
        replacingExisting: Bool = false,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        metaController?.passMetaController(
            to: target, replacingExisting: replacingExisting,
            file: file, function: function, line: line)
    }
}
