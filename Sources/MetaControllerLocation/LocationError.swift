/// Why a location or a GPX route was refused.
///
/// ```swift
/// do {
///     let route = try GPXRoute(data: data)
/// } catch {
///     print(error)   // line 12: trkpt needs a lat attribute
/// }
/// ```
public struct LocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// A coordinate, accuracy, speed or course is out of range or not a number.
        public static let invalidValue = Code(name: "invalidValue")
        /// A GPX file is not well-formed XML, or not GPX.
        public static let malformedGPX = Code(name: "malformedGPX")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of problem this is.
    public let code: Code
    /// For GPX files, the line of the problem (from 1); otherwise `nil`.
    public let line: Int?
    /// What is wrong.
    public let reason: String

    /// `line N: reason` for GPX files, the reason otherwise.
    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }

    static func invalid(_ reason: String) -> LocationError {
        LocationError(code: .invalidValue, line: nil, reason: reason)
    }

    static func gpx(line: Int, _ reason: String) -> LocationError {
        LocationError(code: .malformedGPX, line: line, reason: reason)
    }
}
