/// Gives a model owned by a SwiftUI view the view's MetaController, once.
///
/// A SwiftUI wrapper runs it from `update()`, before every `body`. The model
/// receives the environment's MetaController only while it holds none, so its
/// MetaController never changes under it once set (a view that moves under
/// another MetaController keeps the model's first), and renders after the
/// first pass nothing: no warning that the model "already holds a different
/// MetaController" is logged on every update.
enum MetaControllerHandOver {
    /// Passes `metaController` to `model` when `model` holds none yet.
    ///
    /// The pass is ``MetaController/passMetaController(to:replacingExisting:file:function:line:)``,
    /// so it reaches the model's children when it is a container and checks
    /// the model's required controllers.
    ///
    /// - Returns: Whether `metaController` was passed.
    @MainActor
    @discardableResult
    static func handOver<Model: MetaControllerConsumer>(
        _ metaController: MetaController?, to model: Model,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) -> Bool {
        guard let metaController, model.metaController == nil else { return false }
        metaController.passMetaController(to: model, file: file, function: function, line: line)
        return true
    }
}
