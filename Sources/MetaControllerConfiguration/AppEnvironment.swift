/// Where the app runs: production, staging, test, or one the app names.
///
/// An ``AppConfiguration`` has an API base URL per environment.
///
/// ```swift
/// let environment: AppEnvironment = isTesting ? .test : .production
/// let qa = AppEnvironment(rawValue: "qa")
/// ```
public struct AppEnvironment: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The environment's name, as it appears in the configuration file.
    public let rawValue: String

    /// Creates an environment from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates an environment from a string literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// Decodes an environment from its name.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the environment's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The environment's name.
    public var description: String { rawValue }

    /// The live app and server.
    public static let production = AppEnvironment(rawValue: "production")
    /// A pre-release server.
    public static let staging = AppEnvironment(rawValue: "staging")
    /// Tests, usually against a `MockAPIServer` on this machine.
    public static let test = AppEnvironment(rawValue: "test")
}
