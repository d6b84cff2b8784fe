// What the fragments of Docs/DataController.md take from the app around them.
import Foundation
import MetaController

#if !canImport(Darwin)
extension URL {
    static var applicationSupportDirectory: URL { FileManager.default.temporaryDirectory }
}
#endif

let storeURL = FileManager.default.temporaryDirectory

extension Example {
    func reloadProfile() {}
}

@MainActor final class DraftScreen: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
    func saveDraft() {}
}

extension Example {
    var screen: DraftScreen { DraftScreen() }
}

struct Note: Codable, Sendable {
    var id: String
    var title: String
}
