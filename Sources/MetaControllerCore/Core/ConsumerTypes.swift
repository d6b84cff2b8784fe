/// Whether a value is a ``MetaControllerConsumer``, asked the fast way.
///
/// Setting a slot and making a product hand the MetaController on to the value
/// when it is a consumer. Asking an `Any` whether it is one (`as? any
/// MetaControllerConsumer`) is a dynamic cast, and when the answer is no, as
/// it is for most services, it is slow: about 230 ns on the machine of
/// Docs/Performance.md, some 40% of building a graph of custom slots. Asking
/// the value's type instead (`is any MetaControllerConsumer.Type`) is answered
/// from the runtime's cache of conformances, without a lock, in about 20 ns.
///
/// The type's answer ignores isolation, so a value of a conforming type is
/// still cast: a conformance isolated to the main actor
/// (`@MainActor MetaControllerConsumer`) casts only on the main actor.
enum ConsumerTypes {
    /// `value` as a consumer, or `nil` when it is not one (or is one only on an actor the caller is not on).
    static func consumer(_ value: Any) -> (any MetaControllerConsumer)? {
        guard Swift.type(of: value) is any MetaControllerConsumer.Type else { return nil }
        return value as? any MetaControllerConsumer
    }
}
