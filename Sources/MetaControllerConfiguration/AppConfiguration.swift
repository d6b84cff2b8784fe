import MetaControllerSupport
public import Foundation

/// The settings an app reads at launch to build its MetaController: the API's
/// base URL per environment, and the log's level and destinations.
///
/// Load it from a JSON or property-list file. Decoding never crashes: an
/// unknown key, a wrong type or a bad URL throws a ``ConfigurationError`` that
/// names the key path.
///
/// ```json
/// {
///     "api": {
///         "baseURLs": { "production": "https://api.example.com", "test": "http://127.0.0.1:8080" },
///         "timeoutSeconds": 20
///     },
///     "log": { "level": "debug", "destinations": [{ "kind": "standardError" }] }
/// }
/// ```
///
/// ```swift
/// let configuration = try AppConfiguration.load(from: Bundle.main.url(forResource: "App", withExtension: "json")!)
/// let metaController = try MetaController(configuration: configuration, environment: .production)
/// ```
public struct AppConfiguration: Codable, Sendable, Equatable {
    /// The API controller's settings.
    public var api: ApiConfiguration
    /// The log controller's settings; standard error at `info` when the file has none.
    public var log: LogConfiguration

    /// Creates a configuration.
    public init(api: ApiConfiguration, log: LogConfiguration = LogConfiguration()) {
        self.api = api
        self.log = log
    }

    /// Loads a configuration from a JSON file or a property list (XML or binary).
    ///
    /// - Throws: ``ConfigurationError``: ``ConfigurationError/Code/unreadableFile``
    ///   when the file cannot be read, otherwise what ``init(data:)`` throws.
    public static func load(from url: URL) throws(ConfigurationError) -> AppConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ConfigurationError(.unreadableFile, at: "", "cannot read \(url.path): \(error.localizedDescription)")
        }
        return try AppConfiguration(data: data)
    }

    /// Decodes a configuration from JSON or property-list data, telling them apart by their first bytes.
    ///
    /// Dictionaries and arrays nested more than 64 levels deep are refused as
    /// ``ConfigurationError/Code/malformedFile`` before the data reaches
    /// Foundation's parsers, which would overflow the stack on deep enough input;
    /// so is a binary property list whose structure cannot be followed. A key
    /// that appears twice in one JSON object or property-list dictionary, even
    /// spelled with escapes (`"a"` and `"\u0061"`, `a` and `&#97;`), is refused
    /// as ``ConfigurationError/Code/duplicateKey`` naming its path: Foundation's
    /// decoders would silently keep one of the values.
    ///
    /// - Throws: ``ConfigurationError`` naming the key path of what is wrong.
    public init(data: Data) throws(ConfigurationError) {
        let start = data.drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF })
        let isBinary = start.starts(with: Array("bplist".utf8))
        let isPropertyList =
            isBinary || start.starts(with: Array("<?xml".utf8))
            || start.starts(with: Array("<plist".utf8)) || start.starts(with: Array("<!DOCTYPE".utf8))
        // Foundation's parsers recurse once per level and crash on input nested some thousands deep;
        // its decoders keep one value of a key that appears twice and ignore the other.
        let problem =
            isBinary
            ? PropertyListStructure.problem(inBinary: data, depthLimit: Self.maximumNesting)
            : isPropertyList
                ? PropertyListStructure.problem(inXML: data, depthLimit: Self.maximumNesting)
                : JSONStructure.problem(in: data, depthLimit: Self.maximumNesting)
        switch problem {
        case .tooDeep? where isBinary, .unfollowable?:
            throw ConfigurationError(.malformedFile, at: "", "not a binary property list nested at most \(Self.maximumNesting) levels deep")
        case .tooDeep?:
            throw ConfigurationError(.malformedFile, at: "", "nested more than \(Self.maximumNesting) levels deep")
        case .duplicateKey(let path)?:
            throw ConfigurationError(.duplicateKey, at: path, "the key appears twice")
        case nil:
            break
        }
        do {
            self =
                isPropertyList
                ? try PropertyListDecoder().decode(AppConfiguration.self, from: data)
                : try JSONDecoder().decode(AppConfiguration.self, from: data)
        } catch {
            throw ConfigurationError.decoding(error)
        }
    }

    /// How deeply dictionaries and arrays may nest in a configuration file, the
    /// outermost included; the file's own structure needs 4.
    static let maximumNesting = 64

    private enum Keys: String, CodingKey, CaseIterable {
        case api, log
    }

    /// Decodes a configuration, naming the key path of anything wrong or unknown.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Set(Keys.allCases.map(\.rawValue)))
        let container = try decoder.container(keyedBy: Keys.self)
        api = try container.decode(ApiConfiguration.self, forKey: .api)
        log = try container.decodeIfPresent(LogConfiguration.self, forKey: .log) ?? LogConfiguration()
    }

    /// Encodes the configuration in the form it decodes from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(api, forKey: .api)
        try container.encode(log, forKey: .log)
    }
}
