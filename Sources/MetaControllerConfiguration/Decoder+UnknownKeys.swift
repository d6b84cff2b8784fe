extension Decoder {
    /// Throws ``ConfigurationError/Code/unknownKey`` for the first key of the
    /// current dictionary that is not in `known`: `Codable` ignores unknown
    /// keys, and a configuration must not ignore a typo.
    func rejectUnknownKeys(_ known: Set<String>) throws {
        let container = try container(keyedBy: AnyCodingKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        throw ConfigurationError(
            .unknownKey, at: codingPath + [AnyCodingKey(first)],
            "unknown key; expected one of \(known.sorted().joined(separator: ", "))")
    }
}

/// A coding key for any string, to list a dictionary's keys.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}
