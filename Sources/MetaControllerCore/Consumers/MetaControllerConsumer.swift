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

    /// Called once each time this object receives a new MetaController: by a
    /// pass, or by the push when it is put in a slot. The default does nothing.
    ///
    /// Start what needs the controllers here (subscribe to a property, listen
    /// to a signal, load data) instead of in a view's `.task` or `onAppear`,
    /// which run again each time a view reappears. Passing the MetaController
    /// the object already holds does not call it again; a pass refused under
    /// the write-once rule does not call it; a pass with
    /// `replacingExisting: true` that gives it another MetaController does.
    /// This holds across threads: when several threads pass a `Sendable`
    /// consumer its MetaController at once, one of them gives it and runs the
    /// hook, once, and the others find it given (or, passing another
    /// MetaController, are refused under the write-once rule).
    ///
    /// It runs right after ``metaController`` is set, on the thread that
    /// passed, outside every lock of the MetaController, so it may read slots,
    /// pass the MetaController on and subscribe. A `@MainActor` consumer is
    /// passed its MetaController on the main actor, so this runs there.
    ///
    /// ```swift
    /// @MainActor
    /// final class FeedModel: @MainActor MetaControllerConsumer {
    ///     var metaController: MetaController?
    ///     private(set) var unread = 0
    ///
    ///     func metaControllerDidArrive() {
    ///         self[SessionControllerKey.self]?.unreadCount.subscribe(self, replay: true) { @MainActor model, count in
    ///             model.unread = count
    ///         }
    ///     }
    /// }
    /// ```
    func metaControllerDidArrive()
}

extension MetaControllerConsumer {
    /// No requirements.
    public static var requiredControllers: [MetaControllerSlot] { [] }

    /// Does nothing.
    public func metaControllerDidArrive() {}
}
