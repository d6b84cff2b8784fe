/// What ``MetaController/audit(_:)`` found: each consumer in a hierarchy, and
/// the controllers it requires that the MetaController lacks.
///
/// ```swift
/// let audit = metaController.audit(rootScreen)
/// #expect(audit.isSatisfied)
/// print(audit)
/// // RootScreen: ok
/// // SettingsScreen requires notificationController, which this MetaController lacks
/// ```
public struct MetaControllerAudit: Sendable, Equatable, CustomStringConvertible {
    /// What the audit found for one consumer.
    public struct ConsumerReport: Sendable, Equatable, CustomStringConvertible {
        /// The consumer's type, such as `CheckoutScreen`.
        public let typeName: String
        /// Whether the consumer holds the audited MetaController (it may hold none, or another one).
        public let holdsThisMetaController: Bool
        /// The slots the consumer requires that the MetaController lacks, in the order it declares them.
        public let missingControllers: [MetaControllerSlot]

        /// One line: `CheckoutScreen: ok`, or what it lacks and whether it holds the MetaController.
        public var description: String {
            var line = typeName
            if missingControllers.isEmpty {
                line += ": ok"
            } else {
                line += " requires \(missingControllers.map(\.name).joined(separator: ", ")), which this MetaController lacks"
            }
            if !holdsThisMetaController { line += " (does not hold this MetaController)" }
            return line
        }
    }

    /// Every consumer found, in the order the walk met them.
    public let consumers: [ConsumerReport]

    /// The consumers that require something the MetaController lacks.
    public var unsatisfied: [ConsumerReport] { consumers.filter { !$0.missingControllers.isEmpty } }

    /// Whether every consumer's requirements are met.
    public var isSatisfied: Bool { consumers.allSatisfy { $0.missingControllers.isEmpty } }

    /// One line per consumer.
    public var description: String {
        consumers.isEmpty ? "no consumers" : consumers.map(\.description).joined(separator: "\n")
    }
}
