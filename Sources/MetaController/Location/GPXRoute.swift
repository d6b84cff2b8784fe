public import Foundation

/// The points of a GPX 1.1 file, in the order they appear: waypoints
/// (`wpt`), route points (`rtept`) and track points (`trkpt`), each with its
/// elevation and time when the file has them.
///
/// ```swift
/// let route = try GPXRoute(contentsOf: Bundle.main.url(forResource: "Commute", withExtension: "gpx")!)
/// let simulator = SimulatedLocationController(route: route, speed: 10)
/// ```
///
/// A malformed file throws ``LocationError/Code/malformedGPX`` naming the line:
/// XML that is not well formed, a root element other than `gpx`, a point
/// without `lat` and `lon` or with coordinates out of range, an elevation or
/// time that does not parse.
public struct GPXRoute: Sendable, Equatable {
    /// One point of the file.
    public struct Point: Sendable, Equatable {
        /// Which element the point came from.
        public enum Kind: String, Sendable, Equatable {
            /// `wpt`: a waypoint.
            case waypoint = "wpt"
            /// `rtept`: a point of a planned route.
            case routePoint = "rtept"
            /// `trkpt`: a point of a recorded track.
            case trackPoint = "trkpt"
        }

        /// The element it came from.
        public let kind: Kind
        /// Its coordinates and elevation; its timestamp is ``time``, or the distant past when it has none.
        public let location: Location
        /// Its `<time>`, if any.
        public let time: Date?
        /// Its `<name>`, if any.
        public let name: String?
        /// The line of the file it starts on.
        public let line: Int
    }

    /// The points, in the order of the file.
    public let points: [Point]

    /// Reads a GPX file.
    ///
    /// - Throws: ``LocationError/Code/malformedGPX`` naming the line, or the
    ///   file system's error wrapped the same way when it cannot be read.
    public init(contentsOf url: URL) throws(LocationError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw LocationError(code: .malformedGPX, line: nil, reason: "cannot read \(url.path): \(error.localizedDescription)")
        }
        try self.init(data: data)
    }

    /// Parses GPX data.
    ///
    /// - Throws: ``LocationError/Code/malformedGPX`` naming the line.
    public init(data: Data) throws(LocationError) {
        let events = try XMLScanner.events(of: Array(data))
        var points: [Point] = []
        var current: (kind: Point.Kind, latitude: Double, longitude: Double, line: Int)?
        var elevation: Double?, time: Date?, name: String?
        var field: String?, text = ""
        var isRoot = true
        for event in events {
            switch event {
            case .start(let element, let attributes, let line):
                if isRoot {
                    guard element == "gpx" else { throw .gpx(line: line, "the root element is <\(element)>, not <gpx>") }
                    isRoot = false
                }
                if let kind = Point.Kind(rawValue: element) {
                    guard current == nil else { throw .gpx(line: line, "<\(element)> inside another point") }
                    guard let latText = attributes["lat"] else { throw .gpx(line: line, "\(element) needs a lat attribute") }
                    guard let lonText = attributes["lon"] else { throw .gpx(line: line, "\(element) needs a lon attribute") }
                    guard let latitude = Double(latText.trimmingCharacters(in: .whitespaces)), latitude.isFinite,
                        (-90...90).contains(latitude)
                    else { throw .gpx(line: line, "lat \"\(latText)\" is not a latitude from -90 to 90") }
                    guard let longitude = Double(lonText.trimmingCharacters(in: .whitespaces)), longitude.isFinite,
                        (-180...180).contains(longitude)
                    else { throw .gpx(line: line, "lon \"\(lonText)\" is not a longitude from -180 to 180") }
                    current = (kind, latitude, longitude, line)
                    elevation = nil
                    time = nil
                    name = nil
                } else if current != nil, ["ele", "time", "name"].contains(element) {
                    field = element
                    text = ""
                }
            case .text(let content):
                if field != nil { text += content }
            case .end(let element, let line):
                if element == field {
                    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
                    switch element {
                    case "ele":
                        guard let number = Double(value), number.isFinite else {
                            throw .gpx(line: line, "ele \"\(value)\" is not a number")
                        }
                        elevation = number
                    case "time":
                        guard let date = Self.parseTime(value) else {
                            throw .gpx(line: line, "time \"\(value)\" is not an ISO 8601 date and time")
                        }
                        time = date
                    default:
                        name = value
                    }
                    field = nil
                } else if let point = current, element == point.kind.rawValue {
                    let location: Location
                    do {
                        location = try Location(
                            latitude: point.latitude, longitude: point.longitude, altitude: elevation,
                            timestamp: time ?? .distantPast)
                    } catch {
                        throw .gpx(line: point.line, error.reason)
                    }
                    points.append(Point(kind: point.kind, location: location, time: time, name: name, line: point.line))
                    current = nil
                }
            }
        }
        self.points = points
    }

    /// `2024-05-01T08:30:00Z`, with or without fractional seconds, `Z` or an offset.
    static func parseTime(_ text: String) -> Date? {
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let plain = Date.ISO8601FormatStyle()
        return (try? withFraction.parse(text)) ?? (try? plain.parse(text))
    }
}
