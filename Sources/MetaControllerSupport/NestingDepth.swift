import Foundation

/// How deeply input nests, measured before Foundation's parsers see it: they
/// recurse once per level, and input nested some thousands deep overflows the
/// stack. Every measure here loops with an explicit stack and stops as soon as
/// the limit is passed. JSON text is measured by ``JSONStructure``.
package enum NestingDepth {
    /// Whether the dictionaries and arrays of `value`, as `JSONSerialization`
    /// sees them (a `userInfo` dictionary, say), nest more than `limit` deep;
    /// `value` itself, when it is one, is the first level.
    package static func object(_ value: Any, exceeds limit: Int) -> Bool {
        var pending: [(value: Any, depth: Int)] = [(value, 1)]
        while let (value, depth) = pending.popLast() {
            let children: [Any]
            if let dictionary = value as? [AnyHashable: Any] {
                children = Array(dictionary.values)
            } else if let array = value as? [Any] {
                children = array
            } else {
                continue
            }
            if depth > limit { return true }
            for child in children { pending.append((child, depth + 1)) }
        }
        return false
    }
}
