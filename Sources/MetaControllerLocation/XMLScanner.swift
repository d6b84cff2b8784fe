import MetaControllerSupport

/// A small, strict, namespace-aware XML reader for GPX files: elements,
/// attributes, text, comments, CDATA, processing instructions, the five
/// predefined entities and numeric references, and namespace prefixes declared
/// with `xmlns` and `xmlns:prefix`. No DTDs.
///
/// It reads one event at a time and checks as it goes that elements nest
/// properly, that there is one root, and that every prefix is declared. It
/// reports the line of every problem and never traps on bad input. Nothing in
/// it recurses: comments and processing instructions are skipped in a loop,
/// open elements and namespace scopes are arrays, and the depth limit is
/// checked before an element is opened.
///
/// Before it reads any markup it reads the XML declaration, if any, and checks its
/// grammar (§2.8, ``XMLDeclaration``): only the very start of the document may hold
/// one, and a processing instruction named `xml` in any case anywhere else is an
/// error. Then it checks the characters, as XML 1.0 asks: the bytes must be UTF-8,
/// or the US-ASCII or ISO-8859-1 the declaration names (§4.3.3: anything else is a
/// fatal error), and every
/// character must be one XML allows (§2.2: no NUL, no C0 control but tab,
/// line feed and carriage return, no U+FFFE or U+FFFF), raw or as a
/// character reference. Line ends are normalised as §2.11 says (a carriage
/// return and line feed, or a carriage return alone, become a line feed), so
/// the lines it reports count CR, CRLF and LF line ends alike.
struct XMLScanner {
    /// An element's name: its namespace (`nil` for none), its local part, and the name as written.
    struct Name: Equatable {
        let namespace: String?
        let local: String
        let qualified: String
    }

    enum Event: Equatable {
        /// An element opens; `attributes` are keyed by their names as written (`lat`, `xsi:schemaLocation`).
        case start(Name, attributes: [String: String], line: Int)
        case end(Name, line: Int)
        /// Text or CDATA inside the root element, entities decoded.
        case text(String)
    }

    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    private let bytes: [UInt8]
    private var index = 0
    private(set) var line = 1
    /// How deep elements may nest; opening one more is an error.
    let maximumDepth: Int

    /// The open elements, innermost last, with the prefixes each declared (`""` for the default namespace).
    private var open: [(name: Name, declared: [String])] = []
    /// Each prefix's bindings, innermost last; `""` is the default namespace, and an empty URI undeclares it.
    private var bindings: [String: [String]] = ["xml": [xmlNamespace]]
    private var sawRoot = false
    /// Where the document starts, after a byte order mark: the only place an XML declaration may be.
    private let documentStart: Int
    /// The end of a self-closing element, handed out on the next call.
    private var pendingEnd: Event?

    /// - Throws: When the bytes are not UTF-8 or hold a character XML does not allow, naming its line.
    init(_ bytes: [UInt8], maximumDepth: Int = 64) throws(LocationError) {
        let utf8 = try Self.utf8(bytes, asDeclared: Self.declaredEncoding(bytes))
        self.bytes = try Self.checkedCharacters(utf8)
        self.maximumDepth = maximumDepth
        // Skip a UTF-8 byte order mark.
        documentStart = utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        index = documentStart
    }

    /// The encodings read: UTF-8, and the two it can be made from byte for byte.
    enum Encoding: Equatable {
        case utf8, ascii, latin1
    }

