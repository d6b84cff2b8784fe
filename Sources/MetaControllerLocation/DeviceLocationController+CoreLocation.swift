import MetaControllerCore
#if canImport(CoreLocation)
import CoreLocation

// CoreLocation as a `PlatformLocationBackend`. Only translation lives here: what
// to ask for and when is decided by `DeviceLocationController`, and raw values
// become the package's types in `CoreLocationValues`, both tested on Linux.
//
// Availability (all at or below the package's minimums; see Docs/PlatformSupport.md):
// `authorizationStatus`, `accuracyAuthorization` and `locationManagerDidChangeAuthorization(_:)`
// need iOS 14, macOS 11, tvOS 14, watchOS 7. `startUpdatingLocation()` does not exist
// on tvOS; `requestAlwaysAuthorization()` does not exist on tvOS or visionOS.

/// CoreLocation on Apple platforms.
func makePlatformLocationBackend() -> (any PlatformLocationBackend)? {
    CoreLocationBackend()
}

/// Hands every call, in order, to a location manager on the main actor, where CoreLocation wants it.
private final class CoreLocationBackend: PlatformLocationBackend {
    private enum Command: Sendable {
        case attach(DeviceLocationController)
        case requestAuthorization(always: Bool)
        case start(LocationSettings)
        case requestLocation(LocationSettings)
        case stop
    }

    #if os(tvOS)
    let capabilities = LocationCapabilities(continuousUpdates: false, alwaysAuthorization: false)
    #elseif os(visionOS)
    let capabilities = LocationCapabilities(continuousUpdates: true, alwaysAuthorization: false)
    #else
    let capabilities = LocationCapabilities(continuousUpdates: true, alwaysAuthorization: true)
    #endif

    private let commands: AsyncStream<Command>.Continuation

    init() {
        let (stream, commands) = AsyncStream<Command>.makeStream()
        self.commands = commands
        // One task takes the commands in the order they were given; it ends,
        // and releases the manager, when this backend goes.
        Task { @MainActor in
            let delegate = CoreLocationDelegate()
            for await command in stream {
                switch command {
                case .attach(let controller): delegate.attach(controller)
                case .requestAuthorization(let always): delegate.requestAuthorization(always: always)
                case .start(let settings): delegate.start(settings)
                case .requestLocation(let settings): delegate.requestLocation(settings)
                case .stop: delegate.stop()
                }
            }
        }
    }

    deinit {
        commands.finish()
    }

    func attach(to controller: DeviceLocationController) { commands.yield(.attach(controller)) }
    func requestAuthorization(always: Bool) { commands.yield(.requestAuthorization(always: always)) }
    func start(settings: LocationSettings) { commands.yield(.start(settings)) }
    func requestLocation(settings: LocationSettings) { commands.yield(.requestLocation(settings)) }
    func stop() { commands.yield(.stop) }
}

@MainActor
private final class CoreLocationDelegate: NSObject, @preconcurrency CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private weak var controller: DeviceLocationController?

    override init() {
        super.init()
        manager.delegate = self
    }

    func attach(_ controller: DeviceLocationController) {
        self.controller = controller
        report(manager)
    }

    func requestAuthorization(always: Bool) {
        #if os(tvOS) || os(visionOS)
        manager.requestWhenInUseAuthorization()   // `always` is never asked for here
        #else
        if always { manager.requestAlwaysAuthorization() } else { manager.requestWhenInUseAuthorization() }
        #endif
    }

    func start(_ settings: LocationSettings) {
        apply(settings)
        #if os(tvOS)
        manager.requestLocation()   // never called here: tvOS is refreshed with requestLocation
        #else
        manager.startUpdatingLocation()
        #endif
    }

    func requestLocation(_ settings: LocationSettings) {
        apply(settings)
        manager.requestLocation()
    }

    func stop() {
        manager.stopUpdatingLocation()
    }

    private func apply(_ settings: LocationSettings) {
        manager.desiredAccuracy = settings.desiredAccuracy
        manager.distanceFilter = settings.distanceFilter > 0 ? settings.distanceFilter : kCLDistanceFilterNone
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        report(manager)
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations {
            guard
                let converted = CoreLocationValues.location(
                    latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                    altitude: location.altitude,
                    horizontalAccuracy: location.horizontalAccuracy, verticalAccuracy: location.verticalAccuracy,
                    speed: location.speed, course: location.course, timestamp: location.timestamp)
            else { continue }
            controller?.deliver(converted)
        }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        controller?.report(error.localizedDescription)
    }

    private func report(_ manager: CLLocationManager) {
        controller?.update(
            authorization: CoreLocationValues.authorization(status: Int(manager.authorizationStatus.rawValue)),
            accuracy: CoreLocationValues.accuracy(manager.accuracyAuthorization.rawValue))
    }
}
#endif
