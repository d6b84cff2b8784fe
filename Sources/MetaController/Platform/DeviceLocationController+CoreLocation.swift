#if canImport(CoreLocation)
import CoreLocation

/// CoreLocation on Apple platforms.
func makePlatformLocationBackend() -> (any PlatformLocationBackend)? {
    CoreLocationBackend()
}

/// Hands every call to a location manager on the main actor, where CoreLocation wants it.
private struct CoreLocationBackend: PlatformLocationBackend {
    private let delegate = Task { @MainActor in CoreLocationDelegate() }

    func attach(to controller: DeviceLocationController) {
        Task { @MainActor in await delegate.value.attach(controller) }
    }

    func requestAuthorization(always: Bool) {
        Task { @MainActor in await delegate.value.requestAuthorization(always: always) }
    }

    func start(settings: LocationSettings) {
        Task { @MainActor in await delegate.value.start(settings) }
    }

    func stop() {
        Task { @MainActor in await delegate.value.stop() }
    }
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
        #if os(macOS)
        manager.requestAlwaysAuthorization()
        #else
        if always { manager.requestAlwaysAuthorization() } else { manager.requestWhenInUseAuthorization() }
        #endif
    }

    func start(_ settings: LocationSettings) {
        manager.desiredAccuracy = settings.desiredAccuracy
        manager.distanceFilter = settings.distanceFilter > 0 ? settings.distanceFilter : kCLDistanceFilterNone
        manager.startUpdatingLocation()
    }

    func stop() {
        manager.stopUpdatingLocation()
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        report(manager)
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations {
            guard let converted = try? Location(
                latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                altitude: location.verticalAccuracy >= 0 ? location.altitude : nil,
                horizontalAccuracy: location.horizontalAccuracy >= 0 ? location.horizontalAccuracy : nil,
                verticalAccuracy: location.verticalAccuracy >= 0 ? location.verticalAccuracy : nil,
                speed: location.speed >= 0 ? location.speed : nil,
                course: location.course >= 0 && location.course < 360 ? location.course : nil,
                timestamp: location.timestamp)
            else { continue }
            controller?.deliver(converted)
        }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        controller?.report(error.localizedDescription)
    }

    private func report(_ manager: CLLocationManager) {
        let authorization: LocationAuthorization
        switch manager.authorizationStatus {
        case .notDetermined: authorization = .notDetermined
        case .restricted: authorization = .restricted
        case .denied: authorization = .denied
        case .authorizedAlways: authorization = .authorizedAlways
        default: authorization = .authorizedWhenInUse
        }
        let accuracy: LocationAccuracyAuthorization = manager.accuracyAuthorization == .fullAccuracy ? .full : .reduced
        controller?.update(authorization: authorization, accuracy: accuracy)
    }
}
#endif
