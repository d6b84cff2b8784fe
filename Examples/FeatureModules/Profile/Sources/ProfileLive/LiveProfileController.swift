// docs:begin live
public import MetaControllerCore
import MetaControllerStorage
public import ProfileInterface

/// The profile controller the app ships. It keeps the address in the app's data controller,
/// which it reaches through the MetaController its assembly puts it in.
public final class LiveProfileController: ProfileController, MetaControllerConsumer {
    private static let addressKey = "profile.shippingAddress"
    private let reference = WeakMetaControllerReference()

    /// The MetaController whose slot holds the controller, held weakly; handed over when it is put there.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// Creates the controller.
    public init() {}

    /// The address saved in the data controller; `nil` when there is none, or no data controller.
    public func shippingAddress() throws -> ShippingAddress? {
        try dataController?.fetch(ShippingAddress.self, forKey: Self.addressKey)
    }

    /// Saves `address` in the data controller.
    public func setShippingAddress(_ address: ShippingAddress) throws {
        try dataController?.save(address, forKey: Self.addressKey)
    }
}

/// Installs the profile feature: its live controller, in the profile slot.
public struct ProfileAssembly: MetaControllerAssembly {
    /// Creates the assembly.
    public init() {}

    /// Puts a ``LiveProfileController`` in `metaController`'s profile slot, which hands it `metaController`.
    public func assemble(into metaController: MetaController) {
        metaController[ProfileControllerKey.self] = LiveProfileController()
    }
}
// docs:end live
