/// The XML declaration a document starts with (`<?xml version="1.0" encoding="ISO-8859-1"?>`),
/// read and checked as XML 1.0 §2.8 writes it, before the document's encoding is known.
///
/// ```
/// XMLDecl      ::= '<?xml' VersionInfo EncodingDecl? SDDecl? S? '?>'
/// VersionInfo  ::= S 'version' Eq ("'" VersionNum "'" | '"' VersionNum '"')
/// EncodingDecl ::= S 'encoding' Eq ('"' EncName '"' | "'" EncName "'")
/// SDDecl       ::= S 'standalone' Eq (("'" ('yes' | 'no') "'") | ('"' ('yes' | 'no') '"'))
/// Eq           ::= S? '=' S?
/// VersionNum   ::= '1.' [0-9]+
/// EncName      ::= [A-Za-z] ([A-Za-z0-9._] | '-')*
/// ```
///
/// So `version` is required and first, `encoding` and `standalone` follow in that order, each at
/// most once, in lower case, with white space before each. The declaration is ASCII in every
/// encoding the reader takes (UTF-8, US-ASCII, ISO-8859-1), so it is read from the raw bytes. It
/// is read in one pass, in a loop, however much white space it holds; a mistake is refused with
/// its line and column, as libxml2 and expat refuse it.
struct XMLDeclaration: Equatable {
    /// The `version`, such as `1.0`.
    let version: String
    /// The `encoding` as written, or `nil` when it names none.
    let encoding: String?
    /// The `standalone` setting, or `nil` when it gives none.
    let standalone: Bool?

    private static let pseudoAttributes = ["version", "encoding", "standalone"]

    /// The declaration at `start` of `bytes` (just after a byte order mark, if any), or `nil`
    /// when the document does not start with one (`<?xml` then white space or `?>`).
    ///
    /// - Throws: ``LocationError/Code/malformedGPX`` naming the line and column of the first
    ///   mistake in the declaration.
    static func read(_ bytes: [UInt8], from start: Int) throws(LocationError) -> XMLDeclaration? {
        let opener = Array("<?xml".utf8)
        guard bytes.count >= start + opener.count, bytes[start..<(start + opener.count)].elementsEqual(opener) else { return nil }
        var index = start + opener.count
        // `<?xml-stylesheet …?>` and the like are processing instructions, not the declaration.
        if index < bytes.count, !isSpace(bytes[index]), !startsEnd(bytes, at: index) { return nil }
        func fail(_ at: Int, _ what: String) -> LocationError {
            let (line, column) = position(of: at, in: bytes, from: start)
            return .gpx(line: line, "the XML declaration, column \(column): \(what)")
        }
        var values: [String?] = [nil, nil, nil]
        var last = -1
        while true {
            let spaceStart = index
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { throw fail(start, "it is never closed with ?>") }
            if startsEnd(bytes, at: index) { break }
            let nameStart = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            guard index > nameStart else { throw fail(index, "\(describe(bytes[index])) where a pseudo-attribute or ?> should be") }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            guard nameStart > spaceStart else { throw fail(nameStart, "white space is needed before \(name)") }
            guard let kind = pseudoAttributes.firstIndex(of: name) else {
                if let kind = pseudoAttributes.firstIndex(of: name.lowercased()) {
                    throw fail(nameStart, "\(name) is written \(pseudoAttributes[kind]), in lower case")
                }
                throw fail(nameStart, "\(name) is not one of its pseudo-attributes: version, encoding and standalone")
            }
            guard values[kind] == nil else { throw fail(nameStart, "\(name) is given twice") }
            guard kind > last else {
                throw fail(nameStart, "\(name) comes after \(pseudoAttributes[last]); the order is version, encoding, standalone")
            }
            guard kind == 0 || values[0] != nil else {
                throw fail(nameStart, "it starts with \(name), where version comes first: <?xml version=\"1.0\"")
            }
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw fail(index, "\(name) has no = and value") }
            index += 1
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw fail(index, "the value of \(name) is not quoted")
            }
            let quote = bytes[index]
            let valueStart = index + 1
            index = valueStart
            while index < bytes.count, bytes[index] != quote, !startsEnd(bytes, at: index) { index += 1 }
            guard index < bytes.count, bytes[index] == quote else { throw fail(valueStart - 1, "the value of \(name) is never closed") }
            let value = bytes[valueStart..<index]
            index += 1
            if let mistake = mistake(in: value, of: kind) { throw fail(valueStart, mistake) }
            values[kind] = String(decoding: value, as: UTF8.self)
            last = kind
        }
        guard let version = values[0] else { throw fail(index, "it has no version: it starts <?xml version=\"1.0\"") }
        return XMLDeclaration(version: version, encoding: values[1], standalone: values[2].map { $0 == "yes" })
    }

    /// What is wrong with the value of the pseudo-attribute `kind`, or `nil` when it follows its production.
    private static func mistake(in value: ArraySlice<UInt8>, of kind: Int) -> String? {
        let text = String(decoding: value.prefix(40), as: UTF8.self) + (value.count > 40 ? "…" : "")
        switch kind {
        case 0:
            // VersionNum ::= '1.' [0-9]+
            guard value.starts(with: Array("1.".utf8)), value.count > 2, value.dropFirst(2).allSatisfy(isDigit) else {
                return "the version \"\(text)\" is not 1.0 (or 1. and digits)"
            }
        case 1:
            // EncName ::= [A-Za-z] ([A-Za-z0-9._] | '-')*
            guard let first = value.first, isLetter(first),
                value.dropFirst().allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
            else {
                return "the encoding \"\(text)\" is not an encoding name (a letter, then letters, digits, ., _ or -)"
            }
        default:
            guard value.elementsEqual("yes".utf8) || value.elementsEqual("no".utf8) else {
                return "standalone is \"\(text)\", where it is yes or no"
            }
        }
        return nil
    }

    /// The line and column of `index`, counting CR, CRLF and LF as one line end each (§2.11), and
    /// columns in characters from 1, from `start` (after a byte order mark).
    static func position(of index: Int, in bytes: [UInt8], from start: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1, position = start
        while position < index, position < bytes.count {
            let byte = bytes[position]
            if byte == 0x0A || byte == 0x0D && !(position + 1 < bytes.count && bytes[position + 1] == 0x0A) {
                line += 1
                column = 1
            } else if byte != 0x0D, byte & 0xC0 != 0x80 {
                column += 1   // a continuation byte is part of the character before it
            }
            position += 1
        }
        return (line, column)
    }

    /// `byte` as an error names it: the character when it is printable ASCII, else its value.
    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "the byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private static func startsEnd(_ bytes: [UInt8], at index: Int) -> Bool {
        index + 1 < bytes.count && bytes[index] == UInt8(ascii: "?") && bytes[index + 1] == UInt8(ascii: ">")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// A byte of a name as the declaration's pseudo-attributes are read: ASCII letters, digits, `_`, `-`, `.`, `:`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: ":")
    }
}
