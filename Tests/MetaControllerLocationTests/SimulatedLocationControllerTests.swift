import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

@Suite struct SimulatedLocationControllerTests {
    private static let route = """
        <gpx version="1.1">
          <trk><trkseg>
            <trkpt lat="48.8530" lon="2.3499"><time>2024-05-01T08:30:00Z</time></trkpt>
            <trkpt lat="48.8535" lon="2.3510"><time>2024-05-01T08:30:10Z</time></trkpt>
            <trkpt lat="48.8536" lon="2.3511"><time>2024-05-01T08:30:40Z</time></trkpt>
            <trkpt lat="48.8560" lon="2.3550"/>
          </trkseg></trk>
        </gpx>
        """

    private func makeSimulator(speed: Double = 1, authorization: LocationAuthorization = .authorizedWhenInUse)
        throws -> (SimulatedLocationController, Recording<Location?>, Inbox<Duration>)
    {
        let waits = Inbox<Duration>()
        let simulator = SimulatedLocationController(
            route: try GPXRoute(data: Data(Self.route.utf8)), speed: speed, authorization: authorization,
            sleep: { waits.record($0) })
        return (simulator, simulator.currentLocation.record(), waits)
    }

    @Test func playsThePointsInOrderWithTheirTiming() async throws {
        let (simulator, locations, waits) = try makeSimulator()
        await simulator.play()
        #expect(locations.values.map { $0?.latitude } == [48.8530, 48.8535, 48.8536, 48.8560])
        // 10 s and 30 s between timed points; a point without a time comes 1 s after the last.
        #expect(waits.values == [.seconds(10), .seconds(30), .seconds(1)])
    }

    @Test func fasterSpeedsDivideTheWaits() async throws {
        let (simulator, _, waits) = try makeSimulator(speed: 10)
        await simulator.play()
        #expect(waits.values == [.seconds(1), .seconds(3), .milliseconds(100)])
    }

    /// Points from year 1 to year 9999, then one without a time.
    private static let routeOverTheAges = """
        <gpx version="1.1">
          <trkpt lat="0" lon="0"><time>0001-01-01T00:00:00Z</time></trkpt>
          <trkpt lat="1" lon="0"><time>0001-01-01T00:00:00.5Z</time></trkpt>
          <trkpt lat="2" lon="0"><time>9999-12-31T23:59:59.999Z</time></trkpt>
          <trkpt lat="3" lon="0"/>
        </gpx>
        """

    @Test(arguments: [
        // speed, then the waits: half a second, ~10,000 years, one second without times; capped at 10⁹ s.
        (1e-5, [Duration.seconds(50_000), .seconds(1_000_000_000), .seconds(100_000)]),
        (1e-17, [.seconds(1_000_000_000), .seconds(1_000_000_000), .seconds(1_000_000_000)]),
        (1e-300, [.seconds(1_000_000_000), .seconds(1_000_000_000), .seconds(1_000_000_000)]),
        (.leastNonzeroMagnitude, [.seconds(1_000_000_000), .seconds(1_000_000_000), .seconds(1_000_000_000)]),
        (.greatestFiniteMagnitude, [.zero, .zero, .zero]),
        (1e6, [.nanoseconds(500), .nanoseconds(315_537_897_599_499), .microseconds(1)]),
        // Not a finite number above 0: counts as 1.
        (.infinity, [.milliseconds(500), .seconds(1_000_000_000), .seconds(1)]),
        (-.infinity, [.milliseconds(500), .seconds(1_000_000_000), .seconds(1)]),
        (.nan, [.milliseconds(500), .seconds(1_000_000_000), .seconds(1)]),
        (0, [.milliseconds(500), .seconds(1_000_000_000), .seconds(1)]),
        (-2, [.milliseconds(500), .seconds(1_000_000_000), .seconds(1)]),
    ])
    func noSpeedAndNoTimesTrap(speed: Double, expected: [Duration]) async throws {
        let waits = Inbox<Duration>()
        let simulator = SimulatedLocationController(
            route: try GPXRoute(data: Data(Self.routeOverTheAges.utf8)), speed: speed, sleep: { waits.record($0) })
        let locations = simulator.currentLocation.record()
        await simulator.play()
        #expect(locations.values.map { $0?.latitude } == [0, 1, 2, 3])
        #expect(waits.values == expected)
        #expect(simulator.speed == (speed > 0 && speed.isFinite ? speed : 1))
    }

    @Test func theDistanceFilterSkipsPointsTooClose() async throws {
        let (simulator, locations, _) = try makeSimulator()
        simulator.settings = LocationSettings(distanceFilter: 50)   // the third point is ~13 m from the second
        await simulator.play()
        #expect(locations.values.map { $0?.latitude } == [48.8530, 48.8535, 48.8560])
    }

    @Test func startAndStopNeedAuthorization() async throws {
        let metaController = MetaController.withFakes()
        let (simulator, locations, _) = try makeSimulator(authorization: .notDetermined)
        metaController.locationController = simulator
        simulator.startUpdates()
        #expect(!simulator.isUpdating)
        #expect(locations.values.isEmpty)
        #expect(metaController.fakeLogController?.messages == ["location updates need authorization; it is notDetermined"])
        simulator.requestAuthorization(always: false)
        #expect(simulator.authorization.value == .authorizedWhenInUse)
        simulator.requestAuthorization(always: true)
        #expect(simulator.authorization.value == .authorizedAlways)
    }

    @Test func startUpdatesPlaysInATaskUntilTheEnd() async throws {
        let (simulator, _, _) = try makeSimulator()
        simulator.startUpdates()
        #expect(simulator.isUpdating)
        // Wait for the last point without sleeping: observe until it arrives.
        let last = AsyncStream<Void> { continuation in
            let token = simulator.currentLocation.observe(replay: true) { location in
                if location?.latitude == 48.8560 { continuation.finish() }
            }
            continuation.onTermination = { _ in token.cancel() }
        }
        for await _ in last {}
        #expect(simulator.currentLocation.value?.latitude == 48.8560)
    }

    @Test func stopUpdatesEndsThePlayback() async throws {
        let gate = AsyncStream<Void>.makeStream()
        let simulator = SimulatedLocationController(
            route: try GPXRoute(data: Data(Self.route.utf8)),
            sleep: { _ in
                for await _ in gate.stream {}; try Task.checkCancellation()
            })
        let first = AsyncStream<Void> { continuation in
            let token = simulator.currentLocation.observe { _ in continuation.finish() }
            continuation.onTermination = { _ in token.cancel() }
        }
        simulator.startUpdates()
        for await _ in first {}
        simulator.stopUpdates()
        gate.continuation.finish()
        #expect(!simulator.isUpdating)
        #expect(simulator.currentLocation.value?.latitude == 48.8530)
    }
}

@Suite struct FakeLocationControllerTests {
    @Test func isDrivenByHandAndRecordsRequests() throws {
        let fake = FakeLocationController()
        let locations = fake.currentLocation.record()
        fake.requestAuthorization(always: true)
        fake.startUpdates()
        fake.simulate(try Location(latitude: 1, longitude: 2))
        fake.stopUpdates()
        fake.authorization.value = .denied
        #expect(fake.authorizationRequests == [true])
        #expect(fake.startCount == 1 && fake.stopCount == 1 && !fake.isUpdating)
        #expect(locations.values.map { $0?.longitude } == [2])
        #expect(fake.authorization.value == .denied)
    }
}
