public import Observation

/// A ``Property``'s value as an `Observable` object, for SwiftUI views and
/// `@Observable` view models.
///
/// Its ``value`` follows one property at a time, on the main actor. A view
/// that reads `value` in its body re-renders whenever the property changes,
/// through Observation, as it does for a stored property of an `@Observable`
/// model. Hold one in a view model and point it at a controller's property
/// once the model has its MetaController:
///
/// ```swift
/// @MainActor @Observable
/// final class MapModel: @MainActor MetaControllerConsumer {
///     @ObservationIgnored var metaController: MetaController?
///     let location = ObservableProperty<Location?>(default: nil)
///
///     func metaControllerDidArrive() {
///         location.follow(locationController?.currentLocation)
///     }
/// }
///
/// struct MapView: View {
///     @MetaControllerState private var model = MapModel()
///     var body: some View {
///         Text(model.location.value.map { "\($0.latitude), \($0.longitude)" } ?? "Locating…")
///     }
/// }
/// ```
///
/// ## When observers hear of a change
///
/// A value set on the main thread reaches ``value``, and its observers,
/// before the set returns; a value set on another thread arrives in a task on
/// the main actor (see "Main-actor subscribers" in ``Property``).
///
/// ``follow(_:)`` shows the new property's current value at once, and
/// observers hear of the switch as one change: a view that shows the old
/// property's value re-renders with the new one. Following from
/// `metaControllerDidArrive()`, which the SwiftUI wrappers call before the
/// model's view first renders, notifies nobody, since no view has read
/// ``value`` yet.
///
/// ## What it keeps
///
/// It keeps the followed property strongly, so a derived chain nobody else
/// keeps (`count.map { … }.removingDuplicates()`) goes on changing while it is
/// followed. Following another property, or `nil`, ends the old subscription,
/// and no value of the old property reaches ``value`` after ``follow(_:)``
/// returns, even one still on its way to the main actor. Releasing the
/// `ObservableProperty` ends its subscription.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
public final class ObservableProperty<Value: Sendable>: Observable {
    private let follower: PropertyFollower<Value>
    private let registrar = ObservationRegistrar()

    /// Creates an observable value that shows `defaultValue` until it follows a property.
    ///
    /// It may be made off the main actor, as a stored property's initial value
    /// in a model that is not main-actor isolated; ``follow(_:)`` needs the main actor.
    ///
    /// ```swift
    /// let location = ObservableProperty<Location?>(default: nil)
    /// ```
    ///
    /// - Parameter defaultValue: The value shown while no property is followed.
    public nonisolated init(default defaultValue: Value) {
        follower = PropertyFollower(default: defaultValue)
    }

    /// Creates an observable value that follows `property` from now on.
    ///
    /// ```swift
    /// let unread = ObservableProperty(inbox.unreadCount)
    /// unread.value   // inbox.unreadCount.value
    /// ```
    ///
    /// - Parameter property: The property to follow; its current value is the
    ///   default shown after ``follow(_:)`` is given `nil`.
    public convenience init(_ property: Property<Value>) {
        self.init(default: property.value)
        follow(property)
    }

    /// The followed property's value, or the default while none is followed.
    ///
    /// Reading it in a SwiftUI body, or in `withObservationTracking`, observes it.
    ///
    /// ```swift
    /// Text("\(model.unread.value) unread")
    /// ```
    public var value: Value {
        registrar.access(self, keyPath: \.value)
        return follower.value
    }

    /// Follows `property` instead of the property followed until now; `nil`
    /// shows the default value.
    ///
    /// Following the property already followed (the same instance) does
    /// nothing. Otherwise the old subscription ends, ``value`` becomes the new
    /// property's current value, which observers hear of as one change, and
    /// every later value of the new property notifies them (see "When
    /// observers hear of a change").
    ///
    /// ```swift
    /// func metaControllerDidArrive() {
    ///     location.follow(locationController?.currentLocation)
    /// }
    /// ```
    ///
    /// - Parameter property: The property to follow, or `nil` for none.
    public func follow(_ property: Property<Value>?) {
        follower.onChange = { [weak self] apply in
            guard let self else { return apply() }
            registrar.withMutation(of: self, keyPath: \.value, apply)
        }
        guard property !== follower.property else { return }
        registrar.withMutation(of: self, keyPath: \.value) {
            _ = follower.follow(property)
        }
    }
}
