public import MetaControllerCore

/// How the app's log controller is set up: a minimum level and where entries go.
///
/// In a configuration file:
///
/// ```json
/// "log": {
///     "level": "info",
///     "destinations": [
///         { "kind": "standardError", "level": "debug" },
///         { "kind": "file", "directory": "Logs", "format": "jsonLines",
///           "maximumFileBytes": 1048576, "keptFiles": 5 },
///         { "kind": "memory", "capacity": 500 }
///     ]
/// }
/// ```
///
/// Every key is optional: the level is `info` and the destination standard
/// error unless the file says otherwise.
public struct LogConfiguration: Codable, Sendable, Equatable {
    /// The lowest level logged at all.
    public var level: LogLevel
    /// Where entries go.
    public var destinations: [LogDestinationConfiguration]
    /// Whether values marked private are shown; honoured in debug builds only.
    public var revealsPrivateValues: Bool

    /// Creates a configuration.
    public init(
        level: LogLevel = .info,
        destinations: [LogDestinationConfiguration] = [LogDestinationConfiguration(kind: .standardError)],
        revealsPrivateValues: Bool = false
    ) {
        self.level = level
        self.destinations = destinations
        self.revealsPrivateValues = revealsPrivateValues
    }

    private enum Keys: String, CodingKey, CaseIterable {
        case level, destinations, revealsPrivateValues
    }

    /// Decodes a configuration, naming the key path of anything wrong or unknown.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Set(Keys.allCases.map(\.rawValue)))
        let container = try decoder.container(keyedBy: Keys.self)
        level = try container.decodeChoiceIfPresent(LogLevel.self, forKey: .level) ?? .info
        destinations =
            try container.decodeIfPresent([LogDestinationConfiguration].self, forKey: .destinations)
            ?? [LogDestinationConfiguration(kind: .standardError)]
        revealsPrivateValues = try container.decodeIfPresent(Bool.self, forKey: .revealsPrivateValues) ?? false
    }

    /// Encodes the configuration in the form it decodes from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(level, forKey: .level)
        try container.encode(destinations, forKey: .destinations)
        try container.encode(revealsPrivateValues, forKey: .revealsPrivateValues)
    }
}
