extension Property {
    /// A property that holds `transform` of this one's value and follows it.
    ///
    /// The derived property updates for as long as it is kept, even when this
    /// one is not. Setting it directly is allowed; the next change of this
    /// property overwrites it.
    ///
    /// ```swift
    /// let count = Property(3)
    /// let label = count.map { "\($0) unread" }
    /// count.value = 4
    /// label.value   // "4 unread"
    /// ```
    ///
    /// - Parameter transform: Makes the derived value; called on the setting thread.
    /// - Returns: The derived property.
    public func map<Derived: Sendable>(_ transform: @escaping @Sendable (Value) -> Derived) -> Property<Derived> {
        let derived = Property<Derived>(transform(value))
        derived.keep(observe(replay: true) { [weak derived] value in
            let mapped = transform(value)
            derived?.update(isolation: nil) { current in
                current = mapped
                return true
            }
        })
        return derived
    }

    /// A property that holds this one's value and `other`'s as a pair, and
    /// changes whenever either does.
    ///
    /// Each change replaces its own half of the pair atomically, so the pair
    /// always ends up holding the latest value of both, even when the two
    /// sources are set from different threads at once.
    ///
    /// ```swift
    /// let signedIn = Property(false)
    /// let online = Property(true)
    /// let canSync = signedIn.combined(with: online).map { $0 && $1 }
    /// ```
    ///
    /// - Parameter other: The second source.
    /// - Returns: The combined property; it follows both sources while it is kept.
    public func combined<Other: Sendable>(with other: Property<Other>) -> Property<(Value, Other)> {
        let derived = Property<(Value, Other)>((value, other.value))
        derived.keep(observe(replay: true) { [weak derived] value in
            derived?.update(isolation: nil) { pair in
                pair.0 = value
                return true
            }
        })
        derived.keep(other.observe(replay: true) { [weak derived] value in
            derived?.update(isolation: nil) { pair in
                pair.1 = value
                return true
            }
        })
        return derived
    }
}

extension Property where Value: Equatable {
    /// A property that follows this one but skips repeats: its subscribers hear
    /// only values different from the one before.
    ///
    /// ```swift
    /// let status = connection.removingDuplicates()
    /// status.subscribe(self) { listener, status in listener.show(status) }
    /// connection.value = .online   // heard
    /// connection.value = .online   // not heard
    /// ```
    ///
    /// - Returns: The derived property; it follows this one while it is kept.
    public func removingDuplicates() -> Property<Value> {
        let derived = Property<Value>(value)
        derived.keep(observe(replay: true) { [weak derived] value in
            derived?.update(isolation: nil) { current in
                guard current != value else { return false }
                current = value
                return true
            }
        })
        return derived
    }
}
