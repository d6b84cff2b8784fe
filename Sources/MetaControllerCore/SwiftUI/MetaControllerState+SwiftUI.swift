#if canImport(SwiftUI)
public import Observation
public import SwiftUI

/// Owns an `@Observable` view model, as `@State` does, and hands it the view's
/// MetaController before its first `body`.
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
/// ## When the model receives its MetaController
///
/// Before each `body`, the wrapper passes the view's MetaController (the one
/// ``SwiftUI/View/metaController(_:)`` set above it) to the model, with
/// ``MetaController/passMetaController(to:replacingExisting:file:function:line:)``,
/// while the model holds none. So the model has it before the first `body`,
/// and keeps it: a view that later moves under another MetaController does not
/// change its model's, and renders after the first pass nothing and log nothing.
/// While the view has no MetaController, the model gets none.
///
/// Mark the model's `metaController` `@ObservationIgnored`: nothing on screen
/// depends on it, and the hand-over then changes no observed state during a view update.
///
/// As with `@State`, the initial value is made each time SwiftUI makes the
/// view, and SwiftUI keeps the first; only the kept model receives the
/// MetaController. Keep the model's `init` cheap and start work in
/// `metaControllerDidArrive()`. The model need not be `Sendable`: a
/// `@MainActor` class with an isolated conformance works, as the example shows.
///
/// For an `ObservableObject` model, or before iOS 17, use ``MetaControllerStateObject``.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
@propertyWrapper
public struct MetaControllerState<Model: Observable & MetaControllerConsumer>: @MainActor DynamicProperty {
    @Environment(\.metaController) private var metaController
    /// Where the wrapper is declared: a warning of the hand-over (a required controller missing) names the view's file and line.
    private let site: (file: String, line: UInt)
    @State private var model: Model

    /// Creates the wrapper; SwiftUI keeps the model of the first view it makes, as for `@State`.
    ///
    /// ```swift
    /// @MetaControllerState private var model = MapModel()
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - file: Where the wrapper is declared, for warnings; leave the default.
    ///   - line: Where the wrapper is declared, for warnings; leave the default.
    public init(wrappedValue model: Model, file: String = #fileID, line: UInt = #line) {
        _model = State(initialValue: model)
        site = (file, line)
    }

    /// The model.
    ///
    /// ```swift
    /// Text(model.title)
    /// ```
    public var wrappedValue: Model { model }

    /// Bindings to the model's properties, as `@Bindable` gives.
    ///
    /// ```swift
    /// TextField("Title", text: $model.title)
    /// ```
    public var projectedValue: Bindable<Model> { Bindable(model) }

    /// Hands the view's MetaController to the model while it holds none; SwiftUI calls it before each `body`.
    public func update() {
        MetaControllerHandOver.handOver(metaController, to: model, file: site.file, function: "update()", line: site.line)
    }
}
#endif