    /// The encoding the XML declaration names (`<?xml version="1.0" encoding="ISO-8859-1"?>`),
    /// UTF-8 when there is no declaration or it names none (XML 1.0 §4.3.3).
    ///
    /// The declaration is read in full, wherever its `encoding` is in it (see ``XMLDeclaration``).
    ///
    /// - Throws: For a declaration that breaks §2.8's grammar, naming its line and column; for an
    ///   encoding other than UTF-8, US-ASCII and ISO-8859-1 (read, not guessed at), or one that
    ///   contradicts a UTF-8 byte order mark; for a document in UTF-16 or UTF-32 (Appendix F).
    static func declaredEncoding(_ bytes: [UInt8]) throws(LocationError) -> Encoding {
        if let wide = wideEncoding(bytes) {
            throw .gpx(line: 1, "the document is in \(wide); GPX files are read in UTF-8, US-ASCII or ISO-8859-1")
        }
        let hasMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        guard let declaration = try XMLDeclaration.read(bytes, from: hasMark ? 3 : 0), let name = declaration.encoding else { return .utf8 }
        let encoding: Encoding
        switch name.uppercased() {
        case "UTF-8", "UTF8": encoding = .utf8
        case "US-ASCII", "ASCII": encoding = .ascii
        case "ISO-8859-1", "ISO_8859-1", "ISO8859-1", "LATIN1", "L1": encoding = .latin1
        default:
            throw .gpx(line: 1, "the document declares the encoding \(name.prefix(40)); GPX files are read in UTF-8, US-ASCII or ISO-8859-1")
        }
        guard !hasMark || encoding == .utf8 else {
            throw .gpx(line: 1, "the document declares the encoding \(name.prefix(40)) but starts with a UTF-8 byte order mark")
        }
        return encoding
    }

