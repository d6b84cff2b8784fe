// What the fragments of Docs/CustomControllers.md take from the app around them.
import MetaController
import Foundation

final class AppUserController: UserController {
    let currentUserName: String? = "ada"
}

nonisolated struct Item: Sendable {
    let id: Int
}
nonisolated final class SettingsScreen: Sendable {}
nonisolated final class DetailScreen: Sendable {
    init(item: Item) {}
}
nonisolated class Onboarding: @unchecked Sendable {}
nonisolated final class ShortOnboarding: Onboarding, @unchecked Sendable {}
nonisolated final class LongOnboarding: Onboarding, @unchecked Sendable {}
nonisolated final class ImageCache: Sendable {
    init(limit: Int) {}
}
struct Experiment {
    let arm = "short"
}
@MainActor final class DetailViewController {
    init(item: Item) {}
}

extension Example {
    var item: Item { Item(id: 1) }
    var experiment: Experiment { Experiment() }
    func show(_ screen: DetailScreen) {}
}

/// The recipe's controller used off the main actor, by a background actor, as by any actor or
/// task of an app: through the recipe's accessor (step 3) and through the key (step 2). In the
/// Xcode 26 setting (main actor by default) this compiles only if the recipe's protocol and
/// accessor are `nonisolated`, so this is what checks that the recipe says so.
actor BackgroundSync: MetaControllerReader {
    let metaController: MetaController?
    init(metaController: MetaController?) { self.metaController = metaController }

    func signedInUser() -> String? {
        userController?.currentUserName ?? self[UserControllerKey.self]?.currentUserName
    }
}

/// The same from a detached task, which is in no actor at all, through the key and through the
/// long form's MetaController property.
func signedInUserInBackground(_ metaController: MetaController) async -> String? {
    await Task.detached {
        metaController[UserControllerKey.self]?.currentUserName ?? metaController.userController?.currentUserName
    }.value
}

nonisolated protocol FavoritesStore: AnyObject, Sendable {
    var favorites: Property<Set<Int>> { get }
}

// The async factories' section.
nonisolated final class Database: Sendable {
    static func open(at url: URL) async throws -> Database { Database() }
}
nonisolated struct Customer: Sendable {
    typealias ID = Int
    let id: ID
}
nonisolated final class OrderHistory: Sendable {
    static func load(for id: Customer.ID, from api: (any ApiController)?) async throws -> OrderHistory { OrderHistory() }
}
nonisolated struct Order: Sendable {}
@MainActor final class ReceiptViewController {
    init(order: Order) {}
}

extension Example {
    var customer: Customer { Customer(id: 1) }
}
nonisolated let databaseURL = URL(fileURLWithPath: "/tmp/app.sqlite")
