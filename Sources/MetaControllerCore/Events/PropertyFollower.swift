/// Follows one ``Property`` at a time on the main actor: the part of the
/// SwiftUI and Observation bridges that Linux can test.
///
/// ``follow(_:)`` subscribes to a property with a main-actor handler and
/// replays its current value into ``value`` at once, silently: a SwiftUI
/// wrapper follows from `update()`, during a view update, where publishing a
/// change is not allowed, and the body that follows reads the new value
/// anyway. Every later value goes through ``onChange``, which must call the
/// `apply` closure it is handed (that sets ``value``), so an owner can announce
/// the change around it (`objectWillChange.send()`, an Observation mutation).
///
/// The rules:
/// - Following the property already followed (the same instance) does nothing.
/// - Following another one ends the old subscription first, and drops any of
///   its values still waiting for the main actor: once ``follow(_:)`` returns,
///   only the new property changes ``value``.
/// - `nil` shows ``defaultValue``.
/// - The followed property is kept strongly, so a derived chain nobody else
///   keeps (`count.map { … }.removingDuplicates()`) goes on changing.
/// - Values set on the main thread reach ``value`` before the set returns;
///   values set elsewhere arrive in a task on the main actor (see ``Property``).
/// - Releasing the follower ends its subscription at once.
@MainActor
final class PropertyFollower<Value: Sendable> {
    /// The value shown: the followed property's, or ``defaultValue`` when none is followed.
    private(set) var value: Value

    /// What ``value`` is while no property is followed.
    let defaultValue: Value

    /// Called with each change after a follow's replay; it must call `apply`,
    /// once, to set ``value``. The default just calls it.
    var onChange: (_ apply: () -> Void) -> Void = { $0() }

    /// The followed property and the subscription to it; the subscription ends when this is let go.
    private var subscription: (property: Property<Value>, token: SubscriptionToken)?

    /// Counts the follows, so that a value of an older subscription still on
    /// its way to the main actor is recognised and dropped.
    private var generation: UInt64 = 0

    /// Whether ``follow(_:)`` is replaying the new property's current value.
    private var isReplaying = false

    /// Creates a follower that shows `defaultValue` until it follows a property.
    nonisolated init(default defaultValue: Value) {
        self.defaultValue = defaultValue
        value = defaultValue
    }

    /// The property followed now, if any.
    var property: Property<Value>? { subscription?.property }

    /// Follows `property`, showing its current value at once without calling
    /// ``onChange``, and every later value through it; `nil` shows ``defaultValue``.
    ///
    /// - Returns: Whether anything changed: `false` when `property` is the one followed already.
    @discardableResult
    func follow(_ property: Property<Value>?) -> Bool {
        guard property !== subscription?.property else { return false }
        subscription?.token.cancel()
        subscription = nil
        generation &+= 1
        guard let property else {
            value = defaultValue
            return true
        }
        let generation = self.generation
        isReplaying = true
        defer { isReplaying = false }
        // From the main actor, a main-actor handler's replay runs at once, inside observe.
        let token = property.observe(replay: true, delivery: .mainActor) { [weak self] value in
            MainActor.assumeIsolated { self?.receive(value, generation: generation) }
        }
        subscription = (property, token)
        return true
    }

    /// Takes a value from the subscription of `generation`, unless a later follow ended it.
    private func receive(_ newValue: Value, generation: UInt64) {
        guard generation == self.generation else { return }
        if isReplaying {
            value = newValue
        } else {
            onChange { value = newValue }
        }
    }
}
