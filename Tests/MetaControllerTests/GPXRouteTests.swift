import Foundation
import MetaController
import Testing

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

    @Test func deepNestingIsRefused() {
        let text = "<gpx>" + String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100) + "</gpx>"
        #expect(throws: LocationError.self) { try GPXRoute(data: Data(text.utf8)) }
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
