/// An error from a MetaController's factories, saying what went wrong and for which type.
///
/// Match on ``code``; print the error for a sentence that names the type, the
/// variant and the argument:
///
/// ```swift
/// do {
///     let detail = try metaController.make(DetailScreen.self, argument: item)
/// } catch let error as MetaControllerError where error.code == .missingFactory {
///     print(error)   // no factory makes DetailScreen from Item; register one with register(_:name:argument:factory:)
/// }
/// ```
public struct MetaControllerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// No factory is registered for the requested type, name and argument type, here or in a parent.
        public static let missingFactory = Code(name: "missingFactory")
        /// A factory requested, directly or through others, the product it is making.
        public static let circularFactories = Code(name: "circularFactories")
        /// A factory registered with a `@MainActor` closure was asked for a product from code not isolated to the main actor.
        public static let notOnMainActor = Code(name: "notOnMainActor")
        /// A synchronous `make` asked for a product that only an async factory makes, and that is not made:
        /// request it with `try await product(_:name:)` (or `product(_:name:argument:)`) instead.
        public static let asyncFactory = Code(name: "asyncFactory")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public let code: Code

    /// A sentence that names what went wrong and for which type.
    public let description: String

    static func missingFactory(_ key: FactoryKey) -> MetaControllerError {
        let how = key.takesArgument ? "register(_:name:argument:factory:)" : "register(_:name:factory:)"
        return MetaControllerError(
            code: .missingFactory,
            description: "no factory makes \(key); register one with \(how)")
    }

    static func notOnMainActor(_ key: FactoryKey) -> MetaControllerError {
        MetaControllerError(
            code: .notOnMainActor,
            description: "the factory of \(key) runs on the main actor; call make from the main actor")
    }

    static func asyncFactory(_ key: FactoryKey) -> MetaControllerError {
        let how = key.takesArgument ? "product(_:name:argument:)" : "product(_:name:)"
        return MetaControllerError(
            code: .asyncFactory,
            description: "the factory of \(key) is async and make cannot wait for it; "
                + "request it with try await \(how)")
    }

    static func circularFactories(_ path: [FactoryKey]) -> MetaControllerError {
        MetaControllerError(
            code: .circularFactories,
            description: "circular factories: \(path.map(\.description).joined(separator: " -> "))")
    }
}
