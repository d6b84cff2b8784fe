#if canImport(SwiftUI)
public import SwiftUI
import Combine

/// Shows a ``Property``'s value in a SwiftUI view, and re-renders the view when it changes.
///
/// Name the property by a key path into the view's MetaController (the one
/// ``SwiftUI/View/metaController(_:)`` set above it), with the value to show
/// while there is none:
///
/// ```swift
/// struct LocationBadge: View {
///     @PropertyValue(\.locationController?.currentLocation, default: nil) private var location
///
///     var body: some View {
///         Text(location.map { "\($0.latitude), \($0.longitude)" } ?? "Locating…")
///     }
/// }
/// ```
///
/// or give the property itself: `PropertyValue(badgeCount)`.
///
/// ## When the view re-renders
///
/// Before each `body`, the wrapper reads the key path on the environment's
/// MetaController and follows the property it finds: when the view moves under
/// another MetaController, or the slot holds another controller, it follows
/// the new property and lets go of the old one; when the key path finds
/// nothing, the view shows the default. Every value the property is set to
/// afterwards re-renders the view: it reaches the view before the set returns
/// when it is set on the main thread (SwiftUI draws it at its next update), and
/// after a hop to the main actor when it is set on another thread (see
/// "Main-actor subscribers" in ``Property``). The switch itself is not announced
/// as a change: the `body` that follows reads the new value.
///
/// The wrapper keeps the followed property, so a key path may end in a
/// property derived on the fly only if it returns the same instance each
/// time: name stored properties, not `map` calls, or the view follows a new
/// property on every render.
///
/// Available from iOS 16: it rests on `StateObject` and `ObservableObject`, not Observation.
@MainActor
@propertyWrapper
public struct PropertyValue<Value: Sendable>: @MainActor DynamicProperty {
    @Environment(\.metaController) private var metaController
    @StateObject private var box: PropertyFollowerBox<Value>
    private let source: PropertySource<Value>

    /// Shows the property at `keyPath` in the view's MetaController, or `defaultValue`
    /// while there is no MetaController or the key path finds no property.
    ///
    /// ```swift
    /// @PropertyValue(\.locationController?.currentLocation, default: nil) private var location
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: Where the property is, from the MetaController; usually through a slot's accessor.
    ///   - defaultValue: What to show while no property is found.
    public init(_ keyPath: any KeyPath<MetaController, Property<Value>?> & Sendable, default defaultValue: Value) {
        self.init(source: PropertySource(keyPath, default: defaultValue))
    }

    /// Shows the property at `keyPath` in the view's MetaController, or
    /// `defaultValue` while the view has no MetaController.
    ///
    /// ```swift
    /// // `inbox` is an app's own accessor on MetaController, `unreadCount` a `let` property of it.
    /// @PropertyValue(\.inbox.unreadCount, default: 0) private var unread
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: Where the property is, from the MetaController.
    ///   - defaultValue: What to show while the view has no MetaController.
    public init(_ keyPath: any KeyPath<MetaController, Property<Value>> & Sendable, default defaultValue: Value) {
        self.init(source: PropertySource(keyPath, default: defaultValue))
    }

    /// Shows `property`, whatever the view's MetaController.
    ///
    /// ```swift
    /// struct BadgeView: View {
    ///     @PropertyValue private var count: Int
    ///     init(count: Property<Int>) { _count = PropertyValue(count) }
    ///     var body: some View { Text("\(count)") }
    /// }
    /// ```
    ///
    /// - Parameter property: The property to show. A view made again with another property follows that one.
    public init(_ property: Property<Value>) {
        self.init(source: PropertySource(property))
    }

    private init(source: PropertySource<Value>) {
        self.source = source
        let defaultValue = source.defaultValue
        _box = StateObject(wrappedValue: PropertyFollowerBox(default: defaultValue))
    }

    /// The followed property's value, or the default while none is found.
    ///
    /// ```swift
    /// Text("\(count)")
    /// ```
    public var wrappedValue: Value { box.follower.value }

    /// Follows the property the source finds in the view's MetaController; SwiftUI calls it before each `body`.
    public func update() {
        box.follower.follow(source, in: metaController)
    }
}

/// The `ObservableObject` that keeps a ``PropertyFollower`` across renders
/// and announces each change it receives to SwiftUI.
@MainActor
final class PropertyFollowerBox<Value: Sendable>: ObservableObject {
    private let defaultValue: Value

    /// Made on first use, on the main actor, so that its change hook can hold this box weakly.
    lazy var follower: PropertyFollower<Value> = {
        let follower = PropertyFollower(default: defaultValue)
        follower.onChange = { [weak self] apply in
            self?.objectWillChange.send()
            apply()
        }
        return follower
    }()

    nonisolated init(default defaultValue: Value) {
        self.defaultValue = defaultValue
    }
}
#endif
