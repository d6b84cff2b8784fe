import Foundation
import MetaController
@testable import MetaControllerLocation
import MetaControllerTesting
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

/// A platform backend that records what the controller asked of it.
private final class RecordingBackend: PlatformLocationBackend {
    enum Call: Equatable {
        case attach
        case requestAuthorization(always: Bool)
        case start(LocationSettings)
        case requestLocation(LocationSettings)
        case stop
    }

    let capabilities: LocationCapabilities
    private let recorded = Lock<[Call]>([])

    init(continuousUpdates: Bool, alwaysAuthorization: Bool) {
        capabilities = LocationCapabilities(continuousUpdates: continuousUpdates, alwaysAuthorization: alwaysAuthorization)
    }

    var calls: [Call] { recorded.withLock { $0 } }
    func attach(to controller: DeviceLocationController) { recorded.withLock { $0.append(.attach) } }
    func requestAuthorization(always: Bool) { recorded.withLock { $0.append(.requestAuthorization(always: always)) } }
    func start(settings: LocationSettings) { recorded.withLock { $0.append(.start(settings)) } }
    func requestLocation(settings: LocationSettings) { recorded.withLock { $0.append(.requestLocation(settings)) } }
    func stop() { recorded.withLock { $0.append(.stop) } }
}

@Suite struct DeviceLocationControllerTests {
    private static let iOS = (continuousUpdates: true, alwaysAuthorization: true)
    private static let tvOS = (continuousUpdates: false, alwaysAuthorization: false)
    private static let visionOS = (continuousUpdates: true, alwaysAuthorization: false)

    @Test func withoutLocationServicesItIsRestrictedAndSaysSo() {
        #if canImport(CoreLocation)
        #expect(DeviceLocationController().authorization.value == .notDetermined)
        #else
        let metaController = MetaController.withFakes()
        let device = DeviceLocationController()
        metaController.locationController = device
        #expect(device.authorization.value == .restricted)
        device.startUpdates()
        #expect(device.currentLocation.value == nil)
        #expect(metaController.fakeLogController?.messages == ["this platform has no location services"])
        #endif
    }

