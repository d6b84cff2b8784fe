public import Logging
public import MetaController

extension LogMetadata {
    /// MetaController metadata holding swift-log metadata, its keys sorted so
    /// that the order is the same on every run.
    ///
    /// A `.string` value is kept as it is; any other value (a string-convertible,
    /// an array, a dictionary) as swift-log describes it: `["a", "b"]` for an array.
    ///
    /// - Parameter metadata: The swift-log metadata.
    public init(_ metadata: Logger.Metadata) {
        self.init(
            metadata.sorted { $0.key < $1.key }.map { key, value in
                if case .string(let text) = value { return (key, text) }
                return (key, value.description)
            })
    }
}

extension Logger.Metadata {
    /// swift-log metadata holding MetaController metadata, each value a `.string`.
    ///
    /// - Parameter metadata: The MetaController metadata.
    public init(_ metadata: LogMetadata) {
        self.init(minimumCapacity: metadata.pairs.count)
        for (key, value) in metadata.pairs { self[key] = .string(value) }
    }
}
