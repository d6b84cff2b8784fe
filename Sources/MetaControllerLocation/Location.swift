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

    /// The distance to `other` along the Earth's surface, in meters: the
    /// length of the shortest path (the geodesic) on the WGS-84 ellipsoid.
    ///
    /// It solves the inverse geodesic problem by Karney's algorithm, within a
    /// millimeter of the exact geodesic for every pair of points, nearly
    /// antipodal and antipodal ones included, and whichever way the longitudes
    /// cross the 180th meridian. The two directions give the same distance.
    /// Altitudes are ignored.
    public func distance(to other: Location) -> Double {
        Geodesic.distance(
            latitude1: latitude, longitude1: longitude, latitude2: other.latitude, longitude2: other.longitude)
    }
}
