/// A thread-safe weak reference to a ``MetaController``, for controllers that
/// live in one.
///
/// A controller in a MetaController's slot that also adopts
/// ``MetaControllerConsumer`` must not hold the MetaController strongly, or
/// the two keep each other alive. Controllers are `Sendable` and reached from
/// any thread, so the reference is guarded by a lock as well. Adopting
/// ``WeakMetaControllerConsumer`` takes one line of it:
///
/// ```swift
/// final class AppApiController: ApiController, WeakMetaControllerConsumer {
///     let metaControllerReference = WeakMetaControllerReference()
/// }
/// ```
///
/// A type that must adopt ``MetaControllerConsumer`` itself (its
/// `metaController` also does something else) backs the property with one:
///
/// ```swift
/// final class AppApiController: ApiController, MetaControllerConsumer {
///     private let reference = WeakMetaControllerReference()
///     var metaController: MetaController? {
///         get { reference.metaController }
///         set { reference.metaController = newValue }
///     }
/// }
/// ```
public final class WeakMetaControllerReference: Sendable {
    private struct Box: Sendable {
        weak var metaController: MetaController?
    }

    private let box = Lock(Box())

    /// Creates an empty reference.
    public init() {}

    /// The referenced MetaController; `nil` once it is gone.
    public var metaController: MetaController? {
        get { box.withLock { $0.metaController } }
        set { box.withLock { $0.metaController = newValue } }
    }
}
