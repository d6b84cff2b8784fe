import Foundation

/// An error from a ``DataController``, naming the key and what went wrong.
///
/// ```swift
/// do {
///     let profile = try dataController.fetch(Profile.self, forKey: "profile")
/// } catch where error.code == .corrupt {
///     print(error)   // the entry "profile" does not decode as Profile at name: the key is missing
/// }
/// ```
public struct DataStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The key is not allowed: empty, too long, a path, or with separators, NUL or control characters (C0, DEL, C1).
        public static let invalidKey = Code(name: "invalidKey")
        /// The store's directory cannot be created or used.
        public static let unavailable = Code(name: "unavailable")
        /// An entry cannot be read, or is not a regular file (a symbolic link, a FIFO, a device, a directory).
        public static let unreadable = Code(name: "unreadable")
        /// An entry cannot be written or removed.
        public static let unwritable = Code(name: "unwritable")
        /// An entry was read but does not decode as the requested type; ``DataStoreError/keyPath`` says where.
        public static let corrupt = Code(name: "corrupt")
        /// A value does not encode.
        public static let encoding = Code(name: "encoding")
        /// An entry is larger than the store allows (``FileDataController/maximumEntryBytes``); the
        /// description names the limit.
        public static let tooLarge = Code(name: "tooLarge")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The key concerned; empty for the store as a whole.
    public let key: String
    /// For ``Code/corrupt`` and ``Code/encoding``, the key path inside the value that failed.
    public let keyPath: String?
    /// A sentence naming the key and what went wrong.
    public let description: String

    init(_ code: Code, key: String, _ description: String, keyPath: String? = nil) {
        self.code = code
        self.key = key
        self.keyPath = keyPath
        self.description = description
    }

    /// The error a fake store throws when a test told it to fail a save.
    package static func simulatedFailure(forKey key: String) -> DataStoreError {
        DataStoreError(.unwritable, key: key, "cannot save \"\(key)\": the test made saves of this key fail")
    }

    /// The longest key, in UTF-8 bytes, leaving room in a file name for the store's suffixes.
    static let maximumKeyBytes = 200

    /// Checks that `key` can name an entry, and nothing outside the store, and
    /// returns the spelling every store uses: the key in Unicode normalization
    /// form C, so that canonically equivalent keys ("café" typed precomposed or
    /// with a combining accent) name the same entry in every store, on every
    /// platform.
    static func validate(_ key: String) throws(DataStoreError) -> String {
        let shown = key.unicodeScalars.count > 40 ? String(key.unicodeScalars.prefix(40)) + "…" : key
        func refuse(_ reason: String) -> DataStoreError {
            DataStoreError(.invalidKey, key: key, "the key \"\(shown.debugEscaped)\" \(reason)")
        }
        let normalized = key.inNormalizationFormC
        guard !normalized.isEmpty else { throw refuse("is empty") }
        guard normalized.utf8.count <= maximumKeyBytes else { throw refuse("is longer than \(maximumKeyBytes) bytes") }
        // Bytes, not Characters: ".\u{301}" is one Character but still starts with a dot.
        guard normalized.utf8.first != UInt8(ascii: ".") else {
            throw refuse(normalized == "." || normalized == ".." ? "names a directory" : "starts with a dot")
        }
        for scalar in normalized.unicodeScalars {
            if scalar == "/" || scalar == "\\" { throw refuse("contains a path separator") }
            if scalar.value == 0 { throw refuse("contains NUL") }
            if scalar.isControl { throw refuse("contains a control character") }
        }
        return normalized
    }
}

extension Unicode.Scalar {
    /// Whether this is a control character (general category Cc): U+0000 to
    /// U+001F, U+007F and U+0080 to U+009F.
    var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}

extension String {
    /// The string in Unicode normalization form C; ASCII, already in form C,
    /// skips Foundation's normalization.
    var inNormalizationFormC: String {
        utf8.allSatisfy { $0 < 0x80 } ? self : precomposedStringWithCanonicalMapping
    }

    /// The string with control characters escaped, for messages.
    var debugEscaped: String {
        unicodeScalars.map { $0.isControl ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
            .joined()
    }
}
