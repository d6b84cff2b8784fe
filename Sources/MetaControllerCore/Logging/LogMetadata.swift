/// Key-value pairs a ``LogEntry`` carries besides its message, such as a
/// request's id, in the order they were added.
///
/// Pass it to a logging shortcut, or set it for everything logged inside a
/// scope with ``withValues(_:operation:)``:
///
/// ```swift
/// debugLog("listed \(notes.count) notes", metadata: ["user": userID])
/// // NotesHandler.swift (line 12): list(): listed 3 notes [user=ada]
/// ```
///
/// Keys are unique: setting a key that is there already replaces its value in
/// place, so the order stays that of the first addition and the output is the
/// same on every run.
///
/// Values are always shown, in every build and every format: metadata carries
/// ids and other facts that correlate lines. A value that must stay private
/// goes in the message, interpolated with a ``LogPrivacy``.
public struct LogMetadata: Sendable, Equatable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    private struct Pair: Sendable, Equatable {
        var key: String
        var value: String
    }

    /// One array, not two, so that an entry without metadata copies one empty array.
    private var storage: [Pair] = []

    /// Creates empty metadata.
    public init() {}

    /// Creates metadata from a literal, its pairs in the literal's order; a
    /// repeated key keeps its first place and its last value.
    ///
    /// - Parameter elements: The pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// Creates metadata from pairs, in their order; a repeated key keeps its
    /// first place and its last value. Linear in the number of pairs, however many.
    ///
    /// - Parameter pairs: The pairs.
    public init(_ pairs: some Sequence<(String, String)>) {
        set(contentsOf: pairs)
    }

    /// Whether there are no pairs.
    public var isEmpty: Bool { storage.isEmpty }

    /// The pairs, in the order their keys were first added.
    public var pairs: [(key: String, value: String)] {
        storage.map { (key: $0.key, value: $0.value) }
    }

    /// The value for `key`; setting `nil` removes the pair.
    ///
    /// - Parameter key: The key.
    public subscript(key: String) -> String? {
        get { storage.first { $0.key == key }?.value }
        set {
            if let index = storage.firstIndex(where: { $0.key == key }) {
                if let newValue {
                    storage[index].value = newValue
                } else {
                    storage.remove(at: index)
                }
            } else if let newValue {
                storage.append(Pair(key: key, value: newValue))
            }
        }
    }

    /// These pairs followed by `other`'s; where both have a key, `other`'s value wins.
    ///
    /// - Parameter other: The metadata to add.
    /// - Returns: The merged metadata.
    public func merging(_ other: LogMetadata) -> LogMetadata {
        guard !isEmpty else { return other }
        var merged = self
        merged.set(contentsOf: other.storage.lazy.map { ($0.key, $0.value) })
        return merged
    }

    /// Sets each pair in turn, as the subscript does, with an index of the keys
    /// when there are many, so that setting n pairs takes linear time.
    private mutating func set(contentsOf pairs: some Sequence<(String, String)>) {
        var index: [String: Int]?
        for (key, value) in pairs {
            if index == nil, storage.count < 16 {
                self[key] = value   // a few pairs: a scan is cheaper than an index
                continue
            }
            if index == nil {
                index = Dictionary(storage.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
            }
            if let position = index?[key] {
                storage[position].value = value
            } else {
                index?[key] = storage.count
                storage.append(Pair(key: key, value: value))
            }
        }
    }

    /// The pairs as `key=value`, separated by spaces: `req=72b5 user=ada`.
    ///
    /// A key or value that is empty or holds whitespace (a space, a line
    /// break, any Unicode space), a control character, `=`, `"`, `[` or `]` is
    /// written as a JSON string (`note="two words"`), so
    /// that a value cannot fake another pair or break the line.
    public var description: String {
        storage.map { "\(Self.token($0.key))=\(Self.token($0.value))" }.joined(separator: " ")
    }

    /// `text` as it is, or as a JSON string when it could be misread in ``description``.
    private static func token(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && !text.unicodeScalars.contains { scalar in
                scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                    || "=\"[]".unicodeScalars.contains(scalar)
            }
        return plain ? text : LogFormat.quoted(text)
    }
}
