import MetaControllerSupport

/// An error from loading an ``AppConfiguration``, naming the key path that is wrong.
///
/// ```swift
/// do {
///     let configuration = try AppConfiguration.load(from: url)
/// } catch {
///     print(error)   // api.baseURLs.staging: not an http or https URL: "htp:/x"
/// }
/// ```
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The file could not be read.
        public static let unreadableFile = Code(name: "unreadableFile")
        /// The file is not valid JSON or a property list, or nests more than 64 levels deep.
        public static let malformedFile = Code(name: "malformedFile")
        /// A key the configuration does not know; a typo, most likely.
        public static let unknownKey = Code(name: "unknownKey")
        /// A key appears twice in one JSON object: `api: the key appears twice`.
        public static let duplicateKey = Code(name: "duplicateKey")
        /// A key that must be there is missing.
        public static let missingKey = Code(name: "missingKey")
        /// A value has the wrong type, such as a number where text belongs.
        public static let typeMismatch = Code(name: "typeMismatch")
        /// A value has the right type but is not allowed: a bad URL, an unknown level, a negative size.
        public static let invalidValue = Code(name: "invalidValue")
        /// The environment asked for has no base URL.
        public static let unknownEnvironment = Code(name: "unknownEnvironment")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of problem this is.
    public let code: Code

    /// Where the problem is, such as `log.destinations[1].level`; empty for the whole file.
    public let keyPath: String

    /// What is wrong, without the key path.
    public let reason: String

    /// The key path and the reason: `log.destinations[1].level: expected one of trace, debug, ...`.
    public var description: String { keyPath.isEmpty ? reason : "\(keyPath): \(reason)" }

    init(_ code: Code, at keyPath: String, _ reason: String) {
        self.code = code
        self.keyPath = keyPath
        self.reason = reason
    }

    init(_ code: Code, at path: [any CodingKey], _ reason: String) {
        self.init(code, at: DecodingError.render(path), reason)
    }

    /// Translates a decoder's error into one that names the key path.
    static func decoding(_ error: any Error) -> ConfigurationError {
        if let error = error as? ConfigurationError { return error }
        guard let error = error as? DecodingError else {
            return ConfigurationError(.malformedFile, at: "", "\(error)")
        }
        switch error {
        case .keyNotFound:
            return ConfigurationError(.missingKey, at: error.keyPath, "the key is missing")
        case .typeMismatch(let type, _), .valueNotFound(let type, _):
            return ConfigurationError(.typeMismatch, at: error.keyPath, "expected \(Self.name(of: type))")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return ConfigurationError(.malformedFile, at: "", "not valid JSON or property list: \(error.reason)")
        case .dataCorrupted:
            return ConfigurationError(.invalidValue, at: error.keyPath, error.reason)
        @unknown default:
            return ConfigurationError(.malformedFile, at: error.keyPath, error.reason)
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        default:
            String(describing: type).hasPrefix("Array")
                ? "a list"
                : String(describing: type).hasPrefix("Dictionary") ? "a dictionary" : "\(type)"
        }
    }
}
