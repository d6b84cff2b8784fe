/// An error from a ``Signals`` bus, saying what was refused and why.
///
/// ```swift
/// do {
///     try signals.add(self, to: AppSignals.feedLoaded) { screen, items in screen.show(items) }
/// } catch {
///     print(error)   // FeedScreen already listens to feedLoaded
/// }
/// ```
public struct SignalsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of refusal this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The object already listens to the signal: an object listens to a signal at most once.
        public static let alreadyListening = Code(name: "alreadyListening")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of refusal this is.
    public let code: Code

    /// A sentence that names the listener's type and the signal.
    public let description: String

    static func alreadyListening(_ listener: AnyObject, _ signalName: String) -> SignalsError {
        SignalsError(
            code: .alreadyListening,
            description: "\(typeName(of: listener)) already listens to \(signalName)")
    }
}
