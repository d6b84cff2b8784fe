#if canImport(SwiftUI)
public import Combine
public import SwiftUI

/// Owns an `ObservableObject` view model, as `@StateObject` does, and hands it
/// the view's MetaController before its first `body`.
///
/// ```swift
/// @MainActor
/// final class ProfileModel: ObservableObject, @MainActor MetaControllerConsumer {
///     var metaController: MetaController?
///     @Published private(set) var name = ""
///
///     func metaControllerDidArrive() {
///         Task { name = try await apiController?.fetchName() ?? "" }
///     }
/// }
///
/// struct ProfileView: View {
///     @MetaControllerStateObject private var model = ProfileModel()
///     var body: some View { Text(model.name) }
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
/// The model need not be `Sendable`: a `@MainActor` class with an isolated
/// conformance (`@MainActor MetaControllerConsumer`) works, as the example shows.
///
/// Available from iOS 16. For an `@Observable` model, use ``MetaControllerState``.
@MainActor
@propertyWrapper
public struct MetaControllerStateObject<Model: ObservableObject & MetaControllerConsumer>: @MainActor DynamicProperty {
    @Environment(\.metaController) private var metaController
    /// Where the wrapper is declared: a warning of the hand-over (a required controller missing) names the view's file and line.
    private let site: (file: String, line: UInt)
    @StateObject private var model: Model

    /// Creates the wrapper; SwiftUI makes the model once per view identity, as for `@StateObject`.
    ///
    /// ```swift
    /// @MetaControllerStateObject private var model = ProfileModel()
    /// ```
    ///
    /// - Parameters:
    ///   - model: Makes the model; called once, when SwiftUI first needs it.
    ///   - file: Where the wrapper is declared, for warnings; leave the default.
    ///   - line: Where the wrapper is declared, for warnings; leave the default.
    public init(wrappedValue model: @autoclosure @escaping () -> Model, file: String = #fileID, line: UInt = #line) {
        _model = StateObject(wrappedValue: model())
        site = (file, line)
    }

    /// The model.
    ///
    /// ```swift
    /// Text(model.name)
    /// ```
    public var wrappedValue: Model { model }

    /// Bindings to the model's properties, as `$model` gives for a `@StateObject`.
    ///
    /// ```swift
    /// TextField("Name", text: $model.draftName)
    /// ```
    public var projectedValue: ObservedObject<Model>.Wrapper { $model }

    /// Hands the view's MetaController to the model while it holds none; SwiftUI calls it before each `body`.
    public func update() {
        MetaControllerHandOver.handOver(metaController, to: model, file: site.file, function: "update()", line: site.line)
    }
}
#endif
