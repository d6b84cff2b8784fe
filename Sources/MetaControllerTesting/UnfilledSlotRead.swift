public import MetaControllerCore

/// A consumer read a slot that a strict MetaController does not fill.
///
/// A strict MetaController (``MetaControllerCore/MetaController/strict(reporting:)``) hands one
/// to its reporter for every such read. Its description names the consumer's
/// type and the slot:
///
/// ```swift
/// print(read)   // FeedScreen read apiController, which the test did not fill
/// ```
public struct UnfilledSlotRead: Sendable, Equatable, CustomStringConvertible {
    /// The name of the consumer's type, such as `FeedScreen`.
    public let consumer: String

    /// The slot the consumer read.
    public let slot: MetaControllerSlot

    /// Describes the read of `slot` by a consumer of the type named `consumer`.
    public init(consumer: String, slot: MetaControllerSlot) {
        self.consumer = consumer
        self.slot = slot
    }

    /// A sentence that names the consumer's type and the slot.
    public var description: String { "\(consumer) read \(slot.name), which the test did not fill" }
}
