import Foundation

/// How deeply input nests, measured before Foundation's parsers see it: they
/// recurse once per level, and input nested some thousands deep overflows the
/// stack. Every measure here loops with an explicit stack and stops as soon as
/// the limit is passed.
enum NestingDepth {
    /// Whether the arrays and objects of JSON `data` nest more than `limit`
    /// deep, counted without parsing: brackets outside strings.
    ///
    /// JSON decoders also read UTF-16 and UTF-32; when `data` holds a zero byte,
    /// which UTF-8 JSON never does, it is measured in each of those encodings too.
    static func json(_ data: Data, exceeds limit: Int) -> Bool {
        data.withUnsafeBytes { bytes in
            if json(bytes, unitWidth: 1, bigEndian: true, exceeds: limit) { return true }
            guard bytes.contains(0) else { return false }
            return [(2, true), (2, false), (4, true), (4, false)].contains { width, bigEndian in
                json(bytes, unitWidth: width, bigEndian: bigEndian, exceeds: limit)
            }
        }
    }

    private static func json(_ bytes: UnsafeRawBufferPointer, unitWidth: Int, bigEndian: Bool, exceeds limit: Int) -> Bool {
        var depth = 0, inString = false, escaped = false, index = 0
        while index + unitWidth <= bytes.count {
            var unit: UInt32 = 0
            for offset in 0..<unitWidth {
                unit = unit << 8 | UInt32(bytes[index + (bigEndian ? offset : unitWidth - 1 - offset)])
            }
            index += unitWidth
            if inString {
                if escaped {
                    escaped = false
                } else if unit == 0x5C {   // backslash
                    escaped = true
                } else if unit == 0x22 {
                    inString = false
                }
                continue
            }
            switch unit {
            case 0x22: inString = true
            case 0x5B, 0x7B:   // [ {
                depth += 1
                if depth > limit { return true }
            case 0x5D, 0x7D: depth = max(0, depth - 1)   // ] }
            default: break
            }
        }
        return false
    }

    /// Whether the dictionaries and arrays of `value`, as `JSONSerialization`
    /// sees them (a `userInfo` dictionary, say), nest more than `limit` deep;
    /// `value` itself, when it is one, is the first level.
    static func object(_ value: Any, exceeds limit: Int) -> Bool {
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
