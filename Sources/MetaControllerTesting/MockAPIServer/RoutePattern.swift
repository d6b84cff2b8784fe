/// A route's path pattern: literal segments, `:name` parameters and a final `*` wildcard.
struct RoutePattern: Sendable {
    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)
        case rest
    }

    private let segments: [Segment]

    init(_ pattern: String) {
        segments = pattern.split(separator: "/").enumerated().map { index, part in
            if part == "*" { return .rest }
            if part.hasPrefix(":"), part.count > 1 { return .parameter(String(part.dropFirst())) }
            return .literal(String(part))
        }
    }

    /// The parameters when `path` matches; `nil` when it does not.
    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest:
                guard index < parts.count else { return nil }
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
}
