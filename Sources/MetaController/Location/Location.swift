public import Foundation

/// A place on Earth and how it was measured: coordinates, altitude, accuracy,
/// speed, course and time. The same on every platform.
///
/// ```swift
/// let paris = try Location(latitude: 48.8566, longitude: 2.3522)
/// let london = try Location(latitude: 51.5074, longitude: -0.1278)
/// paris.distance(to: london)   // 343923.12 meters
/// ```
///
/// Invalid values are refused: a latitude outside -90...90, a longitude
/// outside -180...180, a negative accuracy or speed, a course outside
/// 0..<360, or anything that is not a finite number.
public struct Location: Sendable, Equatable, Codable {
    /// Degrees north of the equator, from -90 to 90.
    public let latitude: Double
    /// Degrees east of Greenwich, from -180 to 180.
    public let longitude: Double
    /// Meters above sea level, if known.
    public let altitude: Double?
    /// The radius of uncertainty of the coordinates, in meters, if known.
    public let horizontalAccuracy: Double?
    /// The uncertainty of the altitude, in meters, if known.
    public let verticalAccuracy: Double?
    /// Meters per second, if known.
    public let speed: Double?
    /// Degrees clockwise from true north, from 0 up to 360, if known.
    public let course: Double?
    /// When it was measured.
    public let timestamp: Date

    /// Creates a location, checking every value.
    ///
    /// - Throws: ``LocationError/Code/invalidValue`` naming the value out of range.
    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil, speed: Double? = nil, course: Double? = nil, timestamp: Date = Date()
    ) throws(LocationError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw .invalid("latitude \(latitude) is not between -90 and 90")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw .invalid("longitude \(longitude) is not between -180 and 180")
        }
        if let altitude, !altitude.isFinite { throw .invalid("altitude \(altitude) is not a finite number") }
        for (name, value) in [("horizontal accuracy", horizontalAccuracy), ("vertical accuracy", verticalAccuracy), ("speed", speed)] {
            if let value, !(value.isFinite && value >= 0) { throw .invalid("\(name) \(value) is not 0 or more") }
        }
        if let course, !(course.isFinite && course >= 0 && course < 360) {
            throw .invalid("course \(course) is not from 0 up to 360")
        }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.timestamp = timestamp
    }

    /// Decodes a location, refusing invalid values as the initializer does.
    public init(from decoder: any Decoder) throws {
        enum Keys: String, CodingKey {
            case latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy, speed, course, timestamp
        }
        let container = try decoder.container(keyedBy: Keys.self)
        do {
            try self.init(
                latitude: container.decode(Double.self, forKey: .latitude),
                longitude: container.decode(Double.self, forKey: .longitude),
                altitude: container.decodeIfPresent(Double.self, forKey: .altitude),
                horizontalAccuracy: container.decodeIfPresent(Double.self, forKey: .horizontalAccuracy),
                verticalAccuracy: container.decodeIfPresent(Double.self, forKey: .verticalAccuracy),
                speed: container.decodeIfPresent(Double.self, forKey: .speed),
                course: container.decodeIfPresent(Double.self, forKey: .course),
                timestamp: container.decode(Date.self, forKey: .timestamp))
        } catch let error as LocationError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.reason))
        }
    }

    /// The distance to `other` along the Earth's surface, in meters, on the WGS-84 ellipsoid.
    ///
    /// It solves the inverse geodesic problem with Vincenty's formulae, which
    /// agree with the exact geodesic to within a millimeter. For points that
    /// are nearly antipodal, where Vincenty's iteration does not converge, it
    /// falls back to the great-circle distance on a sphere of the Earth's mean
    /// radius, within 0.5% of the geodesic. Altitudes are ignored.
    public func distance(to other: Location) -> Double {
        Self.vincentyDistance(latitude, longitude, other.latitude, other.longitude)
            ?? Self.greatCircleDistance(latitude, longitude, other.latitude, other.longitude)
    }

    // MARK: - Geodesy

    private static let equatorialRadius = 6_378_137.0
    private static let flattening = 1 / 298.257223563
    private static let polarRadius = equatorialRadius * (1 - flattening)
    private static let meanRadius = 6_371_008.8

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

    /// Vincenty's inverse formula; `nil` when it does not converge.
    static func vincentyDistance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double? {
        let a = equatorialRadius, b = polarRadius, f = flattening
        let difference = radians(lon2 - lon1)
        let u1 = atan((1 - f) * tan(radians(lat1))), u2 = atan((1 - f) * tan(radians(lat2)))
        let sinU1 = sin(u1), cosU1 = cos(u1), sinU2 = sin(u2), cosU2 = cos(u2)
        var lambda = difference
        for _ in 0..<200 {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let sinSigma = ((cosU2 * sinLambda) * (cosU2 * sinLambda)
                + (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) * (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)).squareRoot()
            if sinSigma == 0 { return 0 }   // the same point
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            let cos2SigmaM = cosSquaredAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha
            let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda = difference + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 {
                let uSquared = cosSquaredAlpha * (a * a - b * b) / (b * b)
                let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
                let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
                let deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                    - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
                return b * bigA * (sigma - deltaSigma)
            }
            if abs(lambda) > .pi { return nil }
        }
        return nil
    }

    /// The haversine distance on a sphere of the Earth's mean radius.
    static func greatCircleDistance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let dLat = radians(lat2 - lat1), dLon = radians(lon2 - lon1)
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(radians(lat1)) * cos(radians(lat2)) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * meanRadius * asin(min(1, h.squareRoot()))
    }
}
