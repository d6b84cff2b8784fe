import MetaControllerCore

extension KeyedDecodingContainer {
    /// The case of `Choice` named at `key`, which must be there.
    ///
    /// A name that is no case throws ``ConfigurationError/Code/invalidValue``
    /// listing the cases in declaration order: `log.level: expected one of
    /// trace, debug, info, notice, warning, error, critical; found "loud"`.
    /// A missing key or a value that is not text throws what decoding a `String` throws.
    func decodeChoice<Choice: RawRepresentable & CaseIterable>(
        _ type: Choice.Type, forKey key: Key
    ) throws -> Choice where Choice.RawValue == String {
        try choice(named: decode(String.self, forKey: key), at: key)
    }

    /// The case of `Choice` named at `key`, or `nil` when the key is absent or `null`.
    func decodeChoiceIfPresent<Choice: RawRepresentable & CaseIterable>(
        _ type: Choice.Type, forKey key: Key
    ) throws -> Choice? where Choice.RawValue == String {
        guard let name = try decodeIfPresent(String.self, forKey: key) else { return nil }
        return try choice(named: name, at: key)
    }

    private func choice<Choice: RawRepresentable & CaseIterable>(
        named name: String, at key: Key
    ) throws(ConfigurationError) -> Choice where Choice.RawValue == String {
        guard let choice = Choice(rawValue: name) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(
                .invalidValue, at: codingPath + [key], "expected one of \(names); found \(LogFormat.quoted(name))")
        }
        return choice
    }
}
