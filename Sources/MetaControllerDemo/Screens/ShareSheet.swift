import MetaController

/// A screen made at run time by a factory that a feature assembly registers.
@MainActor
final class ShareSheet: @MainActor MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.custom(SessionControllerKey.self)]

    var metaController: MetaController?
    let item: FeedItem

    init(item: FeedItem) { self.item = item }

    func viewDidAppear() {
        debugLog("\(sessionController?.userName ?? "someone") shares item \(item.id)")
        // Tell whoever cares, without knowing who that is.
        signals?.dispatch(AppSignals.itemShared, item)
    }
}

/// The share feature's factories, installed with one call.
struct ShareAssembly: MetaControllerAssembly {
    func assemble(into metaController: MetaController) {
        metaController.register(ShareSheet.self, argument: FeedItem.self) { @MainActor _, item in
            ShareSheet(item: item)
        }
    }
}
