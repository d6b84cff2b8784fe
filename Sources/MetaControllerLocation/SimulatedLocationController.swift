public import MetaControllerCore
import Foundation

/// A ``LocationController`` that plays back a GPX route, at real speed or faster.
///
/// Each point becomes the ``currentLocation`` in turn. The wait between two
/// points is the difference of their times divided by `speed`; between points
/// without times it is one second divided by `speed`. Each wait is rounded to
/// the nanosecond and capped at 10⁹ seconds (about 31.7 years), so no speed and
/// no times overflow a clock. The settings' distance filter skips points too
/// close to the last one delivered.
///
/// ```swift
/// let route = try GPXRoute(contentsOf: routeURL)
/// let location = SimulatedLocationController(route: route, speed: 60)   // a minute per second
/// metaController.locationController = location
/// location.startUpdates()
/// ```
///
/// Tests pass a `sleep` that records the waits instead of waiting, and
/// ``play(isolation:)`` the route to the end.
public final class SimulatedLocationController: LocationController, MetaControllerConsumer {
    private struct State: Sendable {
        var settings = LocationSettings()
        var playback: Task<Void, Never>?
    }

    /// The route played back.
    public let route: GPXRoute
    /// How many times faster than real time the route plays; 1 is real time.
    public let speed: Double
    /// The latest location delivered.
    public let currentLocation = Property<Location?>(nil)
    /// What the simulated user allowed.
    public let authorization: Property<LocationAuthorization>
    /// Always full: a simulation has nothing to hide.
    public let accuracyAuthorization = Property(LocationAccuracyAuthorization.full)

    private let sleep: @Sendable (Duration) async throws -> Void
    private let state = Lock(State())
    private let reference = WeakMetaControllerReference()

    /// Creates a simulator for `route`.
    ///
    /// - Parameters:
    ///   - route: The points to play back.
    ///   - speed: How many times faster than real time; a value that is not a finite
    ///     number above 0 (0, negative, NaN, infinite) counts as 1.
    ///   - authorization: What the simulated user allowed; while in use by default.
    ///   - sleep: Waits between points; `Task.sleep` by default.
    public init(
        route: GPXRoute, speed: Double = 1, authorization: LocationAuthorization = .authorizedWhenInUse,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.route = route
        self.speed = speed > 0 && speed.isFinite ? speed : 1
        self.authorization = Property(authorization)
        self.sleep = sleep
    }

    /// The MetaController this controller was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// The accuracy to aim for and the distance filter.
    public var settings: LocationSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// Whether a playback started by ``startUpdates()`` is under way.
    public var isUpdating: Bool { state.withLock { $0.playback != nil } }

    /// Grants what is asked, as a user who always says yes; a denied or restricted simulator stays so.
    public func requestAuthorization(always: Bool) {
        guard authorization.value == .notDetermined || (always && authorization.value == .authorizedWhenInUse) else { return }
        authorization.value = always ? .authorizedAlways : .authorizedWhenInUse
    }

    /// Starts playing the route in a task, if authorized and not already playing.
    public func startUpdates() {
        guard authorization.value.allowsUpdates else {
            warningLog("location updates need authorization; it is \(authorization.value)")
            return
        }
        state.withLock { state in
            guard state.playback == nil else { return }
            state.playback = Task { [weak self] in
                await self?.play(isolation: nil)
                self?.state.withLock { $0.playback = nil }
            }
        }
    }

    /// Stops the playback; the current location stays.
    public func stopUpdates() {
        let playback = state.withLock { state in
            defer { state.playback = nil }
            return state.playback
        }
        playback?.cancel()
    }

    /// Plays the route from its first point to its last, returning when done or when the task is cancelled.
    ///
    /// Played from the main actor, main-actor subscribers of ``currentLocation``
    /// hear each point before the next wait begins.
    ///
    /// - Parameter isolation: The caller's actor; leave the default.
    public func play(isolation: isolated (any Actor)? = #isolation) async {
        let filter = settings.distanceFilter
        var last: Location?
        var previousTime: Double?
        for (index, point) in route.points.enumerated() {
            let time = point.time?.timeIntervalSince1970
            if index > 0 {
                let seconds = time.flatMap { current in previousTime.map { max(0, current - $0) } } ?? 1
                do {
                    try await sleep(Self.wait(seconds: seconds, speed: speed))
                } catch {
                    return
                }
            }
            guard !Task.isCancelled else { return }
            previousTime = time ?? previousTime
            if let last, filter > 0, last.distance(to: point.location) < filter { continue }
            last = point.location
            currentLocation.set(point.location, isolation: isolation)
            debugLog("simulated location \(point.location.latitude), \(point.location.longitude) (point \(index + 1) of \(route.points.count))")
        }
    }

    /// The longest wait between two points: 10⁹ seconds, far below what 64-bit nanoseconds can count.
    static let longestWait = Duration.seconds(1_000_000_000)

    /// `seconds / speed` to the nanosecond, between zero and ``longestWait``, whatever the numbers.
    static func wait(seconds: Double, speed: Double) -> Duration {
        let wait = seconds / speed
        guard wait > 0 else { return .zero }   // also NaN
        guard wait < 1e9 else { return longestWait }   // also infinity
        return .nanoseconds(Int64((wait * 1e9).rounded()))
    }
}
