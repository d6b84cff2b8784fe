import Foundation
import MetaController
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

@Suite struct LocationTests {
    private static let paris = (48.8566, 2.3522), london = (51.5074, -0.1278)

    @Test(arguments: [
        // Reference distances on the WGS-84 ellipsoid, from GeographicLib's exact geodesic solution.
        ((48.8566, 2.3522), (51.5074, -0.1278), 343_923.1200909893),   // Paris, London
        ((40.7128, -74.0060), (34.0522, -118.2437), 3_944_422.231489921),   // New York, Los Angeles
        ((-33.8688, 151.2093), (35.6762, 139.6503), 7_792_174.827115239),   // Sydney, Tokyo
        ((52.52, 13.405), (52.5209, 13.405), 100.14949779971879),   // 100 m in Berlin
        ((35.6762, 139.6503), (37.7749, -122.4194), 8_293_443.176264112),   // Tokyo, San Francisco
        ((-0.1807, -78.4678), (1.3521, 103.8198), 19_743_445.680717908),   // Quito, Singapore: nearly antipodal
        ((0, 0), (0, 180), 20_003_931.458625447),   // antipodes: half a meridian
    ])
    func distancesAgreeWithTheGeodesicWithinAMillimeter(a: (Double, Double), b: (Double, Double), meters: Double) throws {
        let from = try Location(latitude: a.0, longitude: a.1), to = try Location(latitude: b.0, longitude: b.1)
        #expect(abs(from.distance(to: to) - meters) < 0.001)
        #expect(abs(to.distance(to: from) - meters) < 0.001)
    }

    @Test func theDistanceToItselfIsZero() throws {
        let paris = try Location(latitude: Self.paris.0, longitude: Self.paris.1)
        #expect(paris.distance(to: paris) == 0)
    }

    @Test(arguments: [
        (90.0001, 0.0, "latitude"), (-91, 0, "latitude"), (Double.nan, 0, "latitude"),
        (0, 180.5, "longitude"), (0, -Double.infinity, "longitude"),
    ])
    func coordinatesOutOfRangeAreRefused(latitude: Double, longitude: Double, field: String) {
        #expect {
            try Location(latitude: latitude, longitude: longitude)
        } throws: { error in
            (error as? LocationError)?.code == .invalidValue && (error as? LocationError)?.reason.hasPrefix(field) == true
        }
    }

    @Test func otherValuesOutOfRangeAreRefused() {
        #expect(throws: LocationError.self) { try Location(latitude: 0, longitude: 0, horizontalAccuracy: -1) }
        #expect(throws: LocationError.self) { try Location(latitude: 0, longitude: 0, speed: -0.1) }
        #expect(throws: LocationError.self) { try Location(latitude: 0, longitude: 0, course: 360) }
        #expect(throws: LocationError.self) { try Location(latitude: 0, longitude: 0, altitude: .infinity) }
        #expect(throws: Never.self) { try Location(latitude: 90, longitude: -180, course: 359.9) }
    }

    @Test func decodingChecksValuesToo() throws {
        let good = try JSONEncoder().encode(try Location(latitude: 1, longitude: 2, timestamp: Date(timeIntervalSince1970: 0)))
        #expect(try JSONDecoder().decode(Location.self, from: good).longitude == 2)
        let bad = Data(#"{"latitude": 95, "longitude": 0, "timestamp": 0}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Location.self, from: bad) }
    }
}
