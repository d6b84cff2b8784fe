import Foundation
import MetaController
@testable import MetaControllerLocation
import Testing
import MetaControllerTestSupport

@Suite struct GPXRouteTests {
    static let sample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- A short walk -->
        <gpx version="1.1" creator="MetaController tests" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="48.8584" lon="2.2945"><name>Tour Eiffel &amp; Champ</name></wpt>
          <rte>
            <rtept lat='48.8606' lon='2.3376'><name><![CDATA[Louvre <museum>]]></name></rtept>
          </rte>
          <trk><trkseg>
            <trkpt lat="48.8530" lon="2.3499"><ele>35.5</ele><time>2024-05-01T08:30:00Z</time></trkpt>
            <trkpt lat="48.8535" lon="2.3510"><ele>36</ele><time>2024-05-01T08:30:10.500Z</time></trkpt>
            <trkpt lat="48.8540" lon="2.3520"/>
          </trkseg></trk>
        </gpx>
        """

    @Test func readsEveryKindOfPointInOrder() throws {
        let route = try GPXRoute(data: Data(Self.sample.utf8))
        #expect(route.points.map(\.kind) == [.waypoint, .routePoint, .trackPoint, .trackPoint, .trackPoint])
        #expect(route.points.map(\.location.latitude) == [48.8584, 48.8606, 48.8530, 48.8535, 48.8540])
        #expect(route.points[0].name == "Tour Eiffel & Champ")
        #expect(route.points[1].name == "Louvre <museum>")
        #expect(route.points[2].location.altitude == 35.5)
        #expect(route.points[2].time == Date(timeIntervalSince1970: 1_714_552_200))
        #expect(route.points[3].time == Date(timeIntervalSince1970: 1_714_552_210.5))
        #expect(route.points[4].time == nil)
        #expect(route.points.map(\.line) == [4, 6, 9, 10, 11])
    }

    @Test(arguments: ["0x1p3", "1e3", "1E-2", "inf", "-infinity", "nan", "1_0", "\u{661}", "1.2.3", "+-1", "1-", ".", "-", "", " ", "\u{A0}1"])
    func numbersThatAreNotXSDDecimalsAreRefused(text: String) {
        let latitude = "<gpx>\n<wpt lat=\"\(text)\" lon=\"0\"/></gpx>"
        #expect(throws: LocationError(code: .malformedGPX, line: 2, reason: "lat \"\(text)\" is not a latitude from -90 to 90")) {
            try GPXRoute(data: Data(latitude.utf8))
        }
        let longitude = "<gpx><wpt lat=\"0\" lon=\"\(text)\"/></gpx>"
        #expect(throws: LocationError(code: .malformedGPX, line: 1, reason: "lon \"\(text)\" is not a longitude from -180 to 180")) {
            try GPXRoute(data: Data(longitude.utf8))
        }
        let elevation = "<gpx><wpt lat=\"0\" lon=\"0\">\n<ele>\(text)</ele></wpt></gpx>"
        #expect(throws: LocationError.self) { try GPXRoute(data: Data(elevation.utf8)) }
    }

    @Test(arguments: [("+1.5", 1.5), ("-.5", -0.5), ("5.", 5), (" 1.5 ", 1.5), ("\t\n-12\r\n", -12), ("007", 7), ("-0", 0)])
    func xsdDecimalsAreRead(text: String, value: Double) throws {
        let route = try GPXRoute(data: Data("<gpx><wpt lat=\"\(text)\" lon=\"\(text)\"><ele>\(text)</ele></wpt></gpx>".utf8))
        #expect(route.points.first?.location.latitude == value)
        #expect(route.points.first?.location.longitude == value)
        #expect(route.points.first?.location.altitude == value)
    }

    @Test(arguments: [
        ("<gpx><wpt lon=\"2\"></wpt></gpx>", 1, "wpt needs a lat attribute"),
        ("<gpx>\n<trkpt lat=\"1\"/>\n</gpx>", 2, "trkpt needs a lon attribute"),
        ("<gpx>\n\n<wpt lat=\"91\" lon=\"0\"/></gpx>", 3, "lat \"91\" is not a latitude from -90 to 90"),
        ("<gpx><wpt lat=\"x\" lon=\"0\"/></gpx>", 1, "lat \"x\" is not a latitude from -90 to 90"),
        ("<gpx>\n<wpt lat=\"1\" lon=\"1\">\n<ele>high</ele></wpt></gpx>", 3, "ele \"high\" is not a number"),
        ("<gpx><wpt lat=\"1\" lon=\"1\">\n<time>yesterday</time></wpt></gpx>", 2, "time \"yesterday\" is not an ISO 8601 date and time"),
        ("<kml></kml>", 1, "the root element is <kml>, not <gpx>"),
        ("<gpx>\n<wpt lat=\"1\" lon=\"1\">\n</gpx>", 3, "</gpx> closes <wpt>"),
        ("<gpx>\n<wpt lat=\"1\" lon=\"1\">", 2, "<wpt> is never closed"),
        ("<gpx><wpt lat=1 lon=\"1\"/></gpx>", 1, "the value of lat in <wpt> is not quoted"),
        ("<gpx><wpt lat=\"1\" lat=\"2\" lon=\"1\"/></gpx>", 1, "attribute lat appears twice in <wpt>"),
        ("<gpx>&bogus;</gpx>", 1, "unknown entity &bogus;"),
        ("<gpx>\n<!-- never closed", 2, "a comment is never closed"),
        ("<!DOCTYPE gpx><gpx/>", 1, "document type declarations are not supported"),
        ("<gpx/><gpx/>", 1, "a second root element <gpx>"),
        ("", 1, "no root element"),
        ("<gpx><wpt lat=\"1\" lon=\"1\"><trkpt lat=\"1\" lon=\"1\"/></wpt></gpx>", 1, "<trkpt> inside another point"),
    ])
    func malformedFilesNameTheLine(text: String, line: Int, reason: String) {
        #expect {
            try GPXRoute(data: Data(text.utf8))
        } throws: { error in
            let error = error as? LocationError
            return error?.code == .malformedGPX && error?.line == line && error?.reason == reason
        }
    }

    // MARK: - Adversarial shapes, parsed on a 512 KB stack

    @Test func deepNestingIsRefusedAtTheLimitBeforeReachingIt() async {
        // 100,000 levels, one a line: the 64th <a> would be the 65th open element.
        let text = "<gpx>\n" + String(repeating: "<a>\n", count: 100_000) + String(repeating: "</a>", count: 100_000) + "</gpx>"
        await #expect(throws: LocationError(code: .malformedGPX, line: 65, reason: "elements nest more than 64 deep")) {
            try await onSmallStack(throwing: { try GPXRoute(data: Data(text.utf8)) })
        }
    }

    @Test(arguments: [
        ("comments", "<!---->"),
        ("processing instructions", "<?p?>"),
        ("empty elements", "<e/>"),
        ("mixed", "<!-- c --><?pi x?><e/><![CDATA[ ]]>\n<x:e xmlns:x=\"urn:x\"></x:e><wpt lat=\"1\" lon=\"2\"/>"),
    ])
    func oneHundredThousandRepetitionsParseOnASmallStack(shape: String, piece: String) async throws {
        let text = "<gpx>" + String(repeating: piece, count: 100_000) + "\n<trkpt lat=\"3\" lon=\"4\"/></gpx>"
        let route = try await onSmallStack(throwing: { try GPXRoute(data: Data(text.utf8)) })
        let repeatedPoints = shape == "mixed" ? 100_000 : 0
        #expect(route.points.count == repeatedPoints + 1)
        #expect(route.points.last?.line == (shape == "mixed" ? 100_002 : 2))
    }

    @Test func oneHundredThousandCommentsAndInstructionsBeforeTheRootParseOnASmallStack() async throws {
        let text = "<?xml version=\"1.0\"?>" + String(repeating: "<!----><?p?>\n", count: 100_000) + "<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>"
        let route = try await onSmallStack(throwing: { try GPXRoute(data: Data(text.utf8)) })
        #expect(route.points.map(\.line) == [100_001])
    }

    @Test func aTenMegabyteTrackParsesOnASmallStack() async throws {
        // Built and parsed on a thread of its own, so as not to hold up the test runner's threads.
        let (route, count) = try await onSmallStack(throwing: { () throws -> (GPXRoute, Int) in
            func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            var text = "<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:x=\"urn:example\"><trk><trkseg>\n"
            var count = 0
            while text.utf8.count < 10_000_000 {
                let second = count % 86_400
                text += """
                    <trkpt lat="\(Double(count % 1000) / 100)" lon="2.35"><ele>\(count % 300)</ele>\
                    <time>2024-05-01T\(twoDigits(second / 3600)):\(twoDigits(second / 60 % 60)):\(twoDigits(second % 60))Z</time>\
                    <extensions><x:hr>\(count % 200)</x:hr></extensions></trkpt>

