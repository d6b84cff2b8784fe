#if canImport(SwiftUI)
public import MetaControllerCore
public import SwiftUI

@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
extension PreviewTrait where T == Preview.ViewTraits {
    /// A preview trait that puts a preview MetaController in the preview's
    /// environment: every built-in slot filled by a fake, then `configure` run
    /// on it (``MetaController/preview(_:)``).
    ///
    /// ```swift
    /// #Preview(traits: .metaController { metaController in
    ///     metaController.fakeApiController?.respond(to: .get, "/feed", encoding: FeedItem.samples)
    /// }) {
    ///     FeedView()
    /// }
    /// ```
    ///
    /// Its keys' preview values are made when their slots are first read, and what they
    /// listen to on the bus they hear from the preview's first line, as in ``MetaController/preview(_:)``.
    ///
    /// Before iOS 18 (and macOS 15, tvOS 18, watchOS 11, visionOS 2), set it on
    /// the previewed view instead: `FeedView().metaController(.preview { … })`.
    ///
    /// - Parameter configure: Changes the MetaController before the preview uses it.
    /// - Returns: The trait.
    @MainActor
    public static func metaController(_ configure: (MetaController) -> Void = { _ in }) -> PreviewTrait<Preview.ViewTraits> {
        .modifier(MetaControllerPreviewModifier(metaController: .preview(configure)))
    }
}

/// Puts one MetaController in a preview's environment.
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
private struct MetaControllerPreviewModifier: PreviewModifier {
    let metaController: MetaController

    static func makeSharedContext() async throws {}

    func body(content: Content, context: Void) -> some View {
        content.metaController(metaController)
    }
}
#endif
