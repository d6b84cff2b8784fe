/// The device's own location: CoreLocation on Apple platforms.
///
/// Where the platform has no location services (Linux), ``authorization`` is
/// ``LocationAuthorization/restricted`` and no location is ever delivered, so
/// the same code runs everywhere and says why nothing moves.
///
/// ```swift
/// let location = DeviceLocationController()
/// metaController.locationController = location
/// location.requestAuthorization(always: false)
/// location.startUpdates()
/// ```
public final class DeviceLocationController: LocationController, MetaControllerConsumer {
    private struct State: Sendable {
        var settings = LocationSettings()
        var isUpdating = false
    }

    /// The latest location delivered.
    public let currentLocation = Property<Location?>(nil)
    /// What the user allowed.
    public let authorization: Property<LocationAuthorization>
    /// Whether locations are precise or approximate.
    public let accuracyAuthorization = Property(LocationAccuracyAuthorization.full)

    private let state = Lock(State())
    private let reference = WeakMetaControllerReference()
    private let backend: (any PlatformLocationBackend)?

    /// Creates a controller for the device's location services.
    public init() {
        let backend = makePlatformLocationBackend()
        self.backend = backend
        authorization = Property(backend == nil ? .restricted : .notDetermined)
        backend?.attach(to: self)
    }

    /// The MetaController this controller was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// The accuracy to aim for and the distance filter; takes effect at the next ``startUpdates()``.
    public var settings: LocationSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// Whether updates were started and not stopped.
    public var isUpdating: Bool { state.withLock { $0.isUpdating } }

    /// Asks the user for permission, through the platform.
    public func requestAuthorization(always: Bool) {
        guard let backend else {
            warningLog("this platform has no location services")
            return
        }
        backend.requestAuthorization(always: always)
    }

    /// Starts location updates with the current settings.
    public func startUpdates() {
        guard let backend else {
            warningLog("this platform has no location services")
            return
        }
        let settings = state.withLock { state in
            state.isUpdating = true
            return state.settings
        }
        backend.start(settings: settings)
    }

    /// Stops location updates.
    public func stopUpdates() {
        state.withLock { $0.isUpdating = false }
        backend?.stop()
    }

    /// Called by the platform backend with each new location.
    func deliver(_ location: Location) {
        currentLocation.value = location
    }

    /// Called by the platform backend when the user's choice changes.
    func update(authorization: LocationAuthorization, accuracy: LocationAccuracyAuthorization) {
        self.authorization.value = authorization
        accuracyAuthorization.value = accuracy
    }

    /// Called by the platform backend when it fails.
    func report(_ failure: String) {
        warningLog("location services failed: \(failure)")
    }
}

/// What a platform provides to ``DeviceLocationController``.
protocol PlatformLocationBackend: Sendable {
    func attach(to controller: DeviceLocationController)
    func requestAuthorization(always: Bool)
    func start(settings: LocationSettings)
    func stop()
}

#if !canImport(CoreLocation)
/// No location services here.
func makePlatformLocationBackend() -> (any PlatformLocationBackend)? { nil }
#endif
