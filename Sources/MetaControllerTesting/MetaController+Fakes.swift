public import MetaControllerCore
import MetaControllerNetworking
import MetaControllerStorage
import MetaControllerLocation
import MetaControllerNotifications

extension MetaController {
    /// A MetaController with every built-in slot filled by a new fake, in one line.
    ///
    /// ```swift
    /// let metaController = MetaController.withFakes()
    /// screen.metaController = metaController
    /// screen.refresh()
    /// #expect(metaController.fakeLogController?.messages == ["refreshing"])
    /// ```
    ///
    /// Swap one fake for another controller by setting its slot, or start from
    /// the production setup instead with `MetaController.init(parent:)`.
    ///
    /// An app's own slots are filled too, when their keys say how: the first
    /// read of an empty slot, here or in a child, puts the key's
    /// `MetaControllerKey.testValue` in it (see "Test and preview values" in
    /// `MetaControllerKey`). A slot whose key declares none stays empty.
    ///
    /// ```swift
    /// let metaController = MetaController.withFakes()
    /// metaController.favoritesController is FakeFavoritesController   // true: FavoritesControllerKey.testValue
    /// ```
    ///
    /// The built-in fakes are there at once; a key's value is made when its slot is first
    /// read. What that value listens to on the bus (`signals`) when it
    /// arrives it hears from this MetaController's first line: its bus keeps the last 10,000
    /// dispatches, and a listener the value adds while it is handed the MetaController first
    /// hears those of its signal, in order. Listeners added at other times hear only what comes after.
    public static func withFakes() -> MetaController {
        withFakes(declaredValues: .test)
    }

    /// A MetaController of fakes that fills other empty slots with their keys' `declaredValues`.
    private static func withFakes(declaredValues: DeclaredValues) -> MetaController {
        let metaController = MetaController(declaredValues: declaredValues)
        metaController.logController = FakeLogController()
        metaController.locationController = FakeLocationController()
        metaController.apiController = FakeApiController()
        metaController.dataController = FakeDataController()
        metaController.notificationController = FakeNotificationController()
        return metaController
    }

    /// A MetaController for SwiftUI previews: every built-in slot filled by a
    /// new fake, as ``withFakes()`` does, then `configure` run on it.
    ///
    /// A preview builds its MetaController here, in one expression, without the
    /// app's launch code: canned API answers, a simulated location, an app's own
    /// fakes in custom slots.
    ///
    /// ```swift
    /// #Preview {
    ///     FeedView().metaController(.preview { metaController in
    ///         metaController.fakeApiController?.respond(to: .get, "/feed", encoding: FeedItem.samples)
    ///         metaController.fakeLocationController?.simulate(latitude: 48.8566, longitude: 2.3522)
    ///         metaController[FavoritesControllerKey.self] = FakeFavoritesController()
    ///     })
    /// }
    /// ```
    ///
    /// An app's own slots are filled when first read empty with their keys'
    /// `MetaControllerKey.previewValue` (by default their `testValue`), so
    /// `configure` sets only what this preview needs differently. The fakes are there at
    /// once; a key's value, made later, still hears what was dispatched on the bus since
    /// this MetaController was made (in `configure` too), as ``withFakes()`` says.
    ///
    /// From iOS 18, macOS 15, tvOS 18, watchOS 11 and visionOS 2 the preview
    /// trait `.metaController { … }` does the same as a trait of `#Preview`.
    ///
    /// An app target may link MetaControllerTesting for this: it depends on
    /// nothing but MetaController and Foundation (neither XCTest nor Swift
    /// Testing). See the SwiftUI article for what that costs a release build.
    ///
    /// - Parameter configure: Changes the MetaController before it is returned.
    /// - Returns: The MetaController.
    public static func preview(_ configure: (MetaController) -> Void = { _ in }) -> MetaController {
        let metaController = withFakes(declaredValues: .preview)
        configure(metaController)
        return metaController
    }

    /// The log controller, when it is a ``FakeLogController``.
    public var fakeLogController: FakeLogController? { logController as? FakeLogController }

    /// The location controller, when it is a ``FakeLocationController``.
    public var fakeLocationController: FakeLocationController? { locationController as? FakeLocationController }

    /// The API controller, when it is a ``FakeApiController``.
    public var fakeApiController: FakeApiController? { apiController as? FakeApiController }

    /// The data controller, when it is a ``FakeDataController``.
    public var fakeDataController: FakeDataController? { dataController as? FakeDataController }

    /// The notification controller, when it is a ``FakeNotificationController``.
    public var fakeNotificationController: FakeNotificationController? {
        notificationController as? FakeNotificationController
    }
}
