import Foundation

/// CoreLocation's raw values, translated into the package's types.
///
/// Kept out of the CoreLocation file so that the translation is compiled and
/// tested everywhere; that file passes the raw numbers through. Raw values are
/// used rather than enum cases because the cases differ between platforms
/// (`authorizedWhenInUse` does not exist on macOS).
enum CoreLocationValues {
    /// `CLAuthorizationStatus`: 0 not determined, 1 restricted, 2 denied, 3
    /// always (also macOS's `authorized`), 4 when in use. A value this version
    /// does not know allows nothing and counts as restricted.
    static func authorization(status: Int) -> LocationAuthorization {
        switch status {
        case 0: .notDetermined
        case 1: .restricted
        case 2: .denied
        case 3: .authorizedAlways
        case 4: .authorizedWhenInUse
        default: .restricted
        }
    }

    /// `CLAccuracyAuthorization`: 0 full, anything else reduced.
    static func accuracy(_ rawValue: Int) -> LocationAccuracyAuthorization {
        rawValue == 0 ? .full : .reduced
    }

    /// A `CLLocation`'s fields as a ``Location``, or `nil` when CoreLocation
    /// says the coordinate is invalid.
    ///
    /// CoreLocation marks what it does not know with negative values: a
    /// negative horizontal accuracy makes the coordinate invalid, a negative
    /// vertical accuracy the altitude, a negative speed or course (or a
    /// course of 360 or more) that value.
    static func location(
        latitude: Double, longitude: Double, altitude: Double,
        horizontalAccuracy: Double, verticalAccuracy: Double,
        speed: Double, course: Double, timestamp: Date
    ) -> Location? {
        guard horizontalAccuracy >= 0 else { return nil }
        return try? Location(
            latitude: latitude, longitude: longitude,
            altitude: verticalAccuracy >= 0 ? altitude : nil,
            horizontalAccuracy: horizontalAccuracy,
            verticalAccuracy: verticalAccuracy >= 0 ? verticalAccuracy : nil,
            speed: speed >= 0 ? speed : nil,
            course: course >= 0 && course < 360 ? course : nil,
            timestamp: timestamp)
    }
}
