/// An HTTP request method, such as `GET` or `POST`.
///
/// The common methods are static constants; any other is written as a string
/// literal. Methods compare by their upper-case name.
///
/// ```swift
/// let request = ApiRequest(.post, "/items")
/// let purge: HTTPMethod = "PURGE"
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method's name in upper case, as it goes on the request line.
    public let rawValue: String

    /// Creates a method from its name; the name is upper-cased.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// Creates a method from a string literal, upper-cased.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The method's name.
    public var description: String { rawValue }

    /// Whether sending the request twice has the same effect as sending it once
    /// (RFC 9110, section 9.2.2): `GET`, `HEAD`, `OPTIONS`, `TRACE`, `PUT`, `DELETE`.
    ///
    /// Only idempotent requests are retried automatically.
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE": true
        default: false
        }
    }

    /// `GET`: read a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: read a resource's headers only.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: create or submit.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: ask what a resource allows.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
}
