import MetaController

/// The third tab: follows the device's location, and reads the notification badge.
@MainActor
final class SettingsScreen: @MainActor MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.notification, .location]

    var metaController: MetaController?
    private var start: Location?

    func viewDidAppear() {
        locationController?.currentLocation.subscribe(self) { @MainActor screen, location in
            if let location { screen.moved(to: location) }
        }
    }

    private func moved(to location: Location) {
        let start = self.start ?? location
        self.start = start
        let walked = Int(start.distance(to: location).rounded())
        infoLog("at \(location.latitude), \(location.longitude): \(walked) m from the start")
    }
}
