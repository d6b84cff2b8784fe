/// An object that uses the app's controllers through a ``MetaController`` it
/// receives by passing.
///
/// Adopting the protocol takes one stored property. In return the object
/// reads controllers through short accessors, logs with one call and passes
/// the MetaController on to the objects it creates (all of them from
/// ``MetaControllerReader``, which this protocol refines):
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
///
/// A value that is given its MetaController when it is made, and never
/// receives another (a `Sendable` struct, a final class with `let`s, an
/// actor: a server's handler), adopts the read-only ``MetaControllerReader`` instead.
public protocol MetaControllerConsumer: AnyObject, MetaControllerReader {
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
}
