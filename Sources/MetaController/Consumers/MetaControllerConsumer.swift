/// An object that uses the app's controllers through a ``MetaController``.
///
/// Adopting the protocol takes one stored property. In return the object
/// reads controllers through short accessors, logs with one call and passes
/// the MetaController on to the objects it creates:
///
/// ```swift
/// final class LocationScreen: MetaControllerConsumer {
///     var metaController: MetaController?
///
///     func updateLocation() {
///         debugLog("Bazinga!")
///         // LocationScreen.swift (line 5): updateLocation(): Bazinga!
///     }
///
///     func showDetail() {
///         let detail = DetailScreen()
///         passMetaController(to: detail)
///     }
/// }
/// ```
///
/// ## Holding the MetaController
///
/// Screens and other objects below the app's root hold their MetaController
/// strongly, as above. Controllers that live *in* a MetaController hold it
/// weakly, with ``WeakMetaControllerReference``, so that the MetaController and
/// its controllers do not keep each other alive.
///
/// ## Actor isolation
///
/// A `@MainActor` type adopts the protocol with an isolated conformance and is
/// then used from the main actor, which is where screens are passed their
/// MetaController anyway:
///
/// ```swift
/// @MainActor final class ProfileViewController: UIViewController, @MainActor MetaControllerConsumer {
///     var metaController: MetaController?
/// }
/// ```
///
/// A plain class used from one task at a time adopts it as it is.
public protocol MetaControllerConsumer: AnyObject {
    /// The MetaController this object reads its controllers from.
    ///
    /// Declare it `var metaController: MetaController?` in a screen, or back it
    /// with a ``WeakMetaControllerReference`` in a controller.
    var metaController: MetaController? { get set }

    /// The slots this type needs filled. The default is none.
    ///
    /// ``MetaController/audit(_:)`` reports the ones a MetaController lacks,
    /// naming the type and the slot, and in debug builds passing a
    /// MetaController that lacks one warns through its log controller.
    ///
    /// ```swift
    /// static let requiredControllers: [MetaControllerSlot] = [.api, .log]
    /// ```
    static var requiredControllers: [MetaControllerSlot] { get }
}

extension MetaControllerConsumer {
    /// No requirements.
    public static var requiredControllers: [MetaControllerSlot] { [] }

    /// The MetaController's location controller; `nil` when there is no MetaController or no such controller.
    public var locationController: (any LocationController)? {
        guard let metaController else { return nil }
        return metaController.locationController ?? metaController.unfilled(.location, readBy: Self.self)
    }

    /// The MetaController's log controller; `nil` when there is no MetaController or no such controller.
    public var logController: (any LogController)? {
        guard let metaController else { return nil }
        return metaController.logController ?? metaController.unfilled(.log, readBy: Self.self)
    }

    /// The MetaController's API controller; `nil` when there is no MetaController or no such controller.
    public var apiController: (any ApiController)? {
        guard let metaController else { return nil }
        return metaController.apiController ?? metaController.unfilled(.api, readBy: Self.self)
    }

    /// The MetaController's data controller; `nil` when there is no MetaController or no such controller.
    public var dataController: (any DataController)? {
        guard let metaController else { return nil }
        return metaController.dataController ?? metaController.unfilled(.data, readBy: Self.self)
    }

    /// The MetaController's notification controller; `nil` when there is no MetaController or no such controller.
    public var notificationController: (any NotificationController)? {
        guard let metaController else { return nil }
        return metaController.notificationController ?? metaController.unfilled(.notification, readBy: Self.self)
    }

    /// The app-defined controller the MetaController holds under `key`; `nil`
    /// when there is no MetaController or no such controller.
    ///
    /// One line gives every consumer a typed accessor for a custom slot:
    ///
    /// ```swift
    /// extension MetaControllerConsumer {
    ///     var userController: (any UserController)? { self[UserControllerKey.self] }
    /// }
    /// ```
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
    public var signals: Signals? { metaController?.signals }

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