                    """
                count += 1
            }
            text += "</trkseg></trk></gpx>"
            return (try GPXRoute(data: Data(text.utf8)), count)
        })
        #expect(route.points.count == count)
        #expect(route.points.allSatisfy { $0.kind == .trackPoint && $0.time != nil })
        #expect(route.points.first?.time == Date(timeIntervalSince1970: 1_714_521_600))
        #expect(route.points.last?.time == Date(timeIntervalSince1970: 1_714_521_600 + Double((count - 1) % 86_400)))
        #expect(route.points.last?.line == count + 1)
        #expect(route.points.last?.location.latitude == Double((count - 1) % 1000) / 100)
    }

    // MARK: - Namespaces

    @Test func aPrefixedGPXNamespaceIsTheSameDocument() throws {
        let text = """
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1">
              <g:wpt lat="1" lon="2"><g:name>Prefixed</g:name><g:time>2013-01-01T12:00:04Z</g:time></g:wpt>
            </g:gpx>
            """
        let route = try GPXRoute(data: Data(text.utf8))
        #expect(route.points.map(\.name) == ["Prefixed"])
        #expect(route.points.map(\.time) == [Date(timeIntervalSince1970: 1_357_041_604)])
    }

    @Test func gpx10AndNoNamespaceAreGPXToo() throws {
        for root in ["<gpx xmlns=\"http://www.topografix.com/GPX/1/0\">", "<gpx>", "<p:gpx xmlns:p=\"http://www.topografix.com/GPX/1/0\">"] {
            let end = root.hasPrefix("<p:") ? "</p:gpx>" : "</gpx>"
            let point = root.hasPrefix("<p:") ? "<p:rtept lat=\"1\" lon=\"2\"/>" : "<rtept lat=\"1\" lon=\"2\"/>"
            #expect(try GPXRoute(data: Data((root + point + end).utf8)).points.map(\.kind) == [.routePoint])
        }
    }

    @Test func elementsOfOtherNamespacesAreSkipped() throws {
        let text = """
            <gpx xmlns="http://www.topografix.com/GPX/1/1" xmlns:e="urn:example">
              <wpt lat="1" lon="2">
                <e:time>not a time</e:time><e:ele>high</e:ele>
                <extensions><e:wpt lat="99" lon="0"/><name xmlns="urn:example">inner</name></extensions>
                <time>2013-01-01T12:00:04Z</time><name>outer</name>
              </wpt>
              <e:trkpt lat="5" lon="5"/>
              <trkpt xmlns="urn:example" lat="6" lon="6"/>
              <trkpt xmlns="" lat="7" lon="7"/>
            </gpx>
            """
        let route = try GPXRoute(data: Data(text.utf8))
        #expect(route.points.map(\.name) == ["outer"])
        #expect(route.points.map(\.time) == [Date(timeIntervalSince1970: 1_357_041_604)])
    }

    @Test func onlyAPointsOwnChildrenAreItsFields() throws {
        let text = "<gpx><wpt lat=\"1\" lon=\"2\"><extensions><time>not a time</time><name>inner</name></extensions></wpt></gpx>"
        let route = try GPXRoute(data: Data(text.utf8))
        #expect(route.points.map(\.name) == [nil])
        #expect(route.points.map(\.time) == [nil])
    }

    @Test(arguments: [
        ("<gpx>\n<x:wpt lat=\"1\" lon=\"1\"/></gpx>", 2, "the prefix x of <x:wpt> is not declared"),
        ("<gpx><a xmlns:x=\"urn:x\"><x:b/></a>\n<x:b/></gpx>", 2, "the prefix x of <x:b> is not declared"),
        ("<gpx>\n\n<wpt lat=\"1\" lon=\"1\" q:a=\"1\"/></gpx>", 3, "the prefix q of attribute q:a is not declared"),
        ("<g:gpx></g:gpx>", 1, "the prefix g of <g:gpx> is not declared"),
        ("<gpx xmlns=\"urn:other\"/>", 1, "<gpx> is in the namespace \"urn:other\", not GPX 1.1's or 1.0's"),
        ("<x:gpx xmlns:x=\"urn:other\"/>", 1, "<x:gpx> is in the namespace \"urn:other\", not GPX 1.1's or 1.0's"),
        ("<gpx xmlns:x=\"\"/>", 1, "xmlns:x declares an empty namespace"),
        ("<gpx xmlns:=\"urn:x\"/>", 1, "xmlns: is not a valid declaration"),
        ("<gpx xmlns:xml=\"urn:x\"/>", 1, "xmlns:xml cannot be declared as \"urn:x\""),
        ("<gpx>\n<a:b:c xmlns:a=\"urn:a\"/></gpx>", 2, "a:b:c is not a valid qualified name"),
        ("<gpx><xmlns:a/></gpx>", 1, "<xmlns:a> uses the reserved prefix xmlns"),
    ])
    func namespaceErrorsNameThePrefixAndLine(text: String, line: Int, reason: String) {
        #expect(throws: LocationError(code: .malformedGPX, line: line, reason: reason)) { try GPXRoute(data: Data(text.utf8)) }
    }

    // MARK: - Times

    private func time(_ text: String) throws -> Date? {
        try GPXRoute(data: Data("<gpx><wpt lat=\"0\" lon=\"0\"><time>\(text)</time></wpt></gpx>".utf8)).points.first?.time
    }

    @Test(arguments: [
        ("2013-01-01T12:00:04", 1_357_041_604.0),   // no offset: UTC
        ("2013-01-01T12:00:04Z", 1_357_041_604),
        ("2013-01-01T14:00:04+02:00", 1_357_041_604),
        ("2013-01-01T06:30:04-05:30", 1_357_041_604),
        ("2013-01-01T14:00:04+0200", 1_357_041_604),
        ("2013-01-01T14:00:04+02", 1_357_041_604),
        ("2013-01-02T02:00:04+14:00", 1_357_041_604),
        ("2013-01-01T12:00:04.5", 1_357_041_604.5),
        ("2013-01-01T12:00:04.25000000000000000000000000001-00:00", 1_357_041_604.25),
        ("2012-02-29T00:00:00Z", 1_330_473_600),
        ("2013-01-01T24:00:00Z", 1_357_084_800),   // the next day's start
        ("2016-12-31T23:59:60Z", 1_483_228_800),   // a leap second
        ("0001-01-01T00:00:00Z", -62_135_596_800),   // proleptic Gregorian, as Python's datetime
        ("9999-12-31T23:59:59Z", 253_402_300_799),
        ("10000-01-01T00:00:00Z", 253_402_300_800),
    ])
    func readsXSDDateTimes(text: String, seconds: Double) throws {
        #expect(try time(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "2013-01-01", "2013-01-01T12:00", "2013-1-01T12:00:00Z", "2013-01-01 12:00:00Z", "2013-01-01t12:00:00Z",
        "2013-01-01T12:00:00z", "2013-02-29T00:00:00Z", "2013-13-01T00:00:00Z", "2013-00-01T00:00:00Z",
        "2013-04-31T00:00:00Z", "2013-01-01T12:60:00Z", "2013-01-01T12:00:61Z", "2013-01-01T25:00:00Z",
        "2013-01-01T24:00:01Z", "2013-01-01T24:00:00.5Z", "2013-01-01T12:00:00.Z", "2013-01-01T12:00:00+15:00",
        "2013-01-01T12:00:00+14:01", "2013-01-01T12:00:00+02:60", "2013-01-01T12:00:00+02:0", "2013-01-01T12:00:00+020",
        "2013-01-01T12:00:00+", "0000-01-01T00:00:00Z", "-2013-01-01T00:00:00Z", "02013-01-01T00:00:00Z",
        "2013-01-01T12:00:00Z junk", "2013-01-01T12:00:00ZZ", "１２３４-01-01T00:00:00Z",
    ])
    func refusesWhatIsNotADateTime(text: String) {
        #expect(throws: LocationError(code: .malformedGPX, line: 1, reason: "time \"\(text)\" is not an ISO 8601 date and time")) {
            try time(text)
        }
    }

    // MARK: - Files from real producers

    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/GPX")

    /// What gpxpy read from each fixture; written by Fixtures/GPX/expectations.py.
    private struct Expectation: Decodable {
        let waypoints, routePoints, trackPoints, timed, withElevation: Int
        let earliestTime, latestTime: Double?
        let latitudeSum, longitudeSum: Double
        let names: [String]
    }

    private static let fixtureFiles = [
        "garmin-connect.gpx", "garmin-device.gpx", "strava.gpx", "osmand.gpx", "gpsbabel.gpx", "gpx10.gpx",
        "prefixed.gpx", "no-zone-times.gpx",
    ]

    private static func expectations() throws -> [String: Expectation] {
        try JSONDecoder().decode([String: Expectation].self, from: Data(contentsOf: fixtures.appendingPathComponent("expectations.json")))
    }

    @Test func everyFixtureHasAnExpectation() throws {
        #expect(try Set(Self.expectations().keys) == Set(Self.fixtureFiles))
    }

    @Test(arguments: fixtureFiles)
    func readsFilesOfRealProducersAsGpxpyDoes(file: String) throws {
        let expected = try #require(try Self.expectations()[file])
        let route = try GPXRoute(contentsOf: Self.fixtures.appendingPathComponent(file))
        #expect(route.points.filter { $0.kind == .waypoint }.count == expected.waypoints)
        #expect(route.points.filter { $0.kind == .routePoint }.count == expected.routePoints)
        #expect(route.points.filter { $0.kind == .trackPoint }.count == expected.trackPoints)
        #expect(route.points.filter { $0.location.altitude != nil }.count == expected.withElevation)
        let times = route.points.compactMap { $0.time?.timeIntervalSince1970 }
        #expect(times.count == expected.timed)
        // gpxpy keeps microseconds.
        #expect(abs((times.min() ?? .nan) - (expected.earliestTime ?? .nan)) < 2e-6)
        #expect(abs((times.max() ?? .nan) - (expected.latestTime ?? .nan)) < 2e-6)
        #expect(abs(route.points.map(\.location.latitude).reduce(0, +) - expected.latitudeSum) < 1e-6)
        #expect(abs(route.points.map(\.location.longitude).reduce(0, +) - expected.longitudeSum) < 1e-6)
        #expect(route.points.compactMap(\.name).filter { !$0.isEmpty }.sorted() == expected.names)
    }

    @Test func randomBytesAndEveryPrefixNeverCrash() {
        let bytes = Array(Self.sample.utf8)
        for end in 0..<bytes.count { _ = try? GPXRoute(data: Data(bytes[..<end])) }
        var generator = SystemRandomNumberGenerator()
        let pieces = ["<", ">", "/", "gpx", "wpt", " lat=\"1\"", " lon='2'", "&amp;", "&", "<!--", "-->", "<![CDATA[", "]]>", "\n", "<?", "?>"]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0..<25, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            _ = try? GPXRoute(data: Data(text.utf8))
        }
    }
}

/// The characters of a GPX file, checked as XML 1.0 checks them.
extension GPXRouteTests {
    private static func route(_ bytes: [UInt8]) throws(LocationError) -> GPXRoute { try GPXRoute(data: Data(bytes)) }

    private static func named(_ name: String) -> [UInt8] {
        Array("<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>".utf8) + Array(name.utf8) + Array("</name></wpt>\n</gpx>".utf8)
    }

    @Test(
        arguments: [
            ([0xFF], "the byte 0xFF is not UTF-8"),
            ([0xC0, 0xAF], "the byte 0xC0 is not UTF-8"),   // an overlong /
            ([0xE0, 0x80, 0xAF], "the bytes from 0xE0 are not UTF-8"),   // an overlong /
            ([0xED, 0xA0, 0x80], "the bytes from 0xED are not UTF-8"),   // a surrogate
            ([0xF4, 0x90, 0x80, 0x80], "the bytes from 0xF4 are not UTF-8"),   // past U+10FFFF
            ([0xC3], "the bytes from 0xC3 are not UTF-8"),   // cut short
            ([0x80], "the byte 0x80 is not UTF-8"),
        ] as [([UInt8], String)])
    func invalidUTF8IsAFatalErrorOnItsLine(bytes: [UInt8], reason: String) {
        let text = Array("<gpx>\n<wpt lat=\"1\" lon=\"2\">\n<name>".utf8) + bytes + Array("</name></wpt></gpx>".utf8)
        #expect(throws: LocationError(code: .malformedGPX, line: 3, reason: reason)) { try Self.route(text) }
    }

    @Test(arguments: [0x00, 0x01, 0x08, 0x0B, 0x0C, 0x1B, 0x1F] as [UInt8])
    func aRawC0ControlIsRefused(byte: UInt8) {
        let hex = String(byte, radix: 16, uppercase: true)
        let reason = "the control character U+" + String(repeating: "0", count: 4 - hex.count) + hex + " is not allowed in XML"
        #expect(throws: LocationError(code: .malformedGPX, line: 2, reason: reason)) {
            try Self.route(Self.named("a" + String(UnicodeScalar(byte)) + "b"))
        }
    }

    @Test(arguments: ["\u{FFFE}", "\u{FFFF}"])
    func rawNoncharactersFFFEAndFFFFAreRefused(text: String) {
        let reason = "the character U+\(text == "\u{FFFE}" ? "FFFE" : "FFFF") is not allowed in XML"
        #expect(throws: LocationError(code: .malformedGPX, line: 2, reason: reason)) { try Self.route(Self.named(text)) }
    }

    @Test(arguments: ["&#0;", "&#x0;", "&#x1;", "&#27;", "&#xFFFE;", "&#xFFFF;", "&#xD800;", "&#xDFFF;", "&#x110000;", "&#99999999999999999999;"])
    func aReferenceToACharacterXMLDoesNotAllowIsRefused(reference: String) {
        #expect(throws: LocationError(code: .malformedGPX, line: 2, reason: "\(reference) is not a character XML allows")) {
            try Self.route(Self.named("a" + reference))
        }
    }

    @Test(arguments: ["&#x+41;", "&#-65;", "&#x;", "&#;", "&# 65;", "&#x41 ;"])
    func aMalformedReferenceIsRefused(reference: String) {
        #expect(throws: LocationError.self) { try Self.route(Self.named(reference)) }
    }

    @Test func leadingZerosInAReferenceAreAllowedAndAllowedControlsPass() throws {
        let route = try Self.route(Self.named("&#x0000000041;&#0000000000066;&#x9;C&#xD;&#x10FFFF;"))
        #expect(route.points.first?.name == "AB\tC\r\u{10FFFF}")
        let long = try Self.route(Self.named("&#x" + String(repeating: "0", count: 10_000) + "41;"))
        #expect(long.points.first?.name == "A")
    }

    @Test(arguments: [("\r", "CR"), ("\r\n", "CRLF"), ("\n", "LF")])
    func everyKindOfLineEndCountsLines(end: String, name: String) {
        let text = ["<gpx>", "<wpt lat=\"1\" lon=\"2\"/>", "", "<wpt lat=\"91\" lon=\"2\"/>", "</gpx>"].joined(separator: end)
        #expect(throws: LocationError(code: .malformedGPX, line: 4, reason: "lat \"91\" is not a latitude from -90 to 90")) {
            try GPXRoute(data: Data(text.utf8))
        }
        let good = try? GPXRoute(data: Data(text.replacingOccurrences(of: "91", with: "9").utf8))
        #expect(good?.points.map(\.line) == [2, 4])
        // A name that spans line ends reads them as line feeds, as XML's normalisation gives them.
        let spanning = try? GPXRoute(data: Data(("<gpx><wpt lat=\"1\" lon=\"2\"><name>a" + end + "b</name></wpt></gpx>").utf8))
        #expect(spanning?.points.first?.name == "a\nb")
    }

    @Test func aSeededSweepOfCharacterReferencesAgreesWithTheCharProduction() {
        // An oracle written apart from the reader: XML 1.0 §2.2's Char production, range by range.
        func isChar(_ value: UInt32) -> Bool {
            value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value <= 0xD7FF)
                || (value >= 0xE000 && value <= 0xFFFD) || (value >= 0x10000 && value <= 0x10FFFF)
        }
        var generator = SeededGenerator(seed: 0x2_2027)
        // Every code point below U+10000 and past it a random sample, plus the edges, each spelled three ways.
        var values = Array(UInt32(0)...0xFFFF)
        values += (0..<20_000).map { _ in UInt32.random(in: 0x10000...0x11_0010, using: &generator) }
        values += [0x10FFFF, 0x110000, 0x10000, 0xFFFF_FFFF]
        var mismatches: [String] = []
        for value in values {
            let spelling: String
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: spelling = "&#\(value);"
            case 1: spelling = "&#x\(String(value, radix: 16));"
            default:
                spelling = "&#x" + String(repeating: "0", count: Int.random(in: 1...12, using: &generator)) + String(value, radix: 16, uppercase: true) + ";"
            }
            let name = try? Self.route(Self.named(spelling)).points.first?.name
            // A name is read without the whitespace around it.
            let expected = isChar(value) ? Unicode.Scalar(value).map { String(Character($0)).trimmingCharacters(in: .whitespacesAndNewlines) } : nil
            if name != expected, mismatches.count < 10 { mismatches.append("\(spelling): \(String(describing: name))") }
        }
        #expect(mismatches.isEmpty)
    }
}
