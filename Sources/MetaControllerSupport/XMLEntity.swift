/// The entities XML defines without a DTD: the five predefined names and
/// numeric character references. The GPX reader and the property-list scan
/// both replace them.
package enum XMLEntity {
    /// The character of the entity `&name;` (`lt`, `#97`, `#x61`), or `nil`
    /// when `name` is none of the predefined names and no valid scalar.
    package static func scalar(named name: String) -> Unicode.Scalar? {
        switch name {
        case "lt": "<"
        case "gt": ">"
        case "amp": "&"
        case "quot": "\""
        case "apos": "'"
        default:
            if name.hasPrefix("#x") {
                UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                nil
            }
        }
    }

    /// The character `&name;` stands for in an XML 1.0 document (`lt`, `#97`, `#x61`), or `nil`:
    /// stricter than ``scalar(named:)``. A numeric reference is `#` and decimal digits or `#x` and
    /// hexadecimal digits, nothing else (no sign, no space), as many leading zeros as it likes
    /// (`#x0000000041` is `A`), and must name a character XML allows (the `Char` production of
    /// XML 1.0 §2.2): not U+0000, not another C0 control but tab, line feed and carriage return,
    /// not a surrogate, not U+FFFE or U+FFFF.
    package static func character(named name: some Collection<UInt8>) -> Unicode.Scalar? {
        guard name.first == UInt8(ascii: "#") else {
            return scalar(named: String(decoding: name, as: UTF8.self))
        }
        var digits = name.dropFirst()
        let radix: UInt32
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        } else {
            radix = 10
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value * radix + digit
            // Past the last code point it can only grow; stop before it overflows.
            guard value <= 0x10FFFF else { return nil }
        }
        guard isCharacter(value) else { return nil }
        return Unicode.Scalar(value)
    }

    /// Whether `value` is a `Char` of XML 1.0 (§2.2): tab, line feed, carriage return,
    /// U+0020 to U+D7FF, U+E000 to U+FFFD, U+10000 to U+10FFFF.
    package static func isCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
