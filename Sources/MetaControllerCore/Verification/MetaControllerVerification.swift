/// What ``MetaController/verify(consumers:samples:)`` or
/// ``MetaController/verification(consumers:samples:)`` found: every problem of
/// the registered factories and the listed consumers, all at once.
///
/// ```swift
/// let report = metaController.verify(consumers: [FeedScreen.self, CheckoutScreen.self])
/// #expect(report.isSatisfied, "\(report)")
/// print(report)
/// // verified 14 factories (10 made) and 2 consumer types: 2 problems
/// // CheckoutScreen -> PaymentClient -> TokenStore: no factory makes TokenStore; register one with register(_:name:factory:)
/// // circular factories: Chicken -> Egg -> Chicken
/// ```
public struct MetaControllerVerification: Sendable, Equatable, CustomStringConvertible {
    /// One thing that would fail when the app makes a product or shows a consumer.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// What kind of problem this is.
        public struct Kind: Hashable, Sendable, CustomStringConvertible {
            private let name: String

            private init(_ name: String) {
                self.name = name
            }

            /// A factory, or a factory it requested, requested a product that no factory makes.
            public static let missingFactory = Kind("missingFactory")
            /// Factories request each other in a circle.
            public static let circularFactories = Kind("circularFactories")
            /// A factory threw.
            public static let factoryThrew = Kind("factoryThrew")
            /// A factory that does not run on the main actor requested a product of a main-actor factory.
            public static let notOnMainActor = Kind("notOnMainActor")
            /// A consumer requires a slot that the MetaController does not fill.
            public static let unfilledRequirement = Kind("unfilledRequirement")
            /// A product read, while it was made, a slot that the MetaController does not fill.
            public static let unfilledRead = Kind("unfilledRead")
            /// A factory that takes an argument was not made: there was no sample argument of its type.
            public static let missingSample = Kind("missingSample")
            /// A factory, or a product one made, called ``MetaController/verify(consumers:samples:)``
            /// while the graph was verified: that call verified nothing, and returned this problem alone.
            public static let verifyCalledWhileVerifying = Kind("verifyCalledWhileVerifying")
            /// A factory requested with `make` a product that only an async factory makes (the
            /// app's `make` throws ``MetaControllerError/Code/asyncFactory`` there): make the
            /// requesting factory async and request the product with `try await product(_:name:)`.
            /// In a report of the synchronous ``MetaController/verify(consumers:samples:)``, also an
            /// async registration it could not make: call ``MetaController/verification(consumers:samples:)``.
            public static let asyncFactory = Kind("asyncFactory")

            /// The kind's name, such as `missingFactory`.
            public var description: String { name }
        }

        /// What kind of problem this is.
        public let kind: Kind

        /// The factories from the registration verified to the one that failed,
        /// such as `["CheckoutScreen", "PaymentClient", "TokenStore"]`; for a
        /// circle, the circle (`["Chicken", "Egg", "Chicken"]`); for a
        /// consumer type, its name alone.
        public let chain: [String]

        /// A sentence that says what went wrong, as the error the app would
        /// meet says it: `no factory makes TokenStore; register one with register(_:name:factory:)`.
        public let message: String

        /// The chain, then the message; a circle's message alone, since it names the chain.
        public var description: String {
            if kind == .circularFactories || chain.count < 2 { return message }
            return "\(chain.joined(separator: " -> ")): \(message)"
        }
    }

    /// Every problem found, one per cause: a failure met from several
    /// registrations, or through several chains, is reported once, with the
    /// longest chain that led to it.
    ///
    /// The cause is, by ``Problem/kind``: for `missingFactory`, the product
    /// missing (its type, name and argument type); for `factoryThrew`, the
    /// registration that threw; for `notOnMainActor`, the factory that asked
    /// and the main-actor factory it asked for; for `asyncFactory`, the
    /// factory that asked with `make` and the async one it asked for (or the
    /// async registration alone, which `verify` cannot make); for `unfilledRead`, the
    /// product that read and the slot; for `circularFactories`, the factories
    /// of the circle; for `unfilledRequirement`, the consumer type; for
    /// `missingSample` and `verifyCalledWhileVerifying`, the registration.
    public let problems: [Problem]

    /// How many registrations were made: their factories ran and returned a
    /// product. A registration that failed, or had no sample argument, is
    /// checked (``factoriesChecked``) but not made.
    public let factoriesMade: Int

    /// How many registrations were checked: every one that a request to the
    /// MetaController verified would find, made or not.
    public let factoriesChecked: Int

    /// How many consumer types were checked: the ones listed, and the products made that are consumers.
    public let consumerTypesChecked: Int

    /// Whether nothing was found.
    public var isSatisfied: Bool { problems.isEmpty }

    /// A summary line, then one line per problem.
    ///
    /// The summary counts the factories checked, and, when some were not
    /// made, how many were: `verified 8 factories (1 made) and 2 consumer types: 5 problems`.
    public var description: String {
        var factories = factoriesChecked == 1 ? "1 factory" : "\(factoriesChecked) factories"
        if factoriesMade != factoriesChecked { factories += " (\(factoriesMade) made)" }
        let consumers = consumerTypesChecked == 1 ? "1 consumer type" : "\(consumerTypesChecked) consumer types"
        let counts = "verified \(factories) and \(consumers)"
        guard !problems.isEmpty else { return counts + ": no problems" }
        let summary = counts + ": \(problems.count) problem\(problems.count == 1 ? "" : "s")"
        return ([summary] + problems.map(\.description)).joined(separator: "\n")
    }
}

/// A sample argument for ``MetaController/verify(consumers:samples:)`` to make
/// the products of factories that take an argument of its type.
///
/// ```swift
/// metaController.verify(samples: [FactorySample(Item(id: 1)), FactorySample(UserID("ada"))])
/// ```
public struct FactorySample {
    let type: ObjectIdentifier
    let value: Any

    /// A sample of type `type`, which is the value's own type unless given:
    /// pass `as: (any PaymentMethod).self` for factories registered with
    /// `argument: (any PaymentMethod).self`.
    public init<Argument>(_ value: Argument, as type: Argument.Type = Argument.self) {
        self.type = ObjectIdentifier(type)
        self.value = value
    }
}
