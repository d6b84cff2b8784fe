/// A route's path pattern: literal segments, `:name` parameters and a final `*` wildcard.
struct RoutePattern: Sendable {
    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)
        case rest
    }

    /// Why a pattern was refused.
    struct Fault: Error, Sendable, Equatable {
        let reason: String
    }

    private let segments: [Segment]

    /// Reads `pattern`. - Throws: ``Fault`` when it is malformed: it does not start with `/`;
    /// it holds `?` or `#`; a `*` is not the whole last segment; a `:` has no name after it;
    /// two parameters share a name; or a segment is `.` or `..`, which no path ever holds.
    init(_ pattern: String) throws(Fault) {
        guard pattern.hasPrefix("/") else { throw Fault(reason: "it does not start with /") }
        guard !pattern.contains("?"), !pattern.contains("#") else {
            throw Fault(reason: "it holds ? or #; a route matches the path alone, without its query")
        }
        let parts = pattern.split(separator: "/")
        var names: Set<String> = []
        var segments: [Segment] = []
        for (index, part) in parts.enumerated() {
            if part == "*" {
                guard index == parts.count - 1 else { throw Fault(reason: "its * is not its last segment") }
                segments.append(.rest)
            } else if part.contains("*") {
                throw Fault(reason: "its segment \(part) holds a *, which is allowed only as the whole last segment")
            } else if part == "." || part == ".." {
                throw Fault(reason: "its segment \(part) is a dot segment, which no request path holds")
            } else if part.hasPrefix(":") {
                let name = String(part.dropFirst())
                guard !name.isEmpty else { throw Fault(reason: "a : has no parameter name after it") }
                guard names.insert(name).inserted else { throw Fault(reason: "two parameters are named \(name)") }
                segments.append(.parameter(name))
            } else {
                segments.append(.literal(String(part)))
            }
        }
        self.segments = segments
    }

    /// The parameters when a path with these decoded, non-empty segments matches; `nil` when it does not.
    ///
    /// The wildcard takes one segment or more, none of which holds a `/` (an encoded slash):
    /// its value, the segments joined by `/`, then names exactly the segments it took.
    func match(segments parts: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest:
                guard index < parts.count, !parts[index...].contains(where: { $0.contains("/") }) else { return nil }
                parameters["*"] = parts[index...].joined(separator: "/")
                return parameters
            case .literal(let literal):
                guard index < parts.count, parts[index] == literal else { return nil }
            case .parameter(let name):
                guard index < parts.count else { return nil }
                parameters[name] = parts[index]
            }
        }
        return parts.count == segments.count ? parameters : nil
    }

    /// The parameters when the raw path `path` (percent-encoded, as in a request target) matches;
    /// `nil` when it does not, or when it is refused (``RequestPath/Fault``).
    func match(_ path: String) -> [String: String]? {
        guard let requestPath = try? RequestPath(Substring(path)) else { return nil }
        return match(segments: requestPath.matchedSegments)
    }
}
