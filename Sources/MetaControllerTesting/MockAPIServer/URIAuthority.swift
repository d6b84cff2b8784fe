/// The `host [ ":" port ]` of a `Host` field or of an absolute-form request target, checked
/// against RFC 3986's grammar (section 3.2.2 for the host, 3.2.3 for the port): an IP
/// literal in brackets (IPv6 or IPvFuture), or a registered name of unreserved characters,
/// percent-encodings and sub-delimiters (an IPv4 address is one of those); then digits.
///
/// No user information: `Host` has none (RFC 9110, section 7.2), and an `http` URI's is
/// deprecated and refused here. Work is linear in the bytes; nothing recurses.
enum URIAuthority {
    /// Whether `text` is a valid `host [ ":" port ]`. An empty host is valid (a `Host`
    /// field may be empty, RFC 9112, section 3.2) unless `requiresHost`.
    static func isValid(_ text: Substring, requiresHost: Bool = false) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            guard isIPLiteral(bytes[1..<close]) else { return false }
            index = close + 1
        } else {
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                if bytes[index] == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                        return false
                    }
                    index += 3
                } else {
                    guard isUnreserved(bytes[index]) || isSubDelimiter(bytes[index]) else { return false }
                    index += 1
                }
            }
            if requiresHost, index == 0 { return false }
        }
        guard index < bytes.count else { return true }
        // The port: a colon, then digits (none is allowed: "host:").
        guard bytes[index] == UInt8(ascii: ":") else { return false }
        return bytes[(index + 1)...].allSatisfy(isDigit)
    }

    /// An IPv6 address (RFC 3986's `IPv6address`) or an `IPvFuture`, without its brackets.
    static func isIPLiteral(_ bytes: ArraySlice<UInt8>) -> Bool {
        if let first = bytes.first, first == UInt8(ascii: "v") || first == UInt8(ascii: "V") {
            // "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
            let rest = bytes.dropFirst()
            guard let dot = rest.firstIndex(of: UInt8(ascii: ".")), dot > rest.startIndex else { return false }
            let version = rest[..<dot], tail = rest[(dot + 1)...]
            return version.allSatisfy(isHexDigit) && !tail.isEmpty
                && tail.allSatisfy { isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: ":") }
        }
        return isIPv6(bytes)
    }

    /// RFC 3986's `IPv6address`: eight groups of one to four hex digits, the last two of which
    /// may be an IPv4 address, with at most one `::` standing for one or more groups of zeros.
    static func isIPv6(_ bytes: ArraySlice<UInt8>) -> Bool {
        let text = Array(bytes)
        let colon = UInt8(ascii: ":")
        // The text before and after its "::", if any; a second "::" is refused.
        var halves: [ArraySlice<UInt8>] = []
        var index = 0, start = 0
        while index + 1 < text.count {
            if text[index] == colon, text[index + 1] == colon {
                guard halves.isEmpty else { return false }
                halves.append(text[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        halves.append(text[start...])
        var count = 0
        for (halfIndex, half) in halves.enumerated() where !half.isEmpty {
            let groups = half.split(separator: colon, omittingEmptySubsequences: false)
            for (position, group) in groups.enumerated() {
                // An IPv4 address only ends the address: the last group of the last half.
                if halfIndex == halves.count - 1, position == groups.count - 1, group.contains(UInt8(ascii: ".")) {
                    guard isIPv4(group) else { return false }
                    count += 2
                } else {
                    guard (1...4).contains(group.count), group.allSatisfy(isHexDigit) else { return false }
                    count += 1
                }
            }
        }
        return halves.count == 1 ? count == 8 : count <= 7
    }

    /// Four decimal octets, 0 to 255, without leading zeros (RFC 3986's `dec-octet`).
    static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let octets = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return octets.count == 4
            && octets.allSatisfy { octet in
                guard (1...3).contains(octet.count), octet.allSatisfy(isDigit) else { return false }
                guard octet.count == 1 || octet.first != UInt8(ascii: "0") else { return false }
                return Int(String(decoding: octet, as: UTF8.self))! <= 255
            }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    /// ALPHA / DIGIT / "-" / "." / "_" / "~"
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
    private static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            true
        default: false
        }
    }
}
