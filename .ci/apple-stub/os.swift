// A stub of Apple's `os` module for compile checks on Linux (.ci/check-apple). It is not the
// unified logging system: nothing is logged, nothing is locked, bodies are `fatalError()` or
// empty. It declares what this package uses, with the shapes and isolation of the iOS 26 SDK.
//
// Pages consulted (developer.apple.com/documentation/os/...): Logger (a struct, iOS 14, macOS 11,
// tvOS 14, watchOS 7), Logger/init(subsystem:category:), Logger/log(level:_:),
// OSLogInterpolation/appendInterpolation(_:align:privacy:) (the String overload), OSLogPrivacy,
// OSLogType, os_unfair_lock, os_unfair_lock_t, os_unfair_lock_lock, os_unfair_lock_unlock
// (iOS 10, macOS 10.12, tvOS 10, watchOS 3, visionOS 1). None is actor-isolated. `Logger` is
// Sendable in the SDK: its page prints the struct without conformances, so that is from
// swiftlang/swift-foundation pull request 2121 ("`Logger` which is already `Sendable`"), not a page.
//
// What it cannot catch: the SDK requires an OSLogMessage to be a string literal with
// interpolations at the call (the compiler rewrites it); here any `OSLogMessage` value compiles.
// Formatting options other than `privacy:` are not declared.

// MARK: - os/lock.h

/// `struct os_unfair_lock_s { uint32_t _os_unfair_lock_opaque; }`, imported as a Swift struct.
@available(iOS 10, macOS 10.12, tvOS 10, watchOS 3, *)
public struct os_unfair_lock_s: Sendable {
    public var _os_unfair_lock_opaque: UInt32
    public init() { _os_unfair_lock_opaque = 0 }
    public init(_os_unfair_lock_opaque: UInt32) { self._os_unfair_lock_opaque = _os_unfair_lock_opaque }
}
@available(iOS 10, macOS 10.12, tvOS 10, watchOS 3, *)
public typealias os_unfair_lock = os_unfair_lock_s
@available(iOS 10, macOS 10.12, tvOS 10, watchOS 3, *)
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock_s>

/// `func os_unfair_lock_lock(_ lock: os_unfair_lock_t)`.
@available(iOS 10, macOS 10.12, tvOS 10, watchOS 3, *)
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) {}
/// `func os_unfair_lock_unlock(_ lock: os_unfair_lock_t)`.
@available(iOS 10, macOS 10.12, tvOS 10, watchOS 3, *)
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) {}

// MARK: - Logger

/// `struct OSLogType`: the C `os_log_type_t`, with the overlay's static levels.
public struct OSLogType: Equatable, RawRepresentable, Sendable {
    public var rawValue: UInt8
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let `default` = OSLogType(0x00)
    public static let info = OSLogType(0x01)
    public static let debug = OSLogType(0x02)
    public static let error = OSLogType(0x10)
    public static let fault = OSLogType(0x11)
}

/// `struct OSLogPrivacy`: how an interpolated value is redacted.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
public struct OSLogPrivacy: Equatable {
    public static var `public`: OSLogPrivacy { OSLogPrivacy() }
    public static var `private`: OSLogPrivacy { OSLogPrivacy() }
    public static var sensitive: OSLogPrivacy { OSLogPrivacy() }
    public static var auto: OSLogPrivacy { OSLogPrivacy() }
}

/// `struct OSLogStringAlignment`: the column an interpolated string takes.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
public struct OSLogStringAlignment {
    public static var none: OSLogStringAlignment { OSLogStringAlignment() }
}

/// `@frozen struct OSLogInterpolation: StringInterpolationProtocol`.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
@frozen
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    /// `mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String,
    /// align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto)`.
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {}
}

/// `struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral`.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public init(stringInterpolation: OSLogInterpolation) {}
    public init(stringLiteral value: String) {}
}

/// `struct Logger`.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
public struct Logger: Sendable {
    /// `init(subsystem: String, category: String)`.
    public init(subsystem: String, category: String) {}
    /// `func log(level: OSLogType, _ message: OSLogMessage)`.
    public func log(level: OSLogType, _ message: OSLogMessage) {}
}
