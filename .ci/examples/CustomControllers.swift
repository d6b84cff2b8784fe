// What the fragments of Docs/CustomControllers.md take from the app around them.
import MetaController

final class AppUserController: UserController {
    let currentUserName: String? = "ada"
}

struct Item: Sendable {
    let id: Int
}
final class SettingsScreen: Sendable {}
final class DetailScreen: Sendable {
    init(item: Item) {}
}
class Onboarding: @unchecked Sendable {}
final class ShortOnboarding: Onboarding, @unchecked Sendable {}
final class LongOnboarding: Onboarding, @unchecked Sendable {}
final class ImageCache: Sendable {
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
