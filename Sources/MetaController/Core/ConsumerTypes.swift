/// Which types are ``MetaControllerConsumer``s, worked out once per type.
///
/// Setting a slot and making a product hand the MetaController on to the value
/// when it is a consumer. Asking an `Any` whether it is one (`as? any
/// MetaControllerConsumer`) is a conformance lookup in the runtime, and when the
/// answer is no, as it is for most services, it is slow: about 500 ns on the
/// machine of Docs/Performance.md, some 40% of building a graph of custom slots.
/// The answer for a type never changes, so it is kept here, by type.
///
/// What is kept is whether the type conforms at all, asked of its metatype,
/// which ignores isolation. A value of a conforming type is still cast as
/// before, because a conformance isolated to the main actor
/// (`@MainActor MetaControllerConsumer`) casts only on the main actor.
enum ConsumerTypes {
    /// Whether each type met so far conforms, by `ObjectIdentifier` of the type.
    private static let conforming = Lock<[ObjectIdentifier: Bool]>([:])

    /// `value` as a consumer, or `nil` when it is not one (or is one only on an actor the caller is not on).
    static func consumer(_ value: Any) -> (any MetaControllerConsumer)? {
        let type = Swift.type(of: value)
        let id = ObjectIdentifier(type)
        guard conforming.withLock({ $0[id] }) ?? learn(type, id) else { return nil }
        return value as? any MetaControllerConsumer
    }

    /// Works out whether `type` conforms and keeps the answer.
    private static func learn(_ type: Any.Type, _ id: ObjectIdentifier) -> Bool {
        let conforms = type is any MetaControllerConsumer.Type
        conforming.withLock { $0[id] = conforms }
        return conforms
    }
}
