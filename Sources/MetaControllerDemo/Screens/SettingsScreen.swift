import MetaController

/// The third tab: needs a notification controller, which this app has not
/// installed yet, so passing warns in debug builds and the audit reports it.
@MainActor
final class SettingsScreen: @MainActor MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.notification]

    var metaController: MetaController?
}
