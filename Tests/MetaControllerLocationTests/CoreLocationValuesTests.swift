import Foundation
import MetaController
@testable import MetaControllerLocation
import Testing
import MetaControllerTestSupport

@Suite struct CoreLocationValuesTests {
    /// CLAuthorizationStatus's raw values, as Apple's headers give them.
    @Test(arguments: [
        (0, LocationAuthorization.notDetermined), (1, .restricted), (2, .denied),
        (3, .authorizedAlways), (4, .authorizedWhenInUse),
        (5, .restricted), (-1, .restricted), (Int(Int32.max), .restricted),
    ])
    func translatesAuthorizationStatuses(status: Int, expected: LocationAuthorization) {
        #expect(CoreLocationValues.authorization(status: status) == expected)
    }

    @Test func translatesAccuracyAuthorization() {
        #expect(CoreLocationValues.accuracy(0) == .full)
        #expect(CoreLocationValues.accuracy(1) == .reduced)
    }

    @Test func keepsWhatCoreLocationKnows() throws {
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let location = try #require(
            CoreLocationValues.location(
                latitude: 48.8566, longitude: 2.3522, altitude: 35, horizontalAccuracy: 5, verticalAccuracy: 3,
                speed: 1.5, course: 359.9, timestamp: time))
        #expect(
            location
                == (try Location(
                    latitude: 48.8566, longitude: 2.3522, altitude: 35, horizontalAccuracy: 5, verticalAccuracy: 3,
                    speed: 1.5, course: 359.9, timestamp: time)))
    }

    /// CoreLocation marks unknown values with negative numbers.
    @Test func dropsWhatCoreLocationMarksUnknown() throws {
        let time = Date(timeIntervalSince1970: 0)
        let location = try #require(
            CoreLocationValues.location(
                latitude: -33.8688, longitude: 151.2093, altitude: 12, horizontalAccuracy: 0, verticalAccuracy: -1,
                speed: -1, course: -1, timestamp: time))
        #expect(location.altitude == nil && location.verticalAccuracy == nil)
        #expect(location.speed == nil && location.course == nil)
        #expect(location.horizontalAccuracy == 0)
        #expect(
            CoreLocationValues.location(
                latitude: 1, longitude: 1, altitude: 0, horizontalAccuracy: 1, verticalAccuracy: 1,
                speed: 0, course: 360, timestamp: time)?.course == nil)
    }

    @Test func refusesAnInvalidCoordinate() {
        let time = Date(timeIntervalSince1970: 0)
        // A negative horizontal accuracy: CoreLocation says the coordinate is invalid.
        #expect(
            CoreLocationValues.location(
                latitude: 10, longitude: 10, altitude: 0, horizontalAccuracy: -1, verticalAccuracy: 1,
                speed: 0, course: 0, timestamp: time) == nil)
        // kCLLocationCoordinate2DInvalid is (-180, -180).
        #expect(
            CoreLocationValues.location(
                latitude: -180, longitude: -180, altitude: 0, horizontalAccuracy: 1, verticalAccuracy: 1,
                speed: 0, course: 0, timestamp: time) == nil)
        #expect(
            CoreLocationValues.location(
                latitude: .nan, longitude: 0, altitude: 0, horizontalAccuracy: 1, verticalAccuracy: 1,
                speed: 0, course: 0, timestamp: time) == nil)
    }
}
