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
        let generations = Lock(Generations())
        derived.keep(
            follow(since: version) { [weak derived] value in
                guard let derived else { return }
                // Numbered as it is delivered, in the order of this property's sets; an update
                // queued deep in a chain (``DerivedUpdates``) that runs after a later one is dropped.
                let generation = generations.withLock { $0.issue() }
                DerivedUpdates.run {
                    let mapped = transform(value)
                    derived.change(isolation: nil) { current in
                        guard generations.withLock({ $0.show(generation) }) else { return false }
                        current = mapped
                        return true
                    }
                }
            })
        return derived
    }

    /// A property that holds this one's value and `other`'s as a pair, and
    /// changes whenever either does.
    ///
    /// It is ``combined(with:_:)`` with a transform that makes the pair. To
    /// compute something from the two values, pass the transform instead of
    /// mapping the pair: the result can then be `Equatable`.
    ///
    /// ```swift
    /// let position = Property(0)
    /// let total = Property(10)
    /// let progress = position.combined(with: total)
    /// progress.value   // (0, 10)
    /// ```
    ///
    /// - Parameter other: The second source.
    /// - Returns: The combined property; it keeps both sources and follows them while it is kept.
    public func combined<Other: Sendable>(with other: Property<Other>) -> Property<(Value, Other)> {
        combined(with: other) { ($0, $1) }
    }

    /// A property that holds `transform` of this one's value and `other`'s, and
    /// changes whenever either does.
    ///
    /// A change of either source recomputes the value from the latest value of
    /// both, on the setting thread. When the two sources are set from different
    /// threads at once, a result computed from older values than the one the
    /// property already holds is dropped, so the property always ends up holding
    /// `transform` of the latest value of both, and never goes back to an older
    /// combination.
    ///
    /// ```swift
    /// let signedIn = Property(false)
    /// let online = Property(true)
    /// let canSync = signedIn.combined(with: online) { $0 && $1 }
    /// ```
    ///
    /// - Parameters:
    ///   - other: The second source.
    ///   - transform: Makes the derived value from both sources' values.
    /// - Returns: The combined property; it keeps both sources and follows them while it is kept.
    public func combined<Other: Sendable, Combined: Sendable>(
        with other: Property<Other>,
        _ transform: @escaping @Sendable (Value, Other) -> Combined
    ) -> Property<Combined> {
        let (first, firstVersion) = snapshot()
        let (second, secondVersion) = other.snapshot()
        let derived = Property<Combined>(transform(first, second))
        let latest = Lock(LatestPair(values: (first, second)))
        derived.keep(
            follow(since: firstVersion) { [weak derived] value in
                derived?.recombine(latest, transform) { $0.0 = value }
            })
        derived.keep(
            other.follow(since: secondVersion) { [weak derived] value in
                derived?.recombine(latest, transform) { $0.1 = value }
            })
        return derived
    }

    /// Sets this property, derived by `transform` from two sources, after `change`
    /// stored one source's new value in `latest`.
    ///
    /// `transform` is the user's and runs outside every lock; each result is
    /// numbered, and one older than the value shown is dropped.
    private func recombine<First, Second>(
        _ latest: Lock<LatestPair<First, Second>>,
        _ transform: @escaping @Sendable (First, Second) -> Value,
        change: (inout (First, Second)) -> Void
    ) {
        let (values, generation) = latest.withLock { latest in
            change(&latest.values)
            latest.generation += 1
            return (latest.values, latest.generation)
        }
        DerivedUpdates.run {
            let combined = transform(values.0, values.1)
            self.change(isolation: nil) { current in
                guard latest.withLock({ $0.show(generation) }) else { return false }
                current = combined
                return true
            }
        }
    }
}

/// The latest values of a combined property's two sources.
private struct LatestPair<First: Sendable, Second: Sendable>: Sendable {
    var values: (First, Second)
    /// The number of source changes so far.
    var generation: UInt64 = 0
    /// The generation the combined property holds the result of.
    var shown: UInt64 = 0

    /// Records that the result of `generation` is shown. - Returns: `false`, changing
    /// nothing, when a later generation's result already is.
    mutating func show(_ generation: UInt64) -> Bool {
        guard generation > shown else { return false }
        shown = generation
        return true
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
        let generations = Lock(Generations())
        derived.keep(
            follow(since: version) { [weak derived] value in
                guard let derived else { return }
                let generation = generations.withLock { $0.issue() }
                DerivedUpdates.run {
                    derived.change(isolation: nil) { current in
                        guard generations.withLock({ $0.show(generation) }), current != value else { return false }
                        current = value
                        return true
                    }
                }
            })
        return derived
    }
}

/// The updates of a derived property, numbered in the order its source delivered them, and the
/// latest one it holds: an older one that runs late (queued deep in a chain) changes nothing.
private struct Generations: Sendable {
    var issued: UInt64 = 0
    var shown: UInt64 = 0

    mutating func issue() -> UInt64 {
        issued += 1
        return issued
    }

    /// Records that `generation` is shown. - Returns: `false`, changing nothing, when a later one already is.
    mutating func show(_ generation: UInt64) -> Bool {
        guard generation > shown else { return false }
        shown = generation
        return true
    }
}
