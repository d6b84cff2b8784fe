public import MetaControllerCore

/// The controller that keeps track of where the device is.
///
/// It fills the MetaController's `locationController` slot. What it knows is
/// observable: ``currentLocation``, ``authorization`` and
/// ``accuracyAuthorization`` are ``Property`` values a screen subscribes to.
/// ``DeviceLocationController`` uses CoreLocation on Apple platforms;
/// ``SimulatedLocationController`` plays back a GPX route;
/// `FakeLocationController` in `MetaControllerTesting` is driven by hand.
///
/// ```swift
/// locationController?.currentLocation.subscribe(self, replay: true) { @MainActor map, location in
///     map.center(on: location)
/// }
/// locationController?.requestAuthorization(always: false)
/// locationController?.startUpdates()
/// ```
public protocol LocationController: AnyObject, Sendable {
    /// The latest location delivered; `nil` until the first.
    var currentLocation: Property<Location?> { get }
    /// What the user allowed.
    var authorization: Property<LocationAuthorization> { get }
    /// Whether locations are precise or approximate.
    var accuracyAuthorization: Property<LocationAccuracyAuthorization> { get }
    /// The accuracy to aim for and the distance filter; takes effect at the next ``startUpdates()``.
    var settings: LocationSettings { get set }
    /// Whether updates are being delivered.
    var isUpdating: Bool { get }

    /// Asks the user for permission: while in use, or always.
    func requestAuthorization(always: Bool)
    /// Starts delivering locations, if authorized.
    func startUpdates()
    /// Stops delivering locations.
    func stopUpdates()
}
