/// Where a SwiftUI wrapper finds the ``Property`` it shows: a key path into the
/// environment's MetaController, or a property given outright.
///
/// The wrapper resolves it on every update, so the property it follows changes
/// when the view's MetaController does, or when the slot the key path reads
/// is filled with another controller.
struct PropertySource<Value: Sendable>: Sendable {
    private enum Kind: Sendable {
        case optionalKeyPath(any KeyPath<MetaController, Property<Value>?> & Sendable)
        case keyPath(any KeyPath<MetaController, Property<Value>> & Sendable)
        case property(Property<Value>)
    }

    private let kind: Kind

    /// What to show while no property is found: no MetaController, or the key path ends in `nil`.
    let defaultValue: Value

    /// The property at `keyPath` in the MetaController, which may be missing (an empty slot).
    init(_ keyPath: any KeyPath<MetaController, Property<Value>?> & Sendable, default defaultValue: Value) {
        kind = .optionalKeyPath(keyPath)
        self.defaultValue = defaultValue
    }

    /// The property at `keyPath` in the MetaController.
    init(_ keyPath: any KeyPath<MetaController, Property<Value>> & Sendable, default defaultValue: Value) {
        kind = .keyPath(keyPath)
        self.defaultValue = defaultValue
    }

    /// `property` itself, whatever the MetaController; its value when made is the default.
    init(_ property: Property<Value>) {
        kind = .property(property)
        defaultValue = property.value
    }

    /// The property to follow with `metaController`: `nil` when the key path
    /// needs a MetaController and there is none, or leads to no property.
    func resolve(in metaController: MetaController?) -> Property<Value>? {
        switch kind {
        case .optionalKeyPath(let keyPath): metaController?[keyPath: keyPath]
        case .keyPath(let keyPath): metaController?[keyPath: keyPath]
        case .property(let property): property
        }
    }
}

extension PropertyFollower {
    /// What a SwiftUI wrapper does before each body: follows the property
    /// `source` finds in `metaController`.
    ///
    /// A MetaController, or a slot, that now leads to another property makes it
    /// follow that one, letting go of the old; one that leads to the same
    /// property changes nothing.
    ///
    /// - Returns: Whether it now follows another property (or none, instead of one).
    @discardableResult
    func follow(_ source: PropertySource<Value>, in metaController: MetaController?) -> Bool {
        follow(source.resolve(in: metaController))
    }
}