    @Test func streamsWhereThePlatformCanAndStopsWhenAsked() {
        let backend = RecordingBackend(continuousUpdates: true, alwaysAuthorization: true)
        let device = DeviceLocationController(backend: backend, sleep: { _ in Issue.record("no waits when streaming") })
        #expect(device.authorization.value == .notDetermined)
        device.settings = LocationSettings(desiredAccuracy: 10, distanceFilter: 25)
        device.requestAuthorization(always: true)
        device.startUpdates()
        #expect(device.isUpdating)
        device.stopUpdates()
        #expect(!device.isUpdating)
        #expect(
            backend.calls == [
                .attach, .requestAuthorization(always: true),
                .start(LocationSettings(desiredAccuracy: 10, distanceFilter: 25)), .stop,
            ])
    }

    @Test(arguments: [(Self.tvOS, "tvOS"), (Self.visionOS, "visionOS")])
    func asksForWhenInUseWhereThereIsNoAlwaysAndSaysSo(
        platform: (continuousUpdates: Bool, alwaysAuthorization: Bool), name: String
    ) {
        let metaController = MetaController.withFakes()
        let backend = RecordingBackend(continuousUpdates: platform.continuousUpdates, alwaysAuthorization: false)
        let device = DeviceLocationController(backend: backend, sleep: { _ in })
        metaController.locationController = device
        device.requestAuthorization(always: true)
        device.requestAuthorization(always: false)
        #expect(backend.calls == [.attach, .requestAuthorization(always: false), .requestAuthorization(always: false)])
        #expect(metaController.fakeLogController?.entries.map(\.level) == [.info])
        #expect(
            metaController.fakeLogController?.messages
                == ["this platform offers no Always location authorization; asking for when-in-use"])
    }

    /// tvOS: one request at once, then one after each refresh interval, until stopped.
    @Test func asksAgainEveryRefreshIntervalWhereThePlatformAnswersOnceAtATime() async {
        let backend = RecordingBackend(continuousUpdates: false, alwaysAuthorization: false)
        let waits = Inbox<Duration>()
        let device = DeviceLocationController(
            backend: backend,
            sleep: { duration in
                waits.record(duration)
                if waits.values.count == 3 { throw CancellationError() }   // ends the loop after three waits
            })
        let settings = LocationSettings(desiredAccuracy: 5, refreshInterval: .seconds(30))
        device.settings = settings
        device.startUpdates()
        await device.refreshEnded()
        #expect(waits.values == [.seconds(30), .seconds(30), .seconds(30)])
        #expect(backend.calls == [.attach] + Array(repeating: .requestLocation(settings), count: 3))
        #expect(device.isUpdating)
    }

    @Test func stopEndsTheRefreshesAndAnyRequestUnderWay() async {
        let backend = RecordingBackend(continuousUpdates: false, alwaysAuthorization: false)
        let asleep = AsyncStream<Void>.makeStream()
        let device = DeviceLocationController(
            backend: backend,
            sleep: { _ in
                asleep.continuation.yield()
                // Waits until cancelled, as Task.sleep does.
                let never = AsyncStream<Void>.makeStream()
                await withTaskCancellationHandler {
                    for await _ in never.stream {}
                } onCancel: {
                    never.continuation.finish()
                }
                try Task.checkCancellation()
            })
        device.startUpdates()
        for await _ in asleep.stream { break }
        device.stopUpdates()
        await device.refreshEnded()
        #expect(!device.isUpdating)
        #expect(backend.calls == [.attach, .requestLocation(LocationSettings()), .stop])
    }

    @Test func startingAgainRestartsTheRefreshesWithTheNewSettings() async {
        let backend = RecordingBackend(continuousUpdates: false, alwaysAuthorization: false)
        let device = DeviceLocationController(backend: backend, sleep: { _ in throw CancellationError() })
        device.startUpdates()
        await device.refreshEnded()
        device.settings = LocationSettings(desiredAccuracy: 1)
        device.startUpdates()
        await device.refreshEnded()
        #expect(
            backend.calls == [
                .attach, .requestLocation(LocationSettings()), .requestLocation(LocationSettings(desiredAccuracy: 1)),
            ])
    }

    /// Streaming platforms filter by distance themselves; one-shot answers are filtered here.
    @Test func skipsOneShotLocationsCloserThanTheDistanceFilter() throws {
        let backend = RecordingBackend(continuousUpdates: false, alwaysAuthorization: false)
        let device = DeviceLocationController(backend: backend, sleep: { _ in throw CancellationError() })
        device.settings = LocationSettings(distanceFilter: 50)
        let delivered = device.currentLocation.record()
        device.startUpdates()
        let start = try Location(latitude: 48.8566, longitude: 2.3522)
        device.deliver(start)
        device.deliver(try Location(latitude: 48.8567, longitude: 2.3522))   // about 11 m on
        device.deliver(try Location(latitude: 48.8572, longitude: 2.3522))   // about 67 m from the start
        device.startUpdates()   // a restart delivers the next one
        device.deliver(try Location(latitude: 48.8572, longitude: 2.3523))
        #expect(delivered.values.map { $0?.latitude } == [48.8566, 48.8572, 48.8572])
    }

    @Test func streamedLocationsAreAllDelivered() throws {
        let backend = RecordingBackend(continuousUpdates: true, alwaysAuthorization: true)
        let device = DeviceLocationController(backend: backend, sleep: { _ in })
        device.settings = LocationSettings(distanceFilter: 50)
        let delivered = device.currentLocation.record()
        device.deliver(try Location(latitude: 48.8566, longitude: 2.3522))
        device.deliver(try Location(latitude: 48.8567, longitude: 2.3522))
        #expect(delivered.values.count == 2)
    }

    @Test func reportsAuthorizationAndFailuresFromThePlatform() {
        let metaController = MetaController.withFakes()
        let device = DeviceLocationController(backend: RecordingBackend(continuousUpdates: true, alwaysAuthorization: true), sleep: { _ in })
        metaController.locationController = device
        device.update(authorization: .authorizedWhenInUse, accuracy: .reduced)
        device.report("kCLErrorDomain error 0")
        #expect(device.authorization.value == .authorizedWhenInUse)
        #expect(device.accuracyAuthorization.value == .reduced)
        #expect(metaController.fakeLogController?.messages == ["location services failed: kCLErrorDomain error 0"])
    }

    @Test func releasingTheControllerEndsTheRefreshes() async {
        let backend = RecordingBackend(continuousUpdates: false, alwaysAuthorization: false)
        let asleep = AsyncStream<Void>.makeStream()
        let ended = AsyncStream<Void>.makeStream()
        var device: DeviceLocationController? = DeviceLocationController(
            backend: backend,
            sleep: { _ in
                asleep.continuation.yield()
                let never = AsyncStream<Void>.makeStream()
                await withTaskCancellationHandler {
                    for await _ in never.stream {}
                } onCancel: {
                    never.continuation.finish()
                }
                ended.continuation.finish()
                try Task.checkCancellation()
            })
        weak let released = device
        device?.startUpdates()
        for await _ in asleep.stream { break }
        device = nil
        for await _ in ended.stream {}
        #expect(released == nil)
        #expect(backend.calls == [.attach, .requestLocation(LocationSettings())])
    }
}
