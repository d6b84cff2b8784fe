import MetaController

/// The third tab: shows the notification badge, and needs a location
/// controller, which this app has not installed yet, so passing warns in debug
/// builds and the audit reports it.
@MainActor
final class SettingsScreen: @MainActor MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.notification, .location]

    var metaController: MetaController?
}
