// An app's module that declares types named like the package's. In this
// module `Location`, `AppEnvironment` and `HTTPMethod` are the app's own; the
// package's are reached as `MetaController.Location` and so on, the way out
// documented in Docs/Bootstrapping.md ("Names"). That this file compiles is
// most of the test.
import Foundation
import MetaController
import Testing

struct Location: Equatable {
    var street: String
}

enum AppEnvironment: Equatable {
    case local, cloud
}

struct HTTPMethod: Equatable {
    var verb: String
}

final class Signals {}

struct NameCollisionTests {
    @Test func theAppsOwnTypesKeepTheirNames() {
        #expect(Location(street: "Main Street").street == "Main Street")
        #expect(AppEnvironment.cloud != .local)
        #expect(HTTPMethod(verb: "GET").verb == "GET")
    }

    @Test func thePackagesTypesAreMembersOfTheClass() throws {
        let place = try MetaController.Location(latitude: 52.52, longitude: 13.405)
        #expect(place.latitude == 52.52)
        let environment: MetaController.AppEnvironment = .staging
        #expect(environment.rawValue == "staging")
        let request = MetaController.ApiRequest(.post, "/notes")
        #expect(request.method == MetaController.HTTPMethod.post)
    }

    @Test func theMembersAreTheModulesTypes() {
        let metaController = MetaController()
        let signals: MetaController.Signals = metaController.signals
        let signal = MetaController.Signal<Int>("count")
        let token = signals.listen(to: signal) { _ in }
        #expect(signals.listenerCount(for: signal) == 1)
        token.cancel()
        let count = MetaController.Property(0)
        count.set(1)
        #expect(count.value == 1)
        let observed = MetaController.ObservableProperty<Int>(default: 0)
        _ = observed
        let store: any MetaController.DataController = MetaController.MemoryDataController()
        metaController.dataController = store
        #expect(metaController.dataController === store)
    }
}
