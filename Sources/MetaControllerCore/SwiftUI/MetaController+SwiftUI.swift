#if canImport(SwiftUI)
public import SwiftUI

private struct MetaControllerEnvironmentKey: EnvironmentKey {
    static let defaultValue: MetaController? = nil
}

extension EnvironmentValues {
    /// The MetaController of the view hierarchy; `nil` unless a view above set it.
    ///
    /// ```swift
    /// struct ProfileView: View {
    ///     @Environment(\.metaController) private var metaController
    ///     var body: some View {
    ///         Button("Refresh") { metaController?.logController?.log(...) }
    ///     }
    /// }
    /// ```
    public var metaController: MetaController? {
        get { self[MetaControllerEnvironmentKey.self] }
        set { self[MetaControllerEnvironmentKey.self] = newValue }
    }
}

extension View {
    /// Makes `metaController` the MetaController of this view and the views it contains.
    ///
    /// ```swift
    /// WindowGroup {
    ///     ContentView().metaController(appMetaController)
    /// }
    /// ```
    public func metaController(_ metaController: MetaController?) -> some View {
        environment(\.metaController, metaController)
    }
}
#endif
