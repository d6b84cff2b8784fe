/// The value of a custom slot, in a box whose class names the value's type.
@usableFromInline
final class CustomSlot<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}

/// A custom slot's value, whatever its type, for a graph to name the type it holds.
protocol AnyCustomSlot: AnyObject {
    /// The value, as `Any`: its dynamic type is the concrete type held.
    var anyValue: Any { get }
}

extension CustomSlot: AnyCustomSlot {
    var anyValue: Any { value }
}
