public import MetaController

/// A location controller for tests: it does nothing on its own and lives in no network, file or device.
///
/// It adopts ``MetaController/MetaControllerConsumer`` and holds its
/// MetaController weakly, as real controllers do, so tests can check the push
/// on set and that a torn-down graph is freed.
///
/// ```swift
/// let metaController = MetaController()
/// let fake = FakeLocationController()
/// metaController.locationController = fake
/// #expect(fake.metaController === metaController)
/// ```
public final class FakeLocationController: LocationController, MetaControllerConsumer {
    private let reference = WeakMetaControllerReference()

    /// Creates a fake with no MetaController.
    public init() {}

    /// The MetaController this fake was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }
}
