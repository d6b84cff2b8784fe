public import MetaControllerCore

/// The device's own location: CoreLocation on Apple platforms.
///
/// What it does depends on what the platform offers; the public API is the
/// same everywhere:
///
/// - iOS, iPadOS, macOS, watchOS and visionOS stream locations while updates
///   run, filtered by the settings' distance.
/// - tvOS answers one request at a time, so while updates run the controller
///   asks for one location, waits the settings' ``LocationSettings/refreshInterval``
///   (a minute by default) and asks again. Locations closer than the distance
///   filter to the last one delivered are skipped.
/// - tvOS and visionOS offer only when-in-use authorization: asking for
///   Always asks for when-in-use instead and logs (info) that it did.
/// - Where the platform has no location services (Linux), ``authorization``
///   is ``LocationAuthorization/restricted`` and no location is ever
///   delivered, so the same code runs everywhere and says why nothing moves.
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
        var refresh: Task<Void, Never>?
        var lastDelivered: Location?
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
    private let sleep: @Sendable (Duration) async throws -> Void

    /// Creates a controller for the device's location services.
    public convenience init() {
        self.init(backend: makePlatformLocationBackend(), sleep: { try await Task.sleep(for: $0) })
    }

    /// Creates a controller over `backend`, waiting between one-shot requests with `sleep`.
    init(backend: (any PlatformLocationBackend)?, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.backend = backend
        self.sleep = sleep
        authorization = Property(backend == nil ? .restricted : .notDetermined)
        backend?.attach(to: self)
    }

    deinit {
        state.withLock { $0.refresh }?.cancel()
    }

    /// The MetaController this controller was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// The accuracy to aim for, the distance filter and the refresh interval; they take effect at the next ``startUpdates()``.
    public var settings: LocationSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// Whether updates were started and not stopped.
    public var isUpdating: Bool { state.withLock { $0.isUpdating } }

    /// Asks the user for permission, through the platform.
    ///
    /// Where the platform offers no Always authorization (tvOS, visionOS),
    /// `always: true` asks for when-in-use and logs that at the info level.
    public func requestAuthorization(always: Bool) {
        guard let backend else {
            warningLog("this platform has no location services")
            return
        }
        if always && !backend.capabilities.alwaysAuthorization {
            infoLog("this platform offers no Always location authorization; asking for when-in-use")
        }
        backend.requestAuthorization(always: always && backend.capabilities.alwaysAuthorization)
    }

    /// Starts location updates with the current settings; starting again restarts them with the settings of now.
    public func startUpdates() {
        guard let backend else {
            warningLog("this platform has no location services")
            return
        }
        let continuous = backend.capabilities.continuousUpdates
        let (settings, previous) = state.withLock { state in
            let settings = state.settings, previous = state.refresh
            state.isUpdating = true
            state.lastDelivered = nil
            state.refresh =
                continuous
                ? nil
                : Task { [sleep] in
                    await Self.refresh(backend, settings: settings, sleep: sleep)
                }
            return (settings, previous)
        }
        previous?.cancel()
        if continuous {
            backend.start(settings: settings)
        }
    }

    /// Stops location updates and any request under way.
    public func stopUpdates() {
        let refresh = state.withLock { state in
            defer {
                state.isUpdating = false
                state.refresh = nil
            }
            return state.refresh
        }
        refresh?.cancel()
        backend?.stop()
    }

    /// Asks `backend` for one location, then again after each `refreshInterval`, until cancelled.
    private static func refresh(
        _ backend: any PlatformLocationBackend, settings: LocationSettings,
        sleep: @Sendable (Duration) async throws -> Void
    ) async {
        while !Task.isCancelled {
            backend.requestLocation(settings: settings)
            do {
                try await sleep(settings.refreshInterval)
            } catch {
                return
            }
        }
    }

    /// Waits for the one-shot refresh loop to end; for tests.
    func refreshEnded() async {
        await state.withLock { $0.refresh }?.value
    }

    /// Called by the platform backend with each new location.
    ///
    /// Where the platform answers one request at a time, the distance filter
    /// is applied here; streaming platforms apply it themselves.
    func deliver(_ location: Location) {
        let continuous = backend?.capabilities.continuousUpdates ?? true
        let accepted = state.withLock { state in
            if !continuous, let last = state.lastDelivered, state.settings.distanceFilter > 0,
                last.distance(to: location) < state.settings.distanceFilter
            {
                return false
            }
            state.lastDelivered = location
            return true
        }
        if accepted {
            currentLocation.value = location
        }
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
