// What the blocks of Docs/SwiftUI.md take from the app around them. Controllers, their
// protocols and keys, signals and Codable models are nonisolated, as the article says they
// must be in an Xcode 26 app target.
import MetaController

nonisolated struct FeedItem: Codable, Identifiable, Sendable {
    let id: Int
    let title: String
    static let samples = [FeedItem(id: 1, title: "Hello"), FeedItem(id: 2, title: "World")]
}

nonisolated enum AppSignals {
    static let itemShared = Signal<FeedItem>("itemShared")
}

nonisolated protocol FavoritesController: AnyObject, Sendable {
    var favorites: Property<Set<Int>> { get }
}

nonisolated final class AppFavoritesController: FavoritesController {
    let favorites = Property<Set<Int>>([])
}

nonisolated enum FavoritesControllerKey: MetaControllerKey {
    typealias Value = any FavoritesController
}

nonisolated extension MetaControllerReader {
    var favoritesController: (any FavoritesController)? { self[FavoritesControllerKey.self] }
}

/// A background actor uses the article's controllers, as the Xcode 26 section promises.
actor FavoritesSync {
    let metaController: MetaController
    init(metaController: MetaController) { self.metaController = metaController }
    func sync() -> Int {
        metaController.favoritesController?.favorites.update { $0.insert(1) }
        return metaController.shareHistory?.shareCount.value ?? 0
    }
}
