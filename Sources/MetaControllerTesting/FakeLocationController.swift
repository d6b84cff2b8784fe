public import MetaControllerCore
public import MetaControllerLocation

/// A location controller for tests, driven by hand: the test sets locations
/// and authorization, and asserts on what the code under test asked for.
///
/// ```swift
/// let metaController = MetaController.withFakes()
/// let location = try #require(metaController.fakeLocationController)
/// screen.metaController = metaController
/// screen.viewDidAppear()
/// #expect(location.startCount == 1)
/// location.simulate(try Location(latitude: 48.8566, longitude: 2.3522))
/// #expect(screen.centerLabel == "Paris")
/// ```
public final class FakeLocationController: LocationController, MetaControllerConsumer {
    private struct State: Sendable {
        var settings = LocationSettings()
        var isUpdating = false
        var startCount = 0
        var stopCount = 0
        var authorizationRequests: [Bool] = []
    }

    /// The latest location set by ``simulate(_:)``.
    public let currentLocation = Property<Location?>(nil)
    /// The authorization the test set; `authorizedWhenInUse` to begin with.
    public let authorization = Property(LocationAuthorization.authorizedWhenInUse)
    /// The accuracy the test set; full to begin with.
    public let accuracyAuthorization = Property(LocationAccuracyAuthorization.full)

    private let state = Lock(State())
    private let reference = WeakMetaControllerReference()

    /// Creates a fake with no location.
    public init() {}

    /// The MetaController this fake was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// The settings the code under test chose.
    public var settings: LocationSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// Whether updates were started and not stopped.
    public var isUpdating: Bool { state.withLock { $0.isUpdating } }

    /// How many times ``startUpdates()`` was called.
    public var startCount: Int { state.withLock { $0.startCount } }

    /// How many times ``stopUpdates()`` was called.
    public var stopCount: Int { state.withLock { $0.stopCount } }

    /// The `always` argument of each ``requestAuthorization(always:)``, in order.
    public var authorizationRequests: [Bool] { state.withLock { $0.authorizationRequests } }

    /// Records the request; the authorization changes only when the test sets it.
    public func requestAuthorization(always: Bool) {
        state.withLock { $0.authorizationRequests.append(always) }
    }

    /// Records the start.
    public func startUpdates() {
        state.withLock { state in
            state.startCount += 1
            state.isUpdating = true
        }
    }

    /// Records the stop.
    public func stopUpdates() {
        state.withLock { state in
            state.stopCount += 1
            state.isUpdating = false
        }
    }

    /// Makes `location` the current location, as a device would.
    public func simulate(_ location: Location) {
        currentLocation.value = location
    }

    /// Makes the place at `latitude` and `longitude` the current location,
    /// without throwing: the call for previews, whose builders cannot `try`.
    ///
    /// ```swift
    /// metaController.fakeLocationController?.simulate(latitude: 48.8566, longitude: 2.3522)
    /// ```
    ///
    /// Coordinates that make no `Location` (a latitude past 90, say) leave the
    /// current location as it was, and the error naming them is logged through
    /// this fake's MetaController.
    ///
    /// - Parameters:
    ///   - latitude: Degrees north, from -90 to 90.
    ///   - longitude: Degrees east, from -180 to 180.
    /// - Returns: Whether the location was set.
    @discardableResult
    public func simulate(latitude: Double, longitude: Double) -> Bool {
        do {
            simulate(try Location(latitude: latitude, longitude: longitude))
            return true
        } catch {
            errorLog("FakeLocationController.simulate(latitude:longitude:): \(error)")
            return false
        }
    }
}
