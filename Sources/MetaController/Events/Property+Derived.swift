extension Property {
    /// A property that holds `transform` of this one's value and follows it.
    ///
    /// The derived property keeps this one, and updates for as long as it is
    /// kept, even when nothing else keeps this one. This property does not keep
    /// the derived one: once that is released, `transform` is not called again.
    /// Setting it directly is allowed; the next change of this property
    /// overwrites it.
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
        let (current, version) = snapshot()
        let derived = Property<Derived>(transform(current))
        derived.keep(follow(since: version) { [weak derived] value in
            guard let derived else { return }
            let mapped = transform(value)
            derived.update(isolation: nil) { current in
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
    /// - Returns: The combined property; it keeps both sources and follows them while it is kept.
    public func combined<Other: Sendable>(with other: Property<Other>) -> Property<(Value, Other)> {
        let (first, firstVersion) = snapshot()
        let (second, secondVersion) = other.snapshot()
        let derived = Property<(Value, Other)>((first, second))
        derived.keep(follow(since: firstVersion) { [weak derived] value in
            derived?.update(isolation: nil) { pair in
                pair.0 = value
                return true
            }
        })
        derived.keep(other.follow(since: secondVersion) { [weak derived] value in
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
    /// - Returns: The derived property; it keeps this one and follows it while it is kept.
    public func removingDuplicates() -> Property<Value> {
        let (current, version) = snapshot()
        let derived = Property<Value>(current)
        derived.keep(follow(since: version) { [weak derived] value in
            derived?.update(isolation: nil) { current in
                guard current != value else { return false }
                current = value
                return true
            }
        })
        return derived
    }
}
