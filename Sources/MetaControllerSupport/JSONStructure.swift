package import Foundation

/// What a scan of JSON text finds wrong with its structure before Foundation
/// decodes it (a ``StructureProblem``): nesting deep enough to overflow
/// Foundation's recursive parser, or a key that appears twice in one object,
/// which Foundation's decoders silently resolve by keeping the first value.
///
/// The scan does not parse: it follows brackets, commas and strings with an
/// explicit stack of the open objects and arrays, and stops at the first
/// problem. Keys are compared as Swift strings (as the decoders' dictionaries
/// compare them) after their escapes are undone, so `"a"` and `"\u0061"` are the
/// same key. Each open object keeps a set of its keys: the scan takes time in
/// proportion to the input, however many keys an object has.
package enum JSONStructure {
    /// The first problem in JSON `data`, or `nil`.
    ///
    /// JSON decoders also read UTF-16 and UTF-32; when `data` holds a zero byte,
    /// which UTF-8 JSON never does, its depth is measured in each of those
    /// encodings too. Keys are compared in the encoding the decoders would
    /// choose: the one a byte order mark names, else the one the zero bytes of
    /// the first four show (RFC 4627), else UTF-8.
    package static func problem(in data: Data, depthLimit: Int) -> StructureProblem? {
        data.withUnsafeBytes { bytes in
            let keyEncoding = encoding(of: bytes)
            var encodings = [(width: 1, bigEndian: true)]
            if bytes.contains(0) { encodings += [(2, true), (2, false), (4, true), (4, false)] }
            for (width, bigEndian) in encodings {
                let checksKeys = width == keyEncoding.width && (width == 1 || bigEndian == keyEncoding.bigEndian)
                if let problem = scan(bytes, unitWidth: width, bigEndian: bigEndian, depthLimit: depthLimit, checksKeys: checksKeys) {
                    return problem
                }
            }
            return nil
        }
    }

    /// The width of a code unit and its byte order, as JSON decoders detect them.
    private static func encoding(of bytes: UnsafeRawBufferPointer) -> (width: Int, bigEndian: Bool) {
        let first = (0..<4).map { $0 < bytes.count ? bytes[$0] : 0xAA }   // 0xAA: no byte, but not zero
        switch (first[0], first[1], first[2], first[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return (4, true)
        case (0xFF, 0xFE, 0x00, 0x00): return (4, false)
        case (0xFE, 0xFF, _, _): return (2, true)
        case (0xFF, 0xFE, _, _): return (2, false)
        case (0x00, 0x00, 0x00, _): return (4, true)
        case (_, 0x00, 0x00, 0x00): return (4, false)
        case (0x00, _, _, _): return (2, true)
        case (_, 0x00, _, _): return (2, false)
        default: return (1, true)
        }
    }

    /// An open object or array.
    private struct Frame {
        let isObject: Bool
        /// The object's keys so far.
        var keys: Set<String> = []
        /// The object's latest key, or the array's element number.
        var key = ""
        var index = 0
        /// Whether the object's next string is a key: after `{` or `,`.
        var expectsKey: Bool
    }

    private enum Escape {
        case none, backslash
        case hex(digits: Int, value: UInt32)
    }

    private static func scan(
        _ bytes: UnsafeRawBufferPointer, unitWidth: Int, bigEndian: Bool, depthLimit: Int, checksKeys: Bool
    ) -> StructureProblem? {
        var frames: [Frame] = []
        var inString = false, isKey = false, escape = Escape.none
        var key = KeyText()
        var index = 0
        while index + unitWidth <= bytes.count {
            var unit: UInt32 = 0
            for offset in 0..<unitWidth {
                unit = unit << 8 | UInt32(bytes[index + (bigEndian ? offset : unitWidth - 1 - offset)])
            }
            index += unitWidth
            if inString {
                switch escape {
                case .backslash:
                    escape = .none
                    guard isKey else { continue }
                    switch unit {
                    case 0x62: key.append(scalar: 0x08)   // b
                    case 0x66: key.append(scalar: 0x0C)   // f
                    case 0x6E: key.append(scalar: 0x0A)   // n
                    case 0x72: key.append(scalar: 0x0D)   // r
                    case 0x74: key.append(scalar: 0x09)   // t
                    case 0x75: escape = .hex(digits: 0, value: 0)   // u
                    default: key.append(scalar: unit)   // " \ / and what JSON does not allow
                    }
                    continue
                case .hex(let digits, let value):
                    if let digit = hexDigit(unit) {
                        escape = digits == 3 ? .none : .hex(digits: digits + 1, value: value << 4 | digit)
                        if digits == 3 { key.append(utf16: value << 4 | digit) }
                        continue
                    }
                    escape = .none   // not JSON; the unit is read as it is
                case .none:
                    break
                }
                if unit == 0x5C {   // backslash
                    escape = .backslash
                } else if unit == 0x22 {
                    inString = false
                    guard isKey, let last = frames.indices.last else { continue }
                    let text = key.take()
                    guard frames[last].keys.insert(text).inserted else { return .duplicateKey(path: path(frames, text)) }
                    frames[last].key = text
                } else if isKey {
                    switch unitWidth {
                    case 1: key.append(byte: UInt8(unit))
                    case 2: key.append(utf16: unit)
                    default: key.append(scalar: unit)
                    }
                }
                continue
            }
            switch unit {
            case 0x22:   // "
                inString = true
                isKey = false
                if checksKeys, let last = frames.indices.last, frames[last].isObject, frames[last].expectsKey {
                    isKey = true
                    frames[last].expectsKey = false
                }
            case 0x5B, 0x7B:   // [ {
                frames.append(Frame(isObject: unit == 0x7B, expectsKey: unit == 0x7B))
                if frames.count > depthLimit { return .tooDeep }
            case 0x5D, 0x7D:   // ] }
                _ = frames.popLast()
            case 0x2C:   // ,
                guard let last = frames.indices.last else { continue }
                if frames[last].isObject { frames[last].expectsKey = true } else { frames[last].index += 1 }
            default: break
            }
        }
        return nil
    }

    /// `key`'s path below the open `frames`: `log.destinations[0].level`.
    private static func path(_ frames: [Frame], _ key: String) -> String {
        StructureProblem.path(
            frames.indices.map { number in
                guard frames[number].isObject else { return .index(frames[number].index) }
                return .key(number == frames.count - 1 ? key : frames[number].key)
            })
    }

    private static func hexDigit(_ unit: UInt32) -> UInt32? {
        switch unit {
        case 0x30...0x39: unit - 0x30
        case 0x41...0x46: unit - 0x41 + 10
        case 0x61...0x66: unit - 0x61 + 10
        default: nil
        }
    }

    /// A key's text as it is read: UTF-8 bytes as they come, UTF-16 code units
    /// and escapes (paired when they are surrogates) and scalars as UTF-8.
    private struct KeyText {
        private var utf8: [UInt8] = []
        private var highSurrogate: UInt32?

        mutating func append(byte: UInt8) {
            flushSurrogate()
            utf8.append(byte)
        }

        mutating func append(utf16 unit: UInt32) {
            switch unit {
            case 0xD800...0xDBFF:
                flushSurrogate()
                highSurrogate = unit
            case 0xDC00...0xDFFF:
                guard let high = highSurrogate else { return append(scalar: 0xFFFD) }
                highSurrogate = nil
                append(scalar: 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))
            default:
                append(scalar: unit)
            }
        }

        mutating func append(scalar value: UInt32) {
            flushSurrogate()
            if let encoded = UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { utf8.append(contentsOf: encoded) }
        }

        /// A lone high surrogate stands for a replacement character, as in a decoded string.
        private mutating func flushSurrogate() {
            guard highSurrogate != nil else { return }
            highSurrogate = nil
            utf8.append(contentsOf: [0xEF, 0xBF, 0xBD])
        }

        /// The text so far, which is then forgotten.
        mutating func take() -> String {
            flushSurrogate()
            defer { utf8.removeAll(keepingCapacity: true) }
            return String(decoding: utf8, as: UTF8.self)
        }
    }
}
