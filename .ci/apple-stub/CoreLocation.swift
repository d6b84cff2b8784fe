// A stub of Apple's CoreLocation for compile checks on Linux (.ci/check-apple). It is not
// CoreLocation: no location is ever delivered; only what this package uses, with the shapes and
// the isolation (none: CLLocationManager and its delegate protocol are nonisolated) of the iOS 26
// SDK. The framework's headers import Foundation, so this re-exports it.
//
// Pages consulted (developer.apple.com/documentation/corelocation/...): CLLocationManager
// (`class CLLocationManager`, iOS 2, macOS 10.6, tvOS 9, watchOS 2, visionOS 1),
// CLLocationManagerDelegate/locationManager(_:didUpdateLocations:) (`optional func`, iOS 6),
// CLLocationManagerDelegate/locationManager(_:didChangeAuthorization:) (deprecated in iOS 14 for
// locationManagerDidChangeAuthorization(_:)), CLAuthorizationStatus (`enum`; NS_ENUM(int) in
// the header, so `Int32`), CLAccuracyAuthorization (`enum`, Sendable; NS_ENUM(NSInteger), so
// `Int`), CLLocation (`class CLLocation`), CLLocation's
// initializers (the property types: CLLocationDistance, CLLocationAccuracy, CLLocationDirection,
// CLLocationSpeed, Date).
//
// One difference the platform forces: the SDK's delegate protocol is `@objc` with optional
// requirements, which Linux's Swift has no Objective-C runtime for; here the requirements are
// ordinary ones with empty default implementations, so a conforming class compiles as it does
// against the SDK, but a misspelt delegate method (never called on Apple platforms) is not
// reported here either. What it cannot catch: availability (`startUpdatingLocation()` does not
// exist on tvOS, `requestAlwaysAuthorization()` not on tvOS or visionOS: the sources' `#if os(...)`
// branches for those are not compiled, only the iOS one); anything not declared here.
@_exported import Foundation

public typealias CLLocationDegrees = Double
public typealias CLLocationDistance = Double
public typealias CLLocationAccuracy = Double
public typealias CLLocationSpeed = Double
public typealias CLLocationDirection = Double

/// `struct CLLocationCoordinate2D`.
public struct CLLocationCoordinate2D: Sendable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees
    public init() { latitude = 0; longitude = 0 }
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// `let kCLDistanceFilterNone: CLLocationDistance`.
public let kCLDistanceFilterNone: CLLocationDistance = -1

/// `enum CLAuthorizationStatus: Int32` (an NS_ENUM of `int`).
public enum CLAuthorizationStatus: Int32, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorizedAlways = 3
    case authorizedWhenInUse = 4
}

/// `enum CLAccuracyAuthorization: Int` (iOS 14).
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
public enum CLAccuracyAuthorization: Int, Sendable {
    case fullAccuracy = 0
    case reducedAccuracy = 1
}

/// `class CLLocation: NSObject`.
open class CLLocation: NSObject {
    open var coordinate: CLLocationCoordinate2D { CLLocationCoordinate2D() }
    open var altitude: CLLocationDistance { 0 }
    open var horizontalAccuracy: CLLocationAccuracy { 0 }
    open var verticalAccuracy: CLLocationAccuracy { 0 }
    open var speed: CLLocationSpeed { 0 }
    open var course: CLLocationDirection { 0 }
    open var timestamp: Date { Date() }
}

/// `protocol CLLocationManagerDelegate: NSObjectProtocol`, nonisolated; its methods are optional
/// in the SDK (see the header).
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    /// iOS 14, macOS 11, tvOS 14, watchOS 7.
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
}

extension CLLocationManagerDelegate {
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
}

/// `class CLLocationManager: NSObject`, nonisolated.
open class CLLocationManager: NSObject {
    /// `weak var delegate: (any CLLocationManagerDelegate)?`.
    open weak var delegate: (any CLLocationManagerDelegate)?
    /// `var authorizationStatus: CLAuthorizationStatus { get }` (iOS 14).
    @available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
    open var authorizationStatus: CLAuthorizationStatus { .notDetermined }
    /// `var accuracyAuthorization: CLAccuracyAuthorization { get }` (iOS 14).
    @available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
    open var accuracyAuthorization: CLAccuracyAuthorization { .fullAccuracy }
    /// `var desiredAccuracy: CLLocationAccuracy`.
    open var desiredAccuracy: CLLocationAccuracy = 0
    /// `var distanceFilter: CLLocationDistance`.
    open var distanceFilter: CLLocationDistance = 0
    /// iOS 8, macOS 10.15, tvOS 9, watchOS 2.
    open func requestWhenInUseAuthorization() {}
    /// iOS 8, macOS 10.15, watchOS 2; unavailable on tvOS and visionOS.
    open func requestAlwaysAuthorization() {}
    /// Unavailable on tvOS.
    open func startUpdatingLocation() {}
    open func stopUpdatingLocation() {}
    /// iOS 9, macOS 10.14, tvOS 9, watchOS 2.
    open func requestLocation() {}
}
