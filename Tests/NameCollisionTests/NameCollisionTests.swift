// An app's module that declares types named like the package's. In this
// module `Location`, `AppEnvironment` and `HTTPMethod` are the app's own; the
// package's are reached by their modules' names, `MetaControllerLocation.Location`
// and so on, through the one `import MetaController`: the way out documented in
// Docs/Bootstrapping.md ("Names"). That this file compiles is most of the test.
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

/// Bootstrapping.md, "Names": inside an `extension MetaController` a bare `Location` is the
/// app's own too; the class has no members named after the package's types.
extension MetaController {
    var homeAddress: Location { Location(street: "Main Street") }
}

struct NameCollisionTests {
    @Test func insideAnExtensionOfTheClassABareNameIsTheAppsType() {
        #expect(MetaController().homeAddress == Location(street: "Main Street"))
    }

    @Test func theAppsOwnTypesKeepTheirNames() {
        #expect(Location(street: "Main Street").street == "Main Street")
        #expect(AppEnvironment.cloud != .local)
        #expect(HTTPMethod(verb: "GET").verb == "GET")
    }

    @Test func thePackagesTypesAreReachedByTheirModulesNames() throws {
        let place = try MetaControllerLocation.Location(latitude: 52.52, longitude: 13.405)
        #expect(place.latitude == 52.52)
        let environment: MetaControllerConfiguration.AppEnvironment = .staging
        #expect(environment.rawValue == "staging")
        let request = MetaControllerNetworking.ApiRequest(.post, "/notes")
        #expect(request.method == MetaControllerNetworking.HTTPMethod.post)
    }

    @Test func theQualifiedNamesAreTheTypesTheUmbrellaBrings() {
        let metaController = MetaController()
        let signals: MetaControllerCore.Signals = metaController.signals
        let signal = MetaControllerCore.Signal<Int>("count")
        let token = signals.listen(to: signal) { _ in }
        #expect(signals.listenerCount(for: signal) == 1)
        token.cancel()
        let count = MetaControllerCore.Property(0)
        count.set(1)
        #expect(count.value == 1)
        let store: any MetaControllerStorage.DataController = MetaControllerStorage.MemoryDataController()
        metaController.dataController = store
        #expect(metaController.dataController === store)
    }
}
