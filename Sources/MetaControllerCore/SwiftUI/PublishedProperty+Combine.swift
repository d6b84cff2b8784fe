#if canImport(Combine)
public import Combine

extension PublishedProperty {
    /// Follows `property` instead of the property followed until now, and
    /// announces each later change through `model`'s `objectWillChange`; `nil`
    /// shows the default value.
    ///
    /// It is ``follow(_:willChange:)`` with `model.objectWillChange.send()`,
    /// holding `model` weakly:
    ///
    /// ```swift
    /// func metaControllerDidArrive() {
    ///     favorites.follow(favoritesController?.favorites, publishingTo: self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - property: The property to follow, or `nil` for none.
    ///   - model: The `ObservableObject` whose observers hear of each change.
    public func follow<Model: ObservableObject>(_ property: Property<Value>?, publishingTo model: Model)
    where Model.ObjectWillChangePublisher == ObservableObjectPublisher {
        follow(property) { [weak model] in model?.objectWillChange.send() }
    }
}
#endif
