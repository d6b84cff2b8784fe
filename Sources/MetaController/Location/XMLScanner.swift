/// A small, strict XML reader for GPX files: elements, attributes, text,
/// comments, CDATA, processing instructions and the five predefined entities
/// plus numeric references. It reports the line of every problem and never
/// traps on bad input. No DTDs.
struct XMLScanner {
    enum Event: Equatable {
        case start(name: String, attributes: [String: String], line: Int)
        case end(name: String, line: Int)
        case text(String)
    }

    private let bytes: [UInt8]
    private var index = 0
    private(set) var line = 1

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // Skip a UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// Every event of the document, with elements checked to nest properly.
    static func events(of bytes: [UInt8], maximumDepth: Int = 64) throws(LocationError) -> [Event] {
        var scanner = XMLScanner(bytes)
        var events: [Event] = []
        var open: [String] = []
        var sawRoot = false
        while let event = try scanner.next() {
            switch event {
            case .start(let name, _, let line):
                if open.isEmpty, sawRoot { throw .gpx(line: line, "a second root element <\(name)>") }
                sawRoot = true
                open.append(name)
                guard open.count <= maximumDepth else { throw .gpx(line: line, "elements nest more than \(maximumDepth) deep") }
            case .end(let name, let line):
                guard let last = open.popLast() else { throw .gpx(line: line, "</\(name)> closes nothing") }
                guard last == name else { throw .gpx(line: line, "</\(name)> closes <\(last)>") }
            case .text(let text):
                if open.isEmpty, !text.allSatisfy(\.isWhitespace) {
                    throw .gpx(line: scanner.line, "text outside the root element")
                }
            }
            events.append(event)
        }
        if let last = open.last { throw .gpx(line: scanner.line, "<\(last)> is never closed") }
        guard sawRoot else { throw .gpx(line: scanner.line, "no root element") }
        return events
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private func starts(with text: String) -> Bool {
        let needle = Array(text.utf8)
        return index + needle.count <= bytes.count && Array(bytes[index..<(index + needle.count)]) == needle
    }

    private mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < bytes.count {
            if bytes[index] == 10 { line += 1 }
            index += 1
        }
    }

    /// Skips to just after `terminator`. - Throws: When the document ends first.
    private mutating func skip(past terminator: String, what: String) throws(LocationError) {
        let startLine = line
        while index < bytes.count {
            if starts(with: terminator) {
                advance(terminator.utf8.count)
                return
            }
            advance()
        }
        throw .gpx(line: startLine, "\(what) is never closed")
    }

    /// The next event, or `nil` at the end of the document.
    mutating func next() throws(LocationError) -> Event? {
        if let pendingEvent {
            self.pendingEvent = nil
            return pendingEvent
        }
        return try scan()
    }

    private mutating func scan() throws(LocationError) -> Event? {
        guard let byte = peek() else { return nil }
        if byte != UInt8(ascii: "<") { return .text(try readText()) }
        if starts(with: "<?") {
            try skip(past: "?>", what: "a processing instruction")
            return try scan()
        }
        if starts(with: "<!--") {
            try skip(past: "-->", what: "a comment")
            return try scan()
        }
        if starts(with: "<![CDATA[") {
            let startLine = line
            advance(9)
            let start = index
            while index < bytes.count, !starts(with: "]]>") { advance() }
            guard index < bytes.count else { throw .gpx(line: startLine, "a CDATA section is never closed") }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            advance(3)
            return .text(text)
        }
        if starts(with: "<!") { throw .gpx(line: line, "document type declarations are not supported") }
        if starts(with: "</") {
            let tagLine = line
            advance(2)
            let name = try readName()
            skipWhitespace()
            guard peek() == UInt8(ascii: ">") else { throw .gpx(line: line, "</\(name) is not closed with >") }
            advance()
            return .end(name: name, line: tagLine)
        }
        return try readStartTag()
    }

    private mutating func readStartTag() throws(LocationError) -> Event? {
        let tagLine = line
        advance()   // <
        let name = try readName()
        var attributes: [String: String] = [:]
        while true {
            skipWhitespace()
            guard let byte = peek() else { throw .gpx(line: tagLine, "<\(name) is never closed") }
            if byte == UInt8(ascii: "/") {
                guard peek(1) == UInt8(ascii: ">") else { throw .gpx(line: line, "expected /> in <\(name)>") }
                advance(2)
                // A self-closing element: its end follows at once.
                pendingEvent = .end(name: name, line: tagLine)
                return .start(name: name, attributes: attributes, line: tagLine)
            }
            if byte == UInt8(ascii: ">") {
                advance()
                return .start(name: name, attributes: attributes, line: tagLine)
            }
            let attribute = try readName()
            skipWhitespace()
            guard peek() == UInt8(ascii: "=") else { throw .gpx(line: line, "attribute \(attribute) of <\(name)> has no value") }
            advance()
            skipWhitespace()
            guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw .gpx(line: line, "the value of \(attribute) in <\(name)> is not quoted")
            }
            advance()
            let start = index
            while let byte = peek(), byte != quote {
                if byte == UInt8(ascii: "<") { throw .gpx(line: line, "< in the value of \(attribute)") }
                advance()
            }
            guard peek() == quote else { throw .gpx(line: tagLine, "the value of \(attribute) in <\(name)> is never closed") }
            let raw = String(decoding: bytes[start..<index], as: UTF8.self)
            advance()
            guard attributes[attribute] == nil else { throw .gpx(line: line, "attribute \(attribute) appears twice in <\(name)>") }
            attributes[attribute] = try decodeEntities(raw)
        }
    }

    /// The end event of a self-closing element, handed out on the next call.
    private var pendingEvent: Event?

    private mutating func readName() throws(LocationError) -> String {
        let start = index
        while let byte = peek(), Self.isNameByte(byte) { advance() }
        guard index > start else { throw .gpx(line: line, "expected a name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF: true
        default: false
        }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
    }

    private mutating func readText() throws(LocationError) -> String {
        let start = index
        while let byte = peek(), byte != UInt8(ascii: "<") { advance() }
        return try decodeEntities(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private func decodeEntities(_ text: String) throws(LocationError) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";"),
                rest.distance(from: ampersand, to: semicolon) <= 10
            else { throw .gpx(line: line, "an & that starts no entity") }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "lt": result += "<"
            case "gt": result += ">"
            case "amp": result += "&"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let scalar: Unicode.Scalar?
                if entity.hasPrefix("#x") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
                } else {
                    scalar = nil
                }
                guard let scalar else { throw .gpx(line: line, "unknown entity &\(entity);") }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
