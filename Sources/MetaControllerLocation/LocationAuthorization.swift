/// What the user allowed the app to know of its location.
///
/// The same values as CoreLocation's, on every platform.
public enum LocationAuthorization: String, Sendable, Equatable, Codable, CaseIterable {
    /// The user has not been asked yet.
    case notDetermined
    /// The app may not ask: parental controls or a device policy.
    case restricted
    /// The user said no.
    case denied
    /// While the app is in use.
    case authorizedWhenInUse
    /// Always, in the background too.
    case authorizedAlways

    /// Whether updates may be delivered.
    public var allowsUpdates: Bool { self == .authorizedWhenInUse || self == .authorizedAlways }
}

/// How precise the locations the user allows are.
public enum LocationAccuracyAuthorization: String, Sendable, Equatable, Codable, CaseIterable {
    /// Precise locations.
    case full
    /// Approximate locations, a few kilometers wide.
    case reduced
}

/// How a location controller should measure: the accuracy it aims for, the
/// distance the device must move before a new location is delivered, and how
/// often to ask again where the platform only answers one request at a time.
///
/// ```swift
/// locationController.settings = LocationSettings(desiredAccuracy: 10, distanceFilter: 25)
/// ```
public struct LocationSettings: Sendable, Equatable {
    /// The accuracy to aim for, in meters; smaller costs more power.
    public var desiredAccuracy: Double
    /// How far the device must move, in meters, before a new location is delivered; 0 delivers every one.
    public var distanceFilter: Double
    /// Where the platform has no continuous updates (tvOS), how long
    /// ``DeviceLocationController`` waits after asking for one location before
    /// it asks again while updates run. Other platforms stream locations and
    /// ignore it.
    public var refreshInterval: Duration

    /// Creates settings: 100 meters of accuracy, no distance filter and a refresh every minute by default.
    ///
    /// A non-finite accuracy or distance becomes the default, a negative one
    /// zero, and a refresh interval under one second one second.
    public init(desiredAccuracy: Double = 100, distanceFilter: Double = 0, refreshInterval: Duration = .seconds(60)) {
        self.desiredAccuracy = max(0, desiredAccuracy.isFinite ? desiredAccuracy : 100)
        self.distanceFilter = max(0, distanceFilter.isFinite ? distanceFilter : 0)
        self.refreshInterval = max(.seconds(1), refreshInterval)
    }
}
