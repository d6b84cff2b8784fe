public import MetaControllerCore

/// One destination of a ``LogConfiguration``.
///
/// `kind` is required. `level` (the destination's own minimum) and `format`
/// apply to every kind; `directory`, `fileName`, `maximumFileBytes` and
/// `keptFiles` to files, `capacity` to memory. A key that does not apply to
/// the kind is refused, so a misplaced setting is not silently ignored.
public struct LogDestinationConfiguration: Codable, Sendable, Equatable {
    /// Where a destination writes.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The process's standard error.
        case standardError
        /// The process's standard output.
        case standardOutput
        /// Files in a directory, rotated by size.
        case file
        /// A ring buffer in memory.
        case memory
        /// The platform's log: `os.Logger` on Apple platforms, standard error elsewhere.
        case system
    }

    /// How entries are written.
    public enum Format: String, Codable, Sendable, CaseIterable {
        /// `File.swift (line N): function(): message`.
        case line
        /// The same line prefixed with the time and the level.
        case detailedLine
        /// One JSON object per entry and line.
        case jsonLines
    }

    /// Where it writes.
    public var kind: Kind
    /// Its own minimum level; `nil` takes every entry the controller logs.
    public var level: LogLevel?
    /// How it writes entries; `nil` for the kind's default (`jsonLines` for files, `line` otherwise).
    public var format: Format?
    /// For files: the directory, absolute or relative to the directory given when the controller is made.
    public var directory: String?
    /// For files: the name of the current file; `app.log` by default.
    public var fileName: String?
    /// For files: the size at which the file is rotated; 1 MiB by default.
    public var maximumFileBytes: Int?
    /// For files: how many files are kept, the current one included; 5 by default.
    public var keptFiles: Int?
    /// For memory: how many entries are kept; 1,000 by default.
    public var capacity: Int?

    /// Creates a destination's configuration.
    public init(
        kind: Kind, level: LogLevel? = nil, format: Format? = nil, directory: String? = nil,
        fileName: String? = nil, maximumFileBytes: Int? = nil, keptFiles: Int? = nil, capacity: Int? = nil
    ) {
        self.kind = kind
        self.level = level
        self.format = format
        self.directory = directory
        self.fileName = fileName
        self.maximumFileBytes = maximumFileBytes
        self.keptFiles = keptFiles
        self.capacity = capacity
    }

    private enum Keys: String, CodingKey, CaseIterable {
        case kind, level, format, directory, fileName, maximumFileBytes, keptFiles, capacity
    }

    /// Decodes a destination, refusing keys that do not apply to its kind.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        kind = try container.decodeChoice(Kind.self, forKey: .kind)
        var known: Set<Keys> = [.kind, .level, .format]
        switch kind {
        case .file: known.formUnion([.directory, .fileName, .maximumFileBytes, .keptFiles])
        case .memory: known.insert(.capacity)
        case .standardError, .standardOutput, .system: break
        }
        try decoder.rejectUnknownKeys(Set(known.map(\.rawValue)))
        level = try container.decodeChoiceIfPresent(LogLevel.self, forKey: .level)
        format = try container.decodeChoiceIfPresent(Format.self, forKey: .format)
        directory = try container.decodeIfPresent(String.self, forKey: .directory)
        fileName = try container.decodeIfPresent(String.self, forKey: .fileName)
        maximumFileBytes = try Self.positive(container, .maximumFileBytes)
        keptFiles = try Self.positive(container, .keptFiles)
        capacity = try Self.positive(container, .capacity)
        if kind == .file, directory?.isEmpty ?? true {
            throw ConfigurationError(.missingKey, at: container.codingPath + [Keys.directory], "a file destination needs a directory")
        }
        if let fileName, fileName.isEmpty || fileName.contains("/") || fileName.hasPrefix(".") {
            throw ConfigurationError(
                .invalidValue, at: container.codingPath + [Keys.fileName], "must be a plain file name: \"\(fileName)\"")
        }
    }

    /// Encodes the destination in the form it decodes from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(level, forKey: .level)
        try container.encodeIfPresent(format, forKey: .format)
        try container.encodeIfPresent(directory, forKey: .directory)
        try container.encodeIfPresent(fileName, forKey: .fileName)
        try container.encodeIfPresent(maximumFileBytes, forKey: .maximumFileBytes)
        try container.encodeIfPresent(keptFiles, forKey: .keptFiles)
        try container.encodeIfPresent(capacity, forKey: .capacity)
    }

    private static func positive(_ container: KeyedDecodingContainer<Keys>, _ key: Keys) throws -> Int? {
        guard let value = try container.decodeIfPresent(Int.self, forKey: key) else { return nil }
        guard value > 0 else { throw ConfigurationError(.invalidValue, at: container.codingPath + [key], "must be 1 or more") }
        return value
    }
}
