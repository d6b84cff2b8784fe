import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct LocationSettingsTests {
    @Test func defaultsToAHundredMetersNoFilterAndAMinute() {
        let settings = LocationSettings()
        #expect(settings.desiredAccuracy == 100 && settings.distanceFilter == 0)
        #expect(settings.refreshInterval == .seconds(60))
    }

    @Test func correctsValuesThatMeanNothing() {
        let settings = LocationSettings(desiredAccuracy: .nan, distanceFilter: -5, refreshInterval: .milliseconds(10))
        #expect(settings.desiredAccuracy == 100)
        #expect(settings.distanceFilter == 0)
        #expect(settings.refreshInterval == .seconds(1))
        #expect(
            LocationSettings(desiredAccuracy: -1, distanceFilter: .infinity, refreshInterval: .seconds(-3))
                == LocationSettings(desiredAccuracy: 0, distanceFilter: 0, refreshInterval: .seconds(1)))
        #expect(LocationSettings(refreshInterval: .seconds(5)).refreshInterval == .seconds(5))
    }
}
