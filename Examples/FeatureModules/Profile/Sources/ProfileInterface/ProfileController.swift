// The profile feature's interface: all that other features know of it. It depends on the
// MetaControllerCore product alone, so importing it builds neither the profile's
// implementation nor any controller family.
// docs:begin interface
public import MetaControllerCore

/// Where the signed-in user's parcels go.
public struct ShippingAddress: Codable, Equatable, Sendable {
    /// Who receives the parcel.
    public var name: String
    /// The street and number.
    public var street: String
    /// The town or city.
    public var city: String

    /// Creates an address.
    public init(name: String, street: String, city: String) {
        self.name = name
        self.street = street
        self.city = city
    }

    /// The address on one line, as a parcel's label shows it.
    public var label: String { "\(name), \(street), \(city)" }
}

/// The profile feature's controller: the signed-in user's details, for any feature that needs them.
public protocol ProfileController: AnyObject, Sendable {
    /// The user's shipping address; `nil` until one is set.
    func shippingAddress() throws -> ShippingAddress?
    /// Replaces the user's shipping address.
    func setShippingAddress(_ address: ShippingAddress) throws
}

/// The slot that holds the profile controller.
public enum ProfileControllerKey: MetaControllerKey {
    /// What the slot holds.
    public typealias Value = any ProfileController
}

extension MetaControllerReader {
    /// The profile controller; `nil` when there is no MetaController or the slot is empty.
    public var profileController: (any ProfileController)? { self[ProfileControllerKey.self] }
}
// docs:end interface
