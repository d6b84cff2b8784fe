/// The entities XML defines without a DTD: the five predefined names and
/// numeric character references. The GPX reader and the property-list scan
/// both replace them.
enum XMLEntity {
    /// The character of the entity `&name;` (`lt`, `#97`, `#x61`), or `nil`
    /// when `name` is none of the predefined names and no valid scalar.
    static func scalar(named name: String) -> Unicode.Scalar? {
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
}
