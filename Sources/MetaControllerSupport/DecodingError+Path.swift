import Foundation

extension DecodingError {
    /// The key path that failed, such as `items[2].title`; empty for the top level.
    ///
    /// A missing key is named with the key itself, so the path points at what is missing.
    package var keyPath: String {
        switch self {
        case .keyNotFound(let key, let context):
            Self.render(context.codingPath + [key])
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            Self.render(context.codingPath)
        @unknown default:
            ""
        }
    }

    /// What went wrong, without the path: `expected String, found a number`.
    package var reason: String {
        switch self {
        case .keyNotFound:
            "the key is missing"
        case .typeMismatch(let type, let context):
            "expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, _):
            "expected \(type), found null"
        case .dataCorrupted(let context):
            context.underlyingError.map { "\(context.debugDescription) (\($0.localizedDescription))" }
                ?? context.debugDescription
        @unknown default:
            String(describing: self)
        }
    }

    package static func render(_ path: [any CodingKey]) -> String {
        var rendered = ""
        for key in path {
            if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
                rendered += "[\(index)]"
            } else {
                if !rendered.isEmpty { rendered += "." }
                rendered += key.stringValue
            }
        }
        return rendered
    }
}
