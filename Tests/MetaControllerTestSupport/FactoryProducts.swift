package import MetaController

/// Products of the factory tests, also made by the tests of the modules together.
package struct Item: Sendable, Equatable {
    package let id: Int
    package init(id: Int) { self.id = id }
}

/// A screen made by a factory, with an argument and a name.
package final class DetailScreen: MetaControllerConsumer {
    package var metaController: MetaController?
    package let item: Item?
    package let variant: String
    package init(item: Item? = nil, variant: String = "A") {
        self.item = item
        self.variant = variant
    }
}

/// A shared product.
package final class ImageCache: Sendable {
    package init() {}
}
