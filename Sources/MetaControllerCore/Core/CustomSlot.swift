/// The value of a custom slot, in a box whose class names the value's type.
@usableFromInline
final class CustomSlot<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}
