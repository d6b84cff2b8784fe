public import MetaController

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
    public static func withFakes() -> MetaController {
        let metaController = MetaController()
        metaController.logController = FakeLogController()
        metaController.locationController = FakeLocationController()
        metaController.apiController = FakeApiController()
        metaController.dataController = FakeDataController()
        metaController.notificationController = FakeNotificationController()
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
