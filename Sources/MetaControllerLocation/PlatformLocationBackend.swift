/// What a platform provides to ``DeviceLocationController``: CoreLocation on
/// Apple platforms (`DeviceLocationController+CoreLocation.swift`), nothing on
/// Linux. The backend only translates; what to ask for and when is decided by
/// the controller, in code the Linux tests cover.
protocol PlatformLocationBackend: Sendable {
    /// What this platform's location services can do.
    var capabilities: LocationCapabilities { get }
    /// Reports authorization and locations to `controller` from now on.
    func attach(to controller: DeviceLocationController)
    /// Asks the user; `always` is passed only where ``LocationCapabilities/alwaysAuthorization``.
    func requestAuthorization(always: Bool)
    /// Starts continuous updates; called only where ``LocationCapabilities/continuousUpdates``.
    func start(settings: LocationSettings)
    /// Asks for one location, delivered once it is known.
    func requestLocation(settings: LocationSettings)
    /// Stops updates and any request under way.
    func stop()
}

/// What a platform's location services can do, which differs between Apple's platforms.
struct LocationCapabilities: Sendable, Equatable {
    /// Whether locations can be streamed (CoreLocation's `startUpdatingLocation()`,
    /// unavailable on tvOS, which answers one request at a time).
    var continuousUpdates: Bool
    /// Whether the user can be asked for Always authorization (not on tvOS or visionOS).
    var alwaysAuthorization: Bool
}

#if !canImport(CoreLocation)
/// No location services here.
func makePlatformLocationBackend() -> (any PlatformLocationBackend)? { nil }
#endif
