import Foundation
@testable import MetaControllerLocation
import Testing
import MetaControllerTestSupport

/// The XML declaration's grammar (XML 1.0 §2.8 and §4.3.3), where it may be, and the lines
/// errors name (issue 45).
extension GPXRouteTests {
    private static let pointBefore = "\n<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>"
    private static let pointAfter = "</name></wpt></gpx>"

    private static func malformed(_ line: Int, _ reason: String) -> LocationError {
        LocationError(code: .malformedGPX, line: line, reason: reason)
    }

    /// Each mistake in a declaration is refused, naming its line and column, as libxml2 and
    /// expat refuse it (it was read, or ignored).
    @Test(arguments: [
        (#"<?xml encoding="UTF-8"?>"#, #"column 7: it starts with encoding, where version comes first: <?xml version="1.0""#),
        (#"<?xml standalone="yes"?>"#, #"column 7: it starts with standalone, where version comes first: <?xml version="1.0""#),
        (#"<?xml?>"#, #"column 6: it has no version: it starts <?xml version="1.0""#),
        (#"<?xml ?>"#, #"column 7: it has no version: it starts <?xml version="1.0""#),
        (#"<?xml version="1.0" encoding="UTF-8" encoding="UTF-8"?>"#, "column 38: encoding is given twice"),
        (#"<?xml version="1.0" version="1.0"?>"#, "column 21: version is given twice"),
        (
            #"<?xml version="1.0" standalone="yes" encoding="UTF-8"?>"#,
            "column 38: encoding comes after standalone; the order is version, encoding, standalone"
        ),
        (#"<?xml version="1.0" ENCODING="UTF-8"?>"#, "column 21: ENCODING is written encoding, in lower case"),
        (#"<?xml Version="1.0"?>"#, "column 7: Version is written version, in lower case"),
        (#"<?xml version="1.0"encoding="UTF-8"?>"#, "column 20: white space is needed before encoding"),
        (#"<?xml version="1.0" foo="bar"?>"#, "column 21: foo is not one of its pseudo-attributes: version, encoding and standalone"),
        (#"<?xml version="2.0"?>"#, #"column 16: the version "2.0" is not 1.0 (or 1. and digits)"#),
        (#"<?xml version="1."?>"#, #"column 16: the version "1." is not 1.0 (or 1. and digits)"#),
        (#"<?xml version=1.0?>"#, "column 15: the value of version is not quoted"),
        (#"<?xml version='1.0"?>"#, "column 15: the value of version is never closed"),
        (#"<?xml version="1.0" encoding?>"#, "column 29: encoding has no = and value"),
        (
            #"<?xml version="1.0" encoding="UTF 8"?>"#,
            #"column 31: the encoding "UTF 8" is not an encoding name (a letter, then letters, digits, ., _ or -)"#
        ),
        (
            #"<?xml version="1.0" encoding=""?>"#,
            #"column 31: the encoding "" is not an encoding name (a letter, then letters, digits, ., _ or -)"#
        ),
        (
            #"<?xml version="1.0" encoding="8859-1"?>"#,
            #"column 31: the encoding "8859-1" is not an encoding name (a letter, then letters, digits, ., _ or -)"#
        ),
        (#"<?xml version="1.0" standalone="true"?>"#, #"column 33: standalone is "true", where it is yes or no"#),
        (#"<?xml version="1.0" <gpx/>"#, #"column 21: "<" where a pseudo-attribute or ?> should be"#),
    ])
    func aMalformedDeclarationIsRefusedWithItsLineAndColumn(declaration: String, reason: String) {
        #expect(throws: Self.malformed(1, "the XML declaration, \(reason)")) {
            try GPXRoute(data: Data((declaration + Self.pointBefore + "a" + Self.pointAfter).utf8))
        }
    }

    @Test func aDeclarationCutShortIsRefused() {
        for text in [#"<?xml version="1.0" "#, "<?xml", "<?xml\n"] {
            #expect(throws: Self.malformed(1, "the XML declaration, column 1: it is never closed with ?>")) {
                try GPXRoute(data: Data(text.utf8))
            }
        }
    }

    /// Pseudo-attributes may have white space around `=` and either quote, and the declaration
    /// may end with white space; the encoding is then read as declared.
    @Test(arguments: [
        #"<?xml version = "1.0" encoding = 'ISO-8859-1' standalone = "no" ?>"#,
        "<?xml\tversion='1.10'\tencoding=\"latin1\"?>",
        "<?xml\nversion=\"1.0\"\r\nencoding=\"ISO-8859-1\"\rstandalone=\"yes\"\n?>",
    ])
    func aWellFormedDeclarationIsRead(declaration: String) throws {
        let data = Data(Array((declaration + Self.pointBefore).utf8) + [0x63, 0x61, 0x66, 0xE9] + Array(Self.pointAfter.utf8))
        #expect(try GPXRoute(data: data).points.first?.name == "caf\u{E9}")
    }

    /// A declaration anywhere but the very start (after white space, a comment, an element), or
    /// `xml` as any other processing instruction's target in any case, is refused with its line.
    @Test(arguments: [
        (" <?xml version=\"1.0\"?><gpx/>", 1),
        ("\n\n<?xml version=\"1.0\"?><gpx/>", 3),
        ("\r\n\r<?xml version=\"1.0\"?><gpx/>", 3),
        ("<!-- c --><?xml version=\"1.0\"?><gpx/>", 1),
        ("<?xml version=\"1.0\"?><gpx>\n<?xml version=\"1.0\"?></gpx>", 2),
        ("\u{FEFF} <?xml version=\"1.0\"?><gpx/>", 1),
        // The file ends right after the target: still the declaration's name, out of place.
        ("<gpx/>\n<?xml", 2),
    ])
    func aDeclarationAfterAnythingIsRefused(text: String, line: Int) {
        let reason =
            "the XML declaration <?xml …?> is allowed only at the very start of the file, with nothing before it, "
            + "not even white space or a comment"
        #expect(throws: Self.malformed(line, reason)) { try GPXRoute(data: Data(text.utf8)) }
    }

    @Test(arguments: ["XML", "Xml", "xML"])
    func aProcessingInstructionNamedXMLInAnotherCaseIsRefused(name: String) {
        let reason =
            "a processing instruction may not be named \(name): the XML declaration is written <?xml, in lower case, "
            + "at the very start of the file"
        #expect(throws: Self.malformed(1, reason)) { try GPXRoute(data: Data("<?\(name) version=\"1.0\"?><gpx/>".utf8)) }
        #expect(throws: Self.malformed(2, reason)) { try GPXRoute(data: Data("<gpx>\n<?\(name)?></gpx>".utf8)) }
    }

    /// A byte order mark may come before the declaration; targets that only start with `xml` are
    /// other processing instructions, before the root or in it.
    @Test func aByteOrderMarkBeforeTheDeclarationAndInstructionsNamedFromXMLAreRead() throws {
        let text = "\u{FEFF}<?xml version=\"1.0\"?><?xml-stylesheet href=\"a.xsl\"?><gpx><?xmlfoo?><wpt lat=\"1\" lon=\"2\"/></gpx>"
        #expect(try GPXRoute(data: Data(text.utf8)).points.count == 1)
        let first = "<?xml-stylesheet href=\"a.xsl\"?><gpx><wpt lat=\"1\" lon=\"2\"/></gpx>"
        #expect(try GPXRoute(data: Data(first.utf8)).points.count == 1)
    }

    /// The encoding is found however much white space comes before it (a declaration whose
    /// encoding came after 1 KiB was read as UTF-8, a declared UTF-16 included).
    @Test func theEncodingIsFoundAfterAnyWhiteSpace() throws {
        let spaces = String(repeating: " \t\r\n", count: 500)
        let latin = Data(
            Array("<?xml version=\"1.0\"\(spaces)encoding=\"ISO-8859-1\"?>\(Self.pointBefore)".utf8) + [0x63, 0x61, 0x66, 0xE9] + Array(Self.pointAfter.utf8))
        #expect(try GPXRoute(data: latin).points.first?.name == "caf\u{E9}")
        #expect(throws: Self.malformed(1, "the document declares the encoding UTF-16; GPX files are read in UTF-8, US-ASCII or ISO-8859-1")) {
            try GPXRoute(data: Data("<?xml version=\"1.0\"\(spaces)encoding=\"UTF-16\"?>\(Self.pointBefore)a\(Self.pointAfter)".utf8))
        }
    }

    /// 10 MB of white space in the declaration, read on a 512 KB stack, in one pass.
    @Test func tenMegabytesOfWhiteSpaceInTheDeclarationParseOnASmallStack() async throws {
        let route = try await onSmallStack(throwing: { () throws -> GPXRoute in
            let spaces = [UInt8](repeating: 0x20, count: 10_000_000)
            let data = Data(
                Array("<?xml version=\"1.0\"".utf8) + spaces + Array("encoding=\"ISO-8859-1\"?>\(Self.pointBefore)".utf8) + [0xE9]
                    + Array(Self.pointAfter.utf8))
            return try GPXRoute(data: data)
        })
        #expect(route.points.first?.name == "\u{E9}")
    }

    /// 100,000 attributes on one element, on a 512 KB stack.
    @Test func oneHundredThousandAttributesParseOnASmallStack() async throws {
        let route = try await onSmallStack(throwing: { () throws -> GPXRoute in
            var text = "<?xml version=\"1.0\"?>\n<gpx"
            for index in 0..<100_000 { text += " a\(index)=\"\(index)\"" }
            text += "><wpt lat=\"1\" lon=\"2\"/></gpx>"
            return try GPXRoute(data: Data(text.utf8))
        })
        #expect(route.points.count == 1)
    }

    /// A file in UTF-16 or UTF-32 is refused, naming its encoding (XML 1.0 Appendix F), not read
    /// as UTF-8 and refused for its first byte.
    @Test(
        arguments: [
            ([0xFF, 0xFE, 0x3C, 0x00], "UTF-16 (it starts with a UTF-16 byte order mark)"),
            ([0xFE, 0xFF, 0x00, 0x3C], "UTF-16 (it starts with a UTF-16 byte order mark)"),
            ([0x3C, 0x00, 0x3F, 0x00], "UTF-16"),
            ([0x00, 0x3C, 0x00, 0x3F], "UTF-16"),
            ([0xFF, 0xFE, 0x00, 0x00], "UTF-32 (it starts with a UTF-32 byte order mark)"),
            ([0x3C, 0x00, 0x00, 0x00], "UTF-32"),
        ] as [([UInt8], String)])
    func aWideDocumentIsRefusedByItsEncoding(start: [UInt8], encoding: String) {
        #expect(throws: Self.malformed(1, "the document is in \(encoding); GPX files are read in UTF-8, US-ASCII or ISO-8859-1")) {
            try GPXRoute(data: Data(start + [0x00, 0x00]))
        }
    }

    // MARK: - Lines and bytes

    /// CR, CRLF and LF line ends count alike in every error's line, the declaration's, a byte
    /// outside US-ASCII's and the markup's.
    @Test(arguments: ["\r", "\r\n", "\n"])
    func errorsCountEachKindOfLineEndAsOne(end: String) {
        #expect(throws: Self.malformed(3, "the XML declaration, column 1: ENCODING is written encoding, in lower case")) {
            try GPXRoute(data: Data("<?xml\(end)version=\"1.0\"\(end)ENCODING=\"UTF-8\"?><gpx/>".utf8))
        }
        #expect(throws: Self.malformed(3, "the byte 0x80 is not US-ASCII, the declared encoding")) {
            try GPXRoute(data: Data(Array("<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\(end)<gpx>\(end)".utf8) + [0x80] + Array("</gpx>".utf8)))
        }
        #expect(throws: Self.malformed(4, "wpt needs a lon attribute")) {
            try GPXRoute(data: Data("<?xml version=\"1.0\"?>\(end)<gpx>\(end)\(end)<wpt lat=\"1\"/></gpx>".utf8))
        }
        #expect(throws: Self.malformed(3, "the control character U+0001 is not allowed in XML")) {
            try GPXRoute(data: Data("<gpx>\(end)\(end)\u{1}</gpx>".utf8))
        }
    }

    /// ISO-8859-1's bytes 0x80 to 0x9F are U+0080 to U+009F, characters XML allows.
    @Test func theByte0x80InISO88591IsU0080() throws {
        let data = Data(Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\(Self.pointBefore)".utf8) + [0x80, 0x9F, 0x7F] + Array(Self.pointAfter.utf8))
        #expect(try GPXRoute(data: data).points.first?.name == "\u{80}\u{9F}\u{7F}")
    }
}
