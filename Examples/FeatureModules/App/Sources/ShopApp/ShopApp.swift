// docs:begin composition-root
public import MetaController
import CheckoutLive
import ProfileLive

/// The app's composition root: the one module that imports the features' live modules.
public enum ShopApp {
    /// Installs every feature into `metaController`, in order: each feature's assembly.
    public static func installFeatures(into metaController: MetaController) {
        metaController.install(ProfileAssembly(), CheckoutAssembly())
    }

    /// The app's MetaController, built once at launch: the built-in controllers, then the features.
    public static func makeMetaController() -> MetaController {
        let metaController = MetaController()
        metaController.logController = StandardLogController()
        metaController.dataController = MemoryDataController()   // a FileDataController in a real app
        installFeatures(into: metaController)
        return metaController
    }
}
// docs:end composition-root
