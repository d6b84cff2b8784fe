import Foundation

/// Reads typed values out of one dictionary of a push payload, naming the key
/// path of anything wrong.
struct PayloadReader {
    let values: [String: JSONValue]
    let path: String

    static let knownAPSKeys: Set<String> = [
        "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content",
        "target-content-id", "interruption-level", "relevance-score", "filter-criteria",
        "timestamp", "event", "content-state", "stale-date", "dismissal-date", "attributes-type", "attributes",
    ]

    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func invalid(_ key: String, _ reason: String) -> PushNotificationError {
        PushNotificationError(code: .invalidValue, keyPath: keyPath(key), reason: reason)
    }

    static func wrongType(at path: String, expected: String, found: JSONValue) -> PushNotificationError {
        PushNotificationError(code: .wrongType, keyPath: path, reason: "expected \(expected), found \(found.kindName)")
    }

    static func dictionary(_ value: JSONValue, at path: String) throws(PushNotificationError) -> [String: JSONValue] {
        guard case .object(let dictionary) = value else { throw wrongType(at: path, expected: "a dictionary", found: value) }
        return dictionary
    }

    func string(_ key: String) throws(PushNotificationError) -> String? {
        guard let value = values[key] else { return nil }
        guard case .string(let text) = value else { throw Self.wrongType(at: keyPath(key), expected: "a string", found: value) }
        return text
    }

    func number(_ key: String, in range: ClosedRange<Double>? = nil) throws(PushNotificationError) -> Double? {
        guard let value = values[key] else { return nil }
        guard case .number(let number) = value else { throw Self.wrongType(at: keyPath(key), expected: "a number", found: value) }
        if let range, !range.contains(number) {
            throw invalid(key, "expected a number from \(range.lowerBound) to \(range.upperBound), found \(value)")
        }
        return number
    }

    func int(_ key: String, minimum: Int) throws(PushNotificationError) -> Int? {
        guard let value = values[key] else { return nil }
        guard case .number = value else { throw Self.wrongType(at: keyPath(key), expected: "a whole number", found: value) }
        guard let number = value.intValue, number >= minimum else {
            throw invalid(key, "expected a whole number of \(minimum) or more, found \(value)")
        }
        return number
    }

    /// A `0` or `1` flag; absent is `false`.
    func flag(_ key: String) throws(PushNotificationError) -> Bool {
        guard let number = try int(key, minimum: 0) else { return false }
        guard number <= 1 else { throw invalid(key, "expected 0 or 1, found \(number)") }
        return number == 1
    }

    func date(_ key: String) throws(PushNotificationError) -> Date? {
        try number(key, in: 0...1e11).map { Date(timeIntervalSince1970: $0) }
    }

    func strings(_ key: String) throws(PushNotificationError) -> [String]? {
        guard let value = values[key] else { return nil }
        guard case .array(let items) = value else {
            throw Self.wrongType(at: keyPath(key), expected: "an array of strings", found: value)
        }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                throw Self.wrongType(at: "\(keyPath(key))[\(index)]", expected: "a string", found: item)
            }
            strings.append(text)
        }
        return strings
    }

    func dictionary(_ key: String) throws(PushNotificationError) -> [String: JSONValue]? {
        guard let value = values[key] else { return nil }
        return try Self.dictionary(value, at: keyPath(key))
    }

    // MARK: - The aps keys

    /// A text that is a string, a `{loc-key, loc-args}` dictionary (Live Activities),
    /// or given by `<locKey>` and `<argsKey>` beside it.
    private func text(_ key: String, locKey: String, argsKey: String) throws(PushNotificationError) -> PushNotification.Text? {
        if let value = values[key], case .object(let dictionary) = value {
            let nested = PayloadReader(values: dictionary, path: keyPath(key))
            guard let key = try nested.string("loc-key") else {
                throw PushNotificationError(code: .missingKey, keyPath: nested.keyPath("loc-key"), reason: "a localized text needs loc-key")
            }
            return .localized(key: key, arguments: try nested.strings("loc-args") ?? [])
        }
        if let localizationKey = try string(locKey) {
            return .localized(key: localizationKey, arguments: try strings(argsKey) ?? [])
        }
        if values[argsKey] != nil, values[locKey] == nil {
            throw PushNotificationError(code: .missingKey, keyPath: keyPath(locKey), reason: "\(argsKey) is given without \(locKey)")
        }
        return try string(key).map { .text($0) }
    }

    func alert() throws(PushNotificationError) -> PushNotification.Alert? {
        guard let value = values["alert"] else { return nil }
        switch value {
        case .string(let body):
            return PushNotification.Alert(body: .text(body))
        case .object(let dictionary):
            let alert = PayloadReader(values: dictionary, path: keyPath("alert"))
            return PushNotification.Alert(
                title: try alert.text("title", locKey: "title-loc-key", argsKey: "title-loc-args"),
                subtitle: try alert.text("subtitle", locKey: "subtitle-loc-key", argsKey: "subtitle-loc-args"),
                body: try alert.text("body", locKey: "loc-key", argsKey: "loc-args"),
                launchImage: try alert.string("launch-image"))
        default:
            throw Self.wrongType(at: keyPath("alert"), expected: "a string or a dictionary", found: value)
        }
    }

    func sound() throws(PushNotificationError) -> PushNotification.Sound? {
        guard let value = values["sound"] else { return nil }
        switch value {
        case .string(let name):
            return PushNotification.Sound(name: name)
        case .object(let dictionary):
            let sound = PayloadReader(values: dictionary, path: keyPath("sound"))
            return PushNotification.Sound(
                name: try sound.string("name"), isCritical: try sound.flag("critical"),
                volume: try sound.number("volume", in: 0...1))
        default:
            throw Self.wrongType(at: keyPath("sound"), expected: "a string or a dictionary", found: value)
        }
    }

    func liveActivity() throws(PushNotificationError) -> PushNotification.LiveActivity? {
        let keys = ["timestamp", "event", "content-state", "stale-date", "dismissal-date", "attributes-type", "attributes"]
        guard keys.contains(where: { values[$0] != nil }) else { return nil }
        let event = try string("event")
        if let event, !["start", "update", "end"].contains(event) {
            throw invalid("event", "expected start, update or end, found \"\(event)\"")
        }
        return PushNotification.LiveActivity(
            timestamp: try date("timestamp"), event: event, contentState: try dictionary("content-state"),
            staleDate: try date("stale-date"), dismissalDate: try date("dismissal-date"),
            attributesType: try string("attributes-type"), attributes: try dictionary("attributes"))
    }
}
