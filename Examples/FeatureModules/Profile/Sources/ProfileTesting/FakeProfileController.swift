// docs:begin fake
import Foundation
public import MetaControllerCore
import MetaControllerTesting
public import ProfileInterface

/// A profile controller for tests: it answers with the address it holds and records every call.
public final class FakeProfileController: ProfileController, @unchecked Sendable {
    /// A call the fake received.
    public enum Call: Equatable, Sendable {
        /// ``shippingAddress()``.
        case shippingAddress
        /// ``setShippingAddress(_:)``, with the address.
        case setShippingAddress(ShippingAddress)
    }

    // @unchecked: both are read and written under the lock only.
    private let lock = NSLock()
    private var address: ShippingAddress?
    private var recorded: [Call] = []

    /// Creates a fake that answers `address` until a call sets another.
    public init(address: ShippingAddress? = .sample) {
        self.address = address
    }

    /// Every call so far, oldest first.
    public var calls: [Call] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Records the call and answers the address the fake holds.
    public func shippingAddress() -> ShippingAddress? {
        lock.lock()
        defer { lock.unlock() }
        recorded.append(.shippingAddress)
        return address
    }

    /// Records the call and holds `address` from now on.
    public func setShippingAddress(_ address: ShippingAddress) {
        lock.lock()
        defer { lock.unlock() }
        recorded.append(.setShippingAddress(address))
        self.address = address
    }
}

/// Installs the profile feature's fake, where the app installs `ProfileAssembly`.
public struct ProfileFakes: MetaControllerAssembly {
    /// The fake the assembly installs.
    public let profile: FakeProfileController

    /// Creates the assembly.
    /// - Parameter profile: The fake to install; one holding ``ShippingAddress/sample`` by default.
    public init(_ profile: FakeProfileController = FakeProfileController()) {
        self.profile = profile
    }

    /// Puts the fake in `metaController`'s profile slot.
    public func assemble(into metaController: MetaController) {
        metaController[ProfileControllerKey.self] = profile
    }
}

extension MetaController {
    /// A MetaController for a test of code that uses the profile: the built-in slots filled
    /// with fakes (`withFakes()`), and `profile` in the profile slot.
    /// - Parameter profile: The profile's fake; one holding ``ShippingAddress/sample`` by default.
    public static func withProfileFakes(_ profile: FakeProfileController = FakeProfileController()) -> MetaController {
        let metaController = MetaController.withFakes()
        metaController.install(ProfileFakes(profile))
        return metaController
    }

    /// The profile controller, when it is a ``FakeProfileController``.
    public var fakeProfileController: FakeProfileController? { self[ProfileControllerKey.self] as? FakeProfileController }
}

extension ShippingAddress {
    /// An address for tests.
    public static let sample = ShippingAddress(name: "Ada Lovelace", street: "12 St James's Square", city: "London")
}
// docs:end fake
