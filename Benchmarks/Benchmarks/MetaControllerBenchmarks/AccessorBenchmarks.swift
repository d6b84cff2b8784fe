import Benchmark
import Dependencies
import MetaController
import MetaControllerTesting
import Swinject

/// Scenario 1: reading a controller through a consumer's accessor, against a
/// stored property, Swinject and swift-dependencies.
enum AccessorBenchmarks {
    /// The one controller every variant reads.
    static let api: any ApiController = FakeApiController()

    /// A consumer as an app writes one.
    final class Screen: MetaControllerConsumer {
        var metaController: MetaController?
    }

    /// The floor: the controller in a stored property of the screen.
    final class DirectScreen {
        var apiController: any ApiController
        init(_ apiController: any ApiController) { self.apiController = apiController }
    }

    /// A screen that reads the controller through swift-dependencies.
    final class DependencyScreen {
        @Dependency(\.benchmarkApiController) var apiController
    }

    static func register() {
        let metaController = MetaController()
        metaController.apiController = api
        metaController.userController = AppUserController()
        let screen = Screen()
        screen.metaController = metaController
        precondition(screen.apiController === api && screen.userController != nil)

        let direct = DirectScreen(api)
        Benchmark("accessor-direct", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(direct.apiController) }
        }

        Benchmark("accessor-builtin", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(screen.apiController) }
        }

        Benchmark("accessor-custom", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(screen.userController) }
        }

        let container = Container()
        container.register((any ApiController).self) { _ in api }.inObjectScope(.container)
        precondition(container.resolve((any ApiController).self) === api)
        Benchmark("accessor-swinject", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(container.resolve((any ApiController).self)) }
        }

        let dependencyScreen = DependencyScreen()
        precondition(dependencyScreen.apiController === api)
        Benchmark("accessor-dependency", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(dependencyScreen.apiController) }
        }
    }
}

// MARK: - A custom slot, as in Docs/CustomControllers.md

protocol UserController: AnyObject, Sendable {
    var currentUserName: String? { get }
}

final class AppUserController: UserController {
    let currentUserName: String? = "ada"
}

enum UserControllerKey: MetaControllerKey {
    typealias Value = any UserController
}

extension MetaController {
    var userController: (any UserController)? {
        get { self[UserControllerKey.self] }
        set { self[UserControllerKey.self] = newValue }
    }
}

extension MetaControllerConsumer {
    var userController: (any UserController)? { metaController?.userController }
}

// MARK: - The same controller as a swift-dependencies dependency

enum BenchmarkApiControllerKey: DependencyKey {
    static let liveValue: any ApiController = AccessorBenchmarks.api
}

extension DependencyValues {
    var benchmarkApiController: any ApiController {
        get { self[BenchmarkApiControllerKey.self] }
        set { self[BenchmarkApiControllerKey.self] = newValue }
    }
}
