/// A ``Property``'s value for an `ObservableObject` view model (iOS 16): it
/// announces each change through the model's `objectWillChange`, so a view
/// that observes the model re-renders.
///
/// The iOS 16 twin of ``ObservableProperty``, with the same rules. Its
/// ``value`` follows one property at a time, on the main actor. Hold one in
/// the model and follow a controller's property once the model has its
/// MetaController:
///
/// ```swift
/// @MainActor
/// final class FavoritesModel: ObservableObject, @MainActor MetaControllerConsumer {
///     var metaController: MetaController?
///     let favorites = PublishedProperty<Set<Int>>(default: [])
///
///     func metaControllerDidArrive() {
///         favorites.follow(favoritesController?.favorites, publishingTo: self)
///     }
/// }
///
/// struct FavoritesView: View {
///     @MetaControllerStateObject private var model = FavoritesModel()
///     var body: some View {
///         Text("\(model.favorites.value.count) favorites")
///     }
/// }
/// ```
///
/// `follow(_:publishingTo:)` is in the SwiftUI-capable platforms' build
/// (Combine). ``follow(_:willChange:)`` is the same on every platform, with a
/// closure run before each change in place of `objectWillChange.send()`.
///
/// ## When the model announces a change
///
/// A value set on the main thread is announced, and reaches ``value``, before
/// the set returns; a value set on another thread arrives in a task on the
/// main actor (see "Main-actor subscribers" in ``Property``). Each change is
/// announced once, before ``value`` changes, as `@Published` does.
///
/// The first follow (from the default value, no property followed yet) shows
/// the property's current value at once and announces nothing: it is what
/// `metaControllerDidArrive()` does, which the SwiftUI wrappers call inside a
/// view update, where an `ObservableObject` must not publish, and before the
/// view reads ``value``. Following another property, or `nil`, later is
/// announced once. So follow first from `metaControllerDidArrive()`, not after
/// the view has shown the default value.
///
/// ## What it keeps
///
/// It keeps the followed property strongly, and the `willChange` closure, and
/// with `publishingTo:` it holds the model weakly (the model holds it).
/// Following another property, or `nil`, ends the old subscription, and no
/// value of the old property reaches ``value`` after the follow returns, even
/// one still on its way to the main actor. Releasing it ends its subscription.
@MainActor
public final class PublishedProperty<Value: Sendable> {
    private let follower: PropertyFollower<Value>

    /// Creates a value that shows `defaultValue` until it follows a property.
    ///
    /// It may be made off the main actor, as a stored property's initial value;
    /// following needs the main actor.
    ///
    /// ```swift
    /// let favorites = PublishedProperty<Set<Int>>(default: [])
    /// ```
    ///
    /// - Parameter defaultValue: The value shown while no property is followed.
    public nonisolated init(default defaultValue: Value) {
        follower = PropertyFollower(default: defaultValue)
    }

    /// The followed property's value, or the default while none is followed.
    ///
    /// ```swift
    /// Text("\(model.favorites.value.count) favorites")
    /// ```
    public var value: Value { follower.value }

    /// Follows `property` instead of the property followed until now, running
    /// `willChange` before each later change of ``value``; `nil` shows the default value.
    ///
    /// Following the property already followed (the same instance) only takes
    /// the new `willChange`. Otherwise the old subscription ends and ``value``
    /// becomes the new property's current value: silently on the first follow,
    /// after one `willChange` when it replaces a followed property (see "When
    /// the model announces a change").
    ///
    /// ```swift
    /// favorites.follow(favoritesController?.favorites) { [weak self] in self?.refreshView() }
    /// ```
    ///
    /// - Parameters:
    ///   - property: The property to follow, or `nil` for none.
    ///   - willChange: Runs on the main actor before each change of ``value``.
    public func follow(_ property: Property<Value>?, willChange: @escaping @MainActor () -> Void) {
        follower.onChange = { apply in
            willChange()
            apply()
        }
        guard property !== follower.property else { return }
        if follower.property != nil { willChange() }
        follower.follow(property)
    }
}
