public import MetaControllerCore

/// A save or a destroy in a ``DataController``, dispatched on the MetaController's ``Signals`` bus.
///
/// ```swift
/// try signals?.add(self, to: DataChange.signal, where: { $0.key == "profile" }) { @MainActor screen, change in
///     screen.reloadProfile()
/// }
/// ```
///
/// The package's data controllers dispatch it after each successful save or
/// destroy, when they are in a MetaController.
public struct DataChange: Sendable, Equatable {
    /// What happened to an entry.
    public enum Kind: Sendable, Equatable {
        /// The entry was saved: created or replaced.
        case saved
        /// The entry was removed.
        case destroyed
    }

    /// The entry's key.
    public let key: String
    /// What happened.
    public let kind: Kind

    /// Creates a change.
    public init(key: String, kind: Kind) {
        self.key = key
        self.kind = kind
    }

    /// The signal data controllers dispatch changes on.
    public static let signal = Signal<DataChange>("dataChanged")
}
