/// A request target's path, split into segments, each percent-decoded, with its dot
/// segments removed: what routes are matched against.
///
/// The path is split on `/` before any segment is decoded, so an encoded slash (`%2F`)
/// stays inside its segment: `/items/a%2Fb` has the segments `items` and `a/b`.
/// A segment that decodes to `.` or `..` (`%2e`, `.%2E`, `%2e%2e`, ...) is a dot segment
/// and is removed as RFC 3986, section 5.2.4 removes `.` and `..`; a `..` with no
/// segment left to remove would climb above the root, and is refused. A segment
/// that decodes to hold a `/`, such as `..%2F..`, is one segment, never split again.
struct RequestPath: Sendable, Equatable {
    /// Why a path was refused.
    enum Fault: Error, Sendable, Equatable {
        /// A `%` not followed by two hexadecimal digits.
        case badPercentEncoding
        /// A segment whose bytes, once decoded, are not UTF-8.
        case notUTF8
        /// A segment that decodes to hold NUL.
        case nul
        /// A `..` segment above the root.
        case aboveRoot
        /// A `#`, which a request target never holds (RFC 9112, section 3.2).
        case fragment
        /// A target Foundation's `URLComponents` cannot read, for its query.
        case malformed

        var reason: String {
            switch self {
            case .badPercentEncoding: "a % not followed by two hexadecimal digits in the path"
            case .notUTF8: "the path does not percent-decode to UTF-8"
            case .nul: "the path percent-decodes to hold NUL"
            case .aboveRoot: "a .. segment in the path climbs above the root"
            case .fragment: "a # in the request target"
            case .malformed: "malformed request target"
            }
        }
    }

    /// The decoded segments after dot-segment removal, empty ones kept: `["a", "", "b", ""]` for `/a//b/`.
    let segments: [String]

    /// The decoded path: `/` and the segments joined by `/`.
    var path: String { "/" + segments.joined(separator: "/") }

    /// The segments a route is matched against: the empty ones are ignored.
    var matchedSegments: [String] { segments.filter { !$0.isEmpty } }

    /// Splits, decodes and normalises `rawPath`, a request target's path (without its query), starting with `/`.
    init(_ rawPath: Substring) throws(Fault) {
        guard !rawPath.contains("#") else { throw .fragment }
        var output: [String] = []
        let parts = rawPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, raw) in parts.enumerated() {
            let segment = try Self.decode(raw)
            let isLast = index == parts.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }   // `/a/.` is `/a/`
            case "..":
                guard output.popLast() != nil else { throw .aboveRoot }
                if isLast { output.append("") }   // `/a/b/..` is `/a/`
            default:
                output.append(segment)
            }
        }
        segments = output.isEmpty ? [""] : output
    }

    /// Percent-decodes one segment.
    static func decode(_ raw: Substring) throws(Fault) -> String {
        guard raw.utf8.contains(UInt8(ascii: "%")) else {
            guard !raw.utf8.contains(0) else { throw .nul }
            return String(raw)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        var iterator = raw.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexDigitValue), let low = iterator.next().flatMap(hexDigitValue) else {
                throw .badPercentEncoding
            }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0) else { throw .nul }
        // Decoding replaces each ill-formed sequence with U+FFFD, so the text encodes back
        // to the same bytes exactly when they were valid UTF-8.
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { throw .notUTF8 }
        return text
    }
}

/// The value of an ASCII hexadecimal digit, or `nil`.
private func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 48...57: byte - 48
    case 65...70: byte - 55
    case 97...102: byte - 87
    default: nil
    }
}
