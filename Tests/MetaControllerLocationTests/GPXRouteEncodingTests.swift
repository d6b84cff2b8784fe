import Foundation
@testable import MetaControllerLocation
import Testing

/// The encoding a GPX file declares (XML 1.0 §4.3.3), and `]]>` in its text (§2.4).
extension GPXRouteTests {
    private static func document(declaring declaration: String, name: [UInt8]) -> Data {
        Data(Array("<?xml version=\"1.0\" \(declaration)?>\n<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>".utf8) + name + Array("</name></wpt></gpx>".utf8))
    }

    /// "café" in ISO-8859-1 is the byte 0xE9 for é: read as é, as XML parsers read it (it was
    /// read as UTF-8, and refused or misread).
    @Test(arguments: ["encoding=\"ISO-8859-1\"", "encoding='iso-8859-1'", "encoding = \"latin1\"", "encoding=\"ISO_8859-1\" standalone=\"yes\""])
    func anISO88591DocumentIsReadInItsDeclaredEncoding(declaration: String) throws {
        let route = try GPXRoute(data: Self.document(declaring: declaration, name: [0x63, 0x61, 0x66, 0xE9, 0xA0, 0xFF]))
        #expect(route.points.first?.name == "caf\u{E9}\u{A0}\u{FF}")
    }

    @Test(arguments: ["encoding=\"UTF-8\"", "encoding=\"utf-8\"", "standalone=\"yes\"", ""])
    func aUTF8DocumentIsReadAsBefore(declaration: String) throws {
        let route = try GPXRoute(data: Self.document(declaring: declaration, name: Array("café".utf8)))
        #expect(route.points.first?.name == "café")
    }

    @Test func aUSASCIIDocumentWithAByteFrom0x80IsRefusedOnItsLine() {
        #expect(throws: LocationError(code: .malformedGPX, line: 3, reason: "the byte 0xC3 is not US-ASCII, the declared encoding")) {
            try GPXRoute(data: Self.document(declaring: "encoding=\"US-ASCII\"", name: Array("café".utf8)))
        }
        #expect((try? GPXRoute(data: Self.document(declaring: "encoding=\"US-ASCII\"", name: Array("cafe".utf8))))?.points.first?.name == "cafe")
    }

    @Test(arguments: ["UTF-16", "Shift_JIS", "windows-1252", "EBCDIC-US"])
    func anotherDeclaredEncodingIsRefusedNotGuessedAt(name: String) {
        #expect(
            throws: LocationError(
                code: .malformedGPX, line: 1,
                reason: "the document declares the encoding \(name); GPX files are read in UTF-8, US-ASCII or ISO-8859-1")
        ) {
            try GPXRoute(data: Self.document(declaring: "encoding=\"\(name)\"", name: Array("a".utf8)))
        }
    }

    @Test func aByteOrderMarkThatContradictsTheDeclarationIsRefused() {
        let data = Data([0xEF, 0xBB, 0xBF]) + Self.document(declaring: "encoding=\"ISO-8859-1\"", name: Array("a".utf8))
        #expect(
            throws: LocationError(
                code: .malformedGPX, line: 1, reason: "the document declares the encoding ISO-8859-1 but starts with a UTF-8 byte order mark")
        ) {
            try GPXRoute(data: data)
        }
    }

    /// Only a declaration at the very start counts: a processing instruction later is skipped as before.
    @Test func anEncodingNamedAnywhereButTheDeclarationIsIgnored() throws {
        let data = Data("<gpx><?xml-stylesheet encoding=\"EBCDIC\"?><wpt lat=\"1\" lon=\"2\"><name>é</name></wpt></gpx>".utf8)
        #expect(try GPXRoute(data: data).points.first?.name == "é")
    }

    @Test(arguments: ["a]]>b", "]]>", "x]]]>"])
    func theCDATAEndInTextIsRefused(text: String) {
        #expect(throws: LocationError(code: .malformedGPX, line: 3, reason: "]]> in text, where XML allows it only to end a CDATA section")) {
            try GPXRoute(data: Self.document(declaring: "", name: Array(text.utf8)))
        }
    }

    @Test(arguments: [("a]]&gt;b", "a]]>b"), ("a]>b", "a]>b"), ("a] ]>b", "a] ]>b"), ("<![CDATA[a]]]]><![CDATA[>b]]>", "a]]>b")])
    func aCDATAEndWrittenAnotherWayIsText(text: String, read: String) throws {
        #expect(try GPXRoute(data: Self.document(declaring: "", name: Array(text.utf8))).points.first?.name == read)
    }
}