    /// The encoding of a document in UTF-16 or UTF-32, told by its byte order mark or by how its
    /// first `<` is written (XML 1.0 Appendix F); `nil` for any other document.
    static func wideEncoding(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            return "UTF-32 (it starts with a UTF-32 byte order mark)"
        }
        if bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) || bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) { return "UTF-32" }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return "UTF-16 (it starts with a UTF-16 byte order mark)"
        }
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) || bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return "UTF-16" }
        return nil
    }

    /// `bytes` in UTF-8: ISO-8859-1's bytes from 0x80 are the code points U+0080 to U+00FF.
    ///
    /// - Throws: For a byte from 0x80 in a document declared US-ASCII, naming its line.
    static func utf8(_ bytes: [UInt8], asDeclared encoding: Encoding) throws(LocationError) -> [UInt8] {
        switch encoding {
        case .utf8:
            return bytes
        case .ascii:
            guard let index = bytes.firstIndex(where: { $0 >= 0x80 }) else { return bytes }
            // Lines end at LF, CRLF or CR, as everywhere in the scanner.
            var line = 1
            for position in 0..<index where bytes[position] == 0x0A || bytes[position] == 0x0D && bytes[position + 1] != 0x0A {
                line += 1
            }
            throw .gpx(line: line, "the byte 0x\(hex(UInt32(bytes[index]), digits: 2)) is not US-ASCII, the declared encoding")
        case .latin1:
            guard bytes.contains(where: { $0 >= 0x80 }) else { return bytes }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + bytes.count / 8)
            for byte in bytes {
                if byte < 0x80 {
                    result.append(byte)
                } else {
                    result.append(0xC0 | byte >> 6)
                    result.append(0x80 | byte & 0x3F)
                }
            }
            return result
        }
    }

    /// `bytes` with CRLF and lone CR line ends made LF (§2.11), after checking that they are
    /// UTF-8 (§4.3.3) and hold only characters of the `Char` production (§2.2).
    ///
    /// - Throws: At the first byte that breaks either rule, naming its line (lines end at LF, CRLF or CR).
    static func checkedCharacters(_ bytes: [UInt8]) throws(LocationError) -> [UInt8] {
        var line = 1, index = 0, sawCarriageReturn = false
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead >= 0x20, lead < 0x80 {
                index += 1
                continue
            }
            switch lead {
            case 0x0A:
                line += 1
                index += 1
            case 0x0D:
                sawCarriageReturn = true
                line += 1
                index += index + 1 < count && bytes[index + 1] == 0x0A ? 2 : 1
            case 0x09:
                index += 1
            case ..<0x20:
                throw .gpx(line: line, "the control character U+\(hex(UInt32(lead))) is not allowed in XML")
            default:
                // A lead byte, and the range its first continuation byte must be in (Unicode's table 3-7).
                let length: Int, second: ClosedRange<UInt8>
                switch lead {
                case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
                case 0xE0: (length, second) = (3, 0xA0...0xBF)
                case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
                case 0xED: (length, second) = (3, 0x80...0x9F)   // not the surrogates
                case 0xF0: (length, second) = (4, 0x90...0xBF)
                case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
                case 0xF4: (length, second) = (4, 0x80...0x8F)
                default: throw .gpx(line: line, "the byte 0x\(hex(UInt32(lead), digits: 2)) is not UTF-8")
                }
                guard index + length <= count, second.contains(bytes[index + 1]),
                    bytes[(index + 2)..<(index + length)].allSatisfy({ (0x80...0xBF).contains($0) })
                else { throw .gpx(line: line, "the bytes from 0x\(hex(UInt32(lead), digits: 2)) are not UTF-8") }
                if lead == 0xEF, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
                    throw .gpx(line: line, "the character U+FFF\(bytes[index + 2] == 0xBE ? "E" : "F") is not allowed in XML")
                }
                index += length
            }
        }
        guard sawCarriageReturn else { return bytes }
        var normalised: [UInt8] = []
        normalised.reserveCapacity(count)
        index = 0
        while index < count {
            let byte = bytes[index]
            index += 1
            guard byte == 0x0D else {
                normalised.append(byte)
                continue
            }
            normalised.append(0x0A)
            if index < count, bytes[index] == 0x0A { index += 1 }
        }
        return normalised
    }

    /// `value` in upper-case hexadecimal, with at least `digits` digits: `0001`, `FF`.
    private static func hex(_ value: UInt32, digits: Int = 4) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The next event, or `nil` at the end of a well-formed document.
    mutating func next() throws(LocationError) -> Event? {
        if let pendingEnd {
            self.pendingEnd = nil
            closeScope()
            return pendingEnd
        }
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let text = try readText()
                if !open.isEmpty { return .text(text) }
                guard text.allSatisfy(\.isWhitespace) else { throw .gpx(line: line, "text outside the root element") }
            } else {
                switch Self.byte(bytes, index + 1) {
                case UInt8(ascii: "?"):
                    // A target of xml, in any case, is the declaration's, which only the very start may hold (§2.6, §2.8).
                    if Self.namesXML(bytes, index + 2), !(index == documentStart && Self.matches(bytes, index, Self.declarationStart)) {
                        throw .gpx(
                            line: line,
                            Self.matches(bytes, index, Self.declarationStart)
                                ? "the XML declaration <?xml …?> is allowed only at the very start of the file, with nothing before it, not even white space or a comment"
                                : "a processing instruction may not be named \(String(decoding: bytes[(index + 2)..<(index + 5)], as: UTF8.self)): the XML declaration is written <?xml, in lower case, at the very start of the file"
                        )
                    }
                    try skip(opener: Self.piStart, past: Self.piEnd, what: "a processing instruction")
                case UInt8(ascii: "!"):
                    if Self.matches(bytes, index, Self.commentStart) {
                        try skip(opener: Self.commentStart, past: Self.commentEnd, what: "a comment")
                    } else if Self.matches(bytes, index, Self.cdataStart) {
                        return try readCDATA()
                    } else {
                        throw .gpx(line: line, "document type declarations are not supported")
                    }
                case UInt8(ascii: "/"):
                    return try readEndTag()
                default:
                    return try readStartTag()
                }
            }
        }
        if let last = open.last { throw .gpx(line: line, "<\(last.name.qualified)> is never closed") }
        guard sawRoot else { throw .gpx(line: line, "no root element") }
        return nil
    }

    // MARK: - Markup

    private mutating func readCDATA() throws(LocationError) -> Event {
        let startLine = line
        index += Self.cdataStart.count
        let start = index
        while index < bytes.count, !Self.matches(bytes, index, Self.cdataEnd) { advance() }
        guard index < bytes.count else { throw .gpx(line: startLine, "a CDATA section is never closed") }
        guard !open.isEmpty else { throw .gpx(line: startLine, "text outside the root element") }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        index += Self.cdataEnd.count
        return .text(text)
    }

    private mutating func readEndTag() throws(LocationError) -> Event {
        let tagLine = line
        index += 2   // </
        let name = try readName().name
        skipWhitespace()
        guard Self.byte(bytes, index) == UInt8(ascii: ">") else { throw .gpx(line: line, "</\(name) is not closed with >") }
        index += 1
        guard let last = open.last else { throw .gpx(line: tagLine, "</\(name)> closes nothing") }
        guard last.name.qualified == name else { throw .gpx(line: tagLine, "</\(name)> closes <\(last.name.qualified)>") }
        closeScope()
        return .end(last.name, line: tagLine)
    }

    private mutating func readStartTag() throws(LocationError) -> Event {
        let tagLine = line
        index += 1   // <
        let (qualified, isPrefixed) = try readName()
        var attributes: [String: String] = [:]
        // The attributes that declare or use prefixes, as written, so that errors do not depend on hashing.
        var namespaced: [(name: String, value: String)] = []
        var isEmptyElement = false
        while true {
            skipWhitespace()
            guard let byte = Self.byte(bytes, index) else { throw .gpx(line: tagLine, "<\(qualified) is never closed") }
            if byte == UInt8(ascii: "/") {
                guard Self.byte(bytes, index + 1) == UInt8(ascii: ">") else { throw .gpx(line: line, "expected /> in <\(qualified)>") }
                index += 2
                isEmptyElement = true
                break
            }
            if byte == UInt8(ascii: ">") {
                index += 1
                break
            }
            let (attribute, isPrefixedAttribute) = try readName()
            skipWhitespace()
            guard Self.byte(bytes, index) == UInt8(ascii: "=") else { throw .gpx(line: line, "attribute \(attribute) of <\(qualified)> has no value") }
            index += 1
            skipWhitespace()
            guard let quote = Self.byte(bytes, index), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw .gpx(line: line, "the value of \(attribute) in <\(qualified)> is not quoted")
            }
            index += 1
            let start = index, valueLine = line
            while let byte = Self.byte(bytes, index), byte != quote {
                if byte == UInt8(ascii: "<") { throw .gpx(line: line, "< in the value of \(attribute)") }
                advance()
            }
            guard Self.byte(bytes, index) == quote else { throw .gpx(line: tagLine, "the value of \(attribute) in <\(qualified)> is never closed") }
            let end = index
            index += 1
            guard attributes[attribute] == nil else { throw .gpx(line: line, "attribute \(attribute) appears twice in <\(qualified)>") }
            let value = try Self.decode(bytes, start..<end, line: valueLine)
            attributes[attribute] = value
            if isPrefixedAttribute || attribute == "xmlns" { namespaced.append((attribute, value)) }
        }
        // Checked before the element opens, so no document can go deeper than the limit.
        guard open.count < maximumDepth else { throw .gpx(line: tagLine, "elements nest more than \(maximumDepth) deep") }
        if open.isEmpty, sawRoot { throw .gpx(line: tagLine, "a second root element <\(qualified)>") }
        sawRoot = true
        let name = try openScope(qualified, isPrefixed: isPrefixed, attributes: namespaced, line: tagLine)
        if isEmptyElement { pendingEnd = .end(name, line: tagLine) }
        return .start(name, attributes: attributes, line: tagLine)
    }

    // MARK: - Namespaces

    /// Declares the element's `xmlns` attributes, resolves its name and checks its attributes' prefixes.
    ///
    /// - Parameter attributes: The attributes whose names have a prefix, and `xmlns`.
    private mutating func openScope(
        _ qualified: String, isPrefixed: Bool, attributes: [(name: String, value: String)], line: Int
    ) throws(LocationError) -> Name {
        var declared: [String] = []
        for (attribute, value) in attributes {
            let prefix: String
            if attribute == "xmlns" {
                prefix = ""
            } else if attribute.hasPrefix("xmlns:") {
                prefix = String(attribute.dropFirst(6))
                guard !prefix.isEmpty, !prefix.contains(":") else { throw .gpx(line: line, "\(attribute) is not a valid declaration") }
                guard !value.isEmpty else { throw .gpx(line: line, "\(attribute) declares an empty namespace") }
                guard prefix != "xmlns", (prefix == "xml") == (value == Self.xmlNamespace) else {
                    throw .gpx(line: line, "\(attribute) cannot be declared as \"\(value)\"")
                }
            } else {
                continue
            }
            bindings[prefix, default: []].append(value)
            declared.append(prefix)
        }
        // Pushed before resolving, so an error below leaves the scopes balanced for the document it ends.
        open.append((Name(namespace: nil, local: qualified, qualified: qualified), declared))
        for (attribute, _) in attributes {
            guard let (prefix, _) = try Self.split(attribute, line: line), prefix != "xmlns" else { continue }
            guard bindings[prefix]?.last != nil else {
                throw .gpx(line: line, "the prefix \(prefix) of attribute \(attribute) is not declared")
            }
        }
        let name: Name
        if isPrefixed, let (prefix, local) = try Self.split(qualified, line: line) {
            guard prefix != "xmlns" else { throw .gpx(line: line, "<\(qualified)> uses the reserved prefix xmlns") }
            guard let namespace = bindings[prefix]?.last else { throw .gpx(line: line, "the prefix \(prefix) of <\(qualified)> is not declared") }
            name = Name(namespace: namespace, local: local, qualified: qualified)
        } else {
            let namespace = bindings[""]?.last
            name = Name(namespace: namespace?.isEmpty == false ? namespace : nil, local: qualified, qualified: qualified)
        }
        open[open.count - 1].name = name
        return name
    }

    private mutating func closeScope() {
        guard let scope = open.popLast() else { return }
        for prefix in scope.declared { bindings[prefix]?.removeLast() }
    }

    /// `(prefix, local)` for `prefix:local`, `nil` for a name without a colon.
    private static func split(_ name: String, line: Int) throws(LocationError) -> (String, String)? {
        guard let colon = name.firstIndex(of: ":") else { return nil }
        let prefix = name[..<colon], local = name[name.index(after: colon)...]
        guard !prefix.isEmpty, !local.isEmpty, !local.contains(":") else { throw .gpx(line: line, "\(name) is not a valid qualified name") }
        return (String(prefix), String(local))
    }

    // MARK: - Bytes

    private static let piStart = Array("<?".utf8), piEnd = Array("?>".utf8)
    private static let declarationStart = Array("<?xml".utf8)

    /// Whether the processing instruction whose target starts at `index` is named `xml` in any case:
    /// those letters, then white space, `?>` or the end.
    private static func namesXML(_ bytes: [UInt8], _ index: Int) -> Bool {
        guard index + 3 <= bytes.count else { return false }
        for (offset, letter) in "xml".utf8.enumerated() where bytes[index + offset] | 0x20 != letter { return false }
        guard let next = byte(bytes, index + 3) else { return true }
        return !isNameByte(next)
    }
    private static let commentStart = Array("<!--".utf8), commentEnd = Array("-->".utf8)
    private static let cdataStart = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)

    // The helpers that only read are static: a debug build copies the whole
    // scanner, references and all, for each call of a non-mutating method.

    private static func byte(_ bytes: [UInt8], _ index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private static func matches(_ bytes: [UInt8], _ index: Int, _ needle: [UInt8]) -> Bool {
        guard index + needle.count <= bytes.count else { return false }
        for offset in needle.indices where bytes[index + offset] != needle[offset] { return false }
        return true
    }

    /// Moves one byte on, counting lines.
    private mutating func advance() {
        if bytes[index] == 10 { line += 1 }
        index += 1
    }

    /// Skips `opener`, then everything to just after `terminator`. - Throws: When the document ends first.
    private mutating func skip(opener: [UInt8], past terminator: [UInt8], what: String) throws(LocationError) {
        let startLine = line
        index += opener.count
        let first = terminator[0]
        while index < bytes.count {
            let byte = bytes[index]
            if byte == first, Self.matches(bytes, index, terminator) {
                index += terminator.count
                return
            }
            if byte == 0x0A { line += 1 }
            index += 1
        }
        throw .gpx(line: startLine, "\(what) is never closed")
    }

    /// A name, and whether it has a colon.
    private mutating func readName() throws(LocationError) -> (name: String, hasColon: Bool) {
        let start = index
        var hasColon = false
        while index < bytes.count, Self.isNameByte(bytes[index]) {
            if bytes[index] == UInt8(ascii: ":") { hasColon = true }
            index += 1
        }
        guard index > start else { throw .gpx(line: line, "expected a name") }
        return (String(decoding: bytes[start..<index], as: UTF8.self), hasColon)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF:
            true
        default: false
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
            if byte == 0x0A { line += 1 }
            index += 1
        }
    }

    private mutating func readText() throws(LocationError) -> String {
        let start = index, startLine = line
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            if bytes[index] == 0x0A { line += 1 }
            // "]]>" ends a CDATA section and nothing else: character data never holds it (§2.4).
            if bytes[index] == UInt8(ascii: ">"), index - start >= 2, bytes[index - 1] == UInt8(ascii: "]"),
                bytes[index - 2] == UInt8(ascii: "]")
            {
                throw .gpx(line: line, "]]> in text, where XML allows it only to end a CDATA section")
            }
            index += 1
        }
        return try Self.decode(bytes, start..<index, line: startLine)
    }

    /// The text of `range` with its entities replaced; `line` is the line the range starts on.
    private static func decode(_ bytes: [UInt8], _ range: Range<Int>, line startLine: Int) throws(LocationError) -> String {
        var hasEntity = false
        for position in range where bytes[position] == UInt8(ascii: "&") {
            hasEntity = true
            break
        }
        guard hasEntity else { return String(decoding: bytes[range], as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        var line = startLine
        var position = range.lowerBound
        while position < range.upperBound {
            let byte = bytes[position]
            if byte == 10 { line += 1 }
            guard byte == UInt8(ascii: "&") else {
                result.append(byte)
                position += 1
                continue
            }
            // An entity's name, or a reference's digits, of any length (leading zeros are allowed); each
            // byte is looked at once.
            var semicolon = position + 1
            while semicolon < range.upperBound, isEntityByte(bytes[semicolon]) { semicolon += 1 }
            guard semicolon < range.upperBound, bytes[semicolon] == UInt8(ascii: ";") else {
                throw .gpx(line: line, "an & that starts no entity")
            }
            let body = bytes[(position + 1)..<semicolon]
            guard let scalar = XMLEntity.character(named: body) else {
                let entity = String(decoding: body.prefix(40), as: UTF8.self) + (body.count > 40 ? "…" : "")
                guard body.first == UInt8(ascii: "#") else { throw .gpx(line: line, "unknown entity &\(entity);") }
                throw .gpx(line: line, "&\(entity); is not a character XML allows")
            }
            result.append(contentsOf: String(Character(scalar)).utf8)
            position = semicolon + 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// A byte of an entity's name or a character reference: ASCII letters, digits and `#`.
    private static func isEntityByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "#"):
            true
        default: false
        }
    }
}
