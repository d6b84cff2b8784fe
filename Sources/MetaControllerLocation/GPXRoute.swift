public import Foundation

/// The points of a GPX 1.1 or 1.0 file, in the order they appear: waypoints
/// (`wpt`), route points (`rtept`) and track points (`trkpt`), each with its
/// elevation, time and name when the file has them.
///
/// ```swift
/// let route = try GPXRoute(contentsOf: Bundle.main.url(forResource: "Commute", withExtension: "gpx")!)
/// let simulator = SimulatedLocationController(route: route, speed: 10)
/// ```
///
/// The reader understands XML namespaces: GPX elements are those in the root
/// element's namespace, which must be GPX 1.1's, GPX 1.0's or none, whatever
/// prefix the file gives it (`<gpx xmlns="…">` or `<g:gpx xmlns:g="…">`).
/// Elements in other namespaces, such as Garmin's or OsmAnd's extensions, are
/// skipped. A point's `ele`, `time` and `name` are read from its direct
/// children. A `time` is an `xsd:dateTime`; one without a zone offset is read
/// as UTC.
///
/// A malformed file throws ``LocationError/Code/malformedGPX`` naming the line:
/// XML that is not well formed (bytes that are not UTF-8, a character XML
/// does not allow, such as NUL, raw or as `&#0;`, an XML declaration that is not at the
/// very start or breaks XML 1.0's grammar for it, naming the column too, such as
/// `encoding` given twice or before `version`), a declared encoding other than UTF-8,
/// US-ASCII and ISO-8859-1, elements nested more than 64 deep, an
/// undeclared namespace prefix, a root element other than GPX's `gpx`, a point
/// without `lat` and `lon` or with coordinates out of range, an elevation or
/// time that does not parse. Coordinates and elevations are `xsd:decimal`, as
/// the schema says: digits with an optional sign and decimal point; exponents,
/// hexadecimal floats (`0x1p3`), `inf` and `nan` are refused.
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
        var scanner = try XMLScanner(Array(data))
        var points: [Point] = []
        // The point being read, and how deep its element is.
        var current: (kind: Point.Kind, latitude: Double, longitude: Double, line: Int, depth: Int)?
        var elevation: Double?, time: Date?, name: String?
        var field: String?, text = ""
        var depth = 0
        // GPX elements are those in the root's namespace: GPX 1.1's, GPX 1.0's or none.
        var gpxNamespace: String?
        while let event = try scanner.next() {
            switch event {
            case .start(let element, let attributes, let line):
                depth += 1
                if depth == 1 {
                    guard element.local == "gpx" else { throw .gpx(line: line, "the root element is <\(element.qualified)>, not <gpx>") }
                    if let namespace = element.namespace, !Self.namespaces.contains(namespace) {
                        throw .gpx(line: line, "<\(element.qualified)> is in the namespace \"\(namespace)\", not GPX 1.1's or 1.0's")
                    }
                    gpxNamespace = element.namespace
                }
                guard element.namespace == gpxNamespace else { continue }   // extensions
                if let kind = Point.Kind(rawValue: element.local) {
                    guard current == nil else { throw .gpx(line: line, "<\(element.qualified)> inside another point") }
                    guard let latText = attributes["lat"] else { throw .gpx(line: line, "\(kind.rawValue) needs a lat attribute") }
                    guard let lonText = attributes["lon"] else { throw .gpx(line: line, "\(kind.rawValue) needs a lon attribute") }
                    guard let latitude = Self.decimal(latText),
                        (-90...90).contains(latitude)
                    else { throw .gpx(line: line, "lat \"\(latText)\" is not a latitude from -90 to 90") }
                    guard let longitude = Self.decimal(lonText),
                        (-180...180).contains(longitude)
                    else { throw .gpx(line: line, "lon \"\(lonText)\" is not a longitude from -180 to 180") }
                    current = (kind, latitude, longitude, line, depth)
                    elevation = nil
                    time = nil
                    name = nil
                } else if let point = current, depth == point.depth + 1, Self.fields.contains(element.local) {
                    field = element.local
                    text = ""
                }
            case .text(let content):
                if field != nil { text += content }
            case .end(_, let line):
                defer { depth -= 1 }
                guard let point = current else { continue }
                if let element = field, depth == point.depth + 1 {
                    let value = Self.trimmed(text)
                    switch element {
                    case "ele":
                        guard let number = Self.decimal(text), number.isFinite else {
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
                } else if depth == point.depth {
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

    /// The namespaces of GPX 1.1 and 1.0.
    static let namespaces: Set<String> = ["http://www.topografix.com/GPX/1/1", "http://www.topografix.com/GPX/1/0"]

    /// `text` without the whitespace around it; most values have none, and are returned as they are.
    private static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last, first <= 0x20 || first >= 0x80 || last <= 0x20 || last >= 0x80
        else { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The number an `xsd:decimal` spells, between XML whitespace: an optional
    /// sign, then ASCII digits with at most one decimal point among or around
    /// them (`-.5`, `5.`, `+1.5`). What `Double` would also read is refused:
    /// exponents, hexadecimal (`0x1p3`), `inf`, `nan`, other scripts' digits.
    static func decimal(_ text: String) -> Double? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let utf8 = text.utf8
        guard let start = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return nil }
        var digits = 0, points = 0
        for (offset, byte) in utf8[start...last].enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "+") where offset == 0, UInt8(ascii: "-") where offset == 0: break
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        return Double(text[start...last])
    }

    /// The children of a point that are read.
    private static let fields: Set<String> = ["ele", "time", "name"]
}
