import Foundation
import MetaController
@testable import MetaControllerLocation
import Testing
import MetaControllerTestSupport

@Suite struct GeodesicTests {
    /// Half the WGS-84 meridian, pole to pole: the longest geodesic there is (GeographicLib).
    private static let halfMeridian = 20_003_931.458625447
    private static let millimeter = 0.001

    /// One row of Fixtures/geodesic-fixtures.csv: a distance by GeographicLib.
    struct Row: CustomStringConvertible {
        var kind: String
        var lat1, lon1, lat2, lon2, meters: Double
        var description: String { "\(kind) (\(lat1), \(lon1)) → (\(lat2), \(lon2)): \(meters) m" }
    }

    /// The fixture written once by Fixtures/make-geodesic-fixtures.py from GeographicLib; no Python at run time.
    private static let rows: [Row] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/geodesic-fixtures.csv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> Row? in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 6, !line.hasPrefix("#"), fields[0] != "kind" else { return nil }
            let numbers = fields[1...].compactMap(Double.init)
            guard numbers.count == 5 else { return nil }
            return Row(kind: fields[0], lat1: numbers[0], lon1: numbers[1], lat2: numbers[2], lon2: numbers[3], meters: numbers[4])
        }
    }()

    private static func row(_ kind: String) throws -> Row {
        try #require(rows.first { $0.kind == kind }, "no fixture row \(kind)")
    }

    private static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) throws -> Double {
        try Location(latitude: lat1, longitude: lon1).distance(to: Location(latitude: lat2, longitude: lon2))
    }

    @Test func theFixtureCoversEveryKindOfPair() {
        let rows = Self.rows
        #expect(rows.count >= 1_500)
        let kinds = Set(rows.map { $0.kind.split(separator: ":").prefix(2).joined(separator: ":") })
        for kind in [
            "quadrants", "antimeridian", "antimeridian:close", "pole", "pole:near", "pole:to-pole", "equator",
            "equator:wide", "antipodal:near", "antipodal:equator", "antipodal:exact", "coincident", "short", "random",
        ] {
            #expect(kinds.contains(kind), "no \(kind) rows")
        }
        #expect(rows.filter { abs($0.lon1 - $0.lon2) > 180 }.count >= 300)
        #expect(rows.contains { $0.lat1 == 90 } && rows.contains { $0.lat1 == -90 })
        #expect(rows.contains { $0.kind == "short" && $0.meters < 0.001 })
    }

    @Test func everyFixtureDistanceIsWithinAMillimeterOfGeographicLib() throws {
        var worst = 0.0, misses: [String] = []
        for row in Self.rows {
            let error = abs(try Self.distance(row.lat1, row.lon1, row.lat2, row.lon2) - row.meters)
            worst = max(worst, error)
            if !(error <= Self.millimeter) { misses.append("\(row): off by \(error) m") }
        }
        #expect(!Self.rows.isEmpty)
        #expect(misses.isEmpty, "\(misses.count) of \(Self.rows.count) rows: \(misses.prefix(10))")
        #expect(worst <= Self.millimeter)
    }

    @Test(arguments: [
        "city:tokyo:san-francisco", "city:auckland:honolulu", "city:suva:apia", "city:quito:singapore",
        "antimeridian:issue", "pole:to-pole", "coincident",
    ])
    func namedPairsMatchTheirFixtureValue(kind: String) throws {
        for row in Self.rows where row.kind == kind {
            let meters = try Self.distance(row.lat1, row.lon1, row.lat2, row.lon2)
            #expect(abs(meters - row.meters) <= Self.millimeter, "\(row): \(meters) m")
        }
        #expect(Self.rows.contains { $0.kind == kind })
    }

    @Test func tokyoToSanFranciscoCrossesThe180thMeridian() throws {
        let row = try Self.row("city:tokyo:san-francisco")
        #expect(abs(row.meters - 8_293_443) < 1)   // the fixture is the pair from the issue
        #expect(abs(try Self.distance(35.6762, 139.6503, 37.7749, -122.4194) - row.meters) <= Self.millimeter)
    }

    @Test func antipodesAreHalfAMeridianApart() throws {
        #expect(abs(try Self.distance(0, 0, 0, 180) - Self.halfMeridian) <= Self.millimeter)
        #expect(abs(try Self.distance(0, -90, 0, 90) - Self.halfMeridian) <= Self.millimeter)
        #expect(abs(try Self.distance(90, 0, -90, 0) - Self.halfMeridian) <= Self.millimeter)
        #expect(abs(try Self.distance(-90, 123, 90, -45) - Self.halfMeridian) <= Self.millimeter)
        #expect(try Self.distance(0, 180, 0, -180) == 0)
        #expect(try Self.distance(90, 10, 90, -100) == 0)
    }

    @Test func everyFixturePairMeasuresTheSameBothWays() throws {
        for row in Self.rows {
            let there = try Self.distance(row.lat1, row.lon1, row.lat2, row.lon2)
            let back = try Self.distance(row.lat2, row.lon2, row.lat1, row.lon1)
            #expect(there == back, "\(row)")
        }
    }

    @Test(arguments: [(0, 180.5), (10, 190), (-17, -179.9 - 360), (35.6762, 139.6503 - 360), (0, -180.000001)] as [(Double, Double)])
    func longitudesShiftedOutOfRangeAreRefused(latitude: Double, longitude: Double) {
        #expect(throws: LocationError.self) { try Location(latitude: latitude, longitude: longitude) }
    }

    // MARK: - A seeded sweep that needs no oracle

    private static func randomPoint(_ generator: inout SeededGenerator) -> (Double, Double) {
        // Like the fixture generator: uniform on the sphere, with the poles, the equator and the
        // antimeridian now and then.
        let latitude: Double
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: latitude = [90, -90, 0][Int.random(in: 0..<3, using: &generator)]
        default: latitude = asin(Double.random(in: -1...1, using: &generator)) * 180 / .pi
        }
        let longitude =
            Int.random(in: 0..<10, using: &generator) == 0
            ? [180, -180][Int.random(in: 0..<2, using: &generator)]
            : Double.random(in: -180...180, using: &generator)
        return (latitude, longitude)
    }

    /// A point near the antipode of `point`, within `spread` degrees.
    private static func nearAntipode(of point: (Double, Double), spread: Double, _ generator: inout SeededGenerator) -> (Double, Double) {
        let latitude = min(90, max(-90, -point.0 + Double.random(in: -spread...spread, using: &generator)))
        var longitude = point.1 + 180 + Double.random(in: -spread...spread, using: &generator)
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return (latitude, min(180, max(-180, longitude)))
    }

    /// b times the angle between the geocentric directions: projecting the ellipsoid onto the
    /// sphere of the polar radius, which lies inside it, shortens every path.
    private static func lowerBound(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        func direction(_ point: (Double, Double)) -> (Double, Double, Double) {
            let f = Geodesic.flattening
            let latitude = point.0 * .pi / 180, longitude = point.1 * .pi / 180
            let z = (1 - f) * (1 - f) * sin(latitude), r = cos(latitude)
            return (r * cos(longitude), r * sin(longitude), z)
        }
        let p = direction(a), q = direction(b)
        let cross = (p.1 * q.2 - p.2 * q.1, p.2 * q.0 - p.0 * q.2, p.0 * q.1 - p.1 * q.0)
        let dot = p.0 * q.0 + p.1 * q.1 + p.2 * q.2
        let sine = (cross.0 * cross.0 + cross.1 * cross.1 + cross.2 * cross.2).squareRoot()
        return Geodesic.polarRadius * atan2(sine, dot)
    }

    @Test func randomTriplesAreSymmetricBoundedAndObeyTheTriangleInequality() throws {
        var generator = SeededGenerator(seed: 13)
        for index in 0..<3_000 {
            let a = Self.randomPoint(&generator)
            let b = index % 3 == 0 ? Self.nearAntipode(of: a, spread: 1, &generator) : Self.randomPoint(&generator)
            let c = index % 3 == 1 ? Self.nearAntipode(of: b, spread: 0.01, &generator) : Self.randomPoint(&generator)
            let ab = try Self.distance(a.0, a.1, b.0, b.1)
            let bc = try Self.distance(b.0, b.1, c.0, c.1)
            let ac = try Self.distance(a.0, a.1, c.0, c.1)
            let ba = try Self.distance(b.0, b.1, a.0, a.1)
            #expect(ab == ba, "\(a) \(b)")
            #expect(ac <= ab + bc + Self.millimeter, "\(a) \(b) \(c)")
            #expect(ab <= ac + bc + Self.millimeter, "\(a) \(b) \(c)")
            for (meters, from, to) in [(ab, a, b), (bc, b, c), (ac, a, c)] {
                #expect(meters.isFinite && meters >= 0 && meters <= Self.halfMeridian + Self.millimeter, "\(from) \(to)")
                #expect(meters >= Self.lowerBound(from, to) - Self.millimeter, "\(from) \(to)")
            }
        }
    }

    @Test func turningTheEarthOrMirroringItKeepsDistances() throws {
        var generator = SeededGenerator(seed: 1_313)
        for index in 0..<2_000 {
            let a = Self.randomPoint(&generator)
            let b = index % 2 == 0 ? Self.nearAntipode(of: a, spread: 0.5, &generator) : Self.randomPoint(&generator)
            let meters = try Self.distance(a.0, a.1, b.0, b.1)
            // Turn both longitudes by the same amount, across the 180th meridian as it happens.
            let turn = Double.random(in: -360...360, using: &generator)
            func turned(_ longitude: Double) -> Double { remainder(longitude + turn, 360) }   // in -180...180
            #expect(abs(try Self.distance(a.0, turned(a.1), b.0, turned(b.1)) - meters) <= Self.millimeter, "\(a) \(b) \(turn)")
            #expect(abs(try Self.distance(-a.0, a.1, -b.0, b.1) - meters) <= Self.millimeter, "\(a) \(b)")
            #expect(abs(try Self.distance(a.0, -a.1, b.0, -b.1) - meters) <= Self.millimeter, "\(a) \(b)")
        }
    }

    @Test func alongTheEquatorUpTo179Point39DegreesTheDistanceIsTheArc() throws {
        // The equator is the shortest path while the longitudes differ by at most (1 - f) 180° = 179.396...°.
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let start = Double.random(in: -180...180, using: &generator)
            let span = Double.random(in: 0...179.39, using: &generator)
            let end = remainder(start + span, 360)
            let arc = Geodesic.equatorialRadius * span * .pi / 180
            #expect(abs(try Self.distance(0, start, 0, end) - arc) <= Self.millimeter, "\(start) \(span)")
        }
    }
}
