// What the fragments of Docs/LocationController.md take from the app around them: the
// fragments' `self` is a map screen.
import Foundation
import MetaController
import MetaControllerTesting
import Synchronization

extension Example {
    func center(on location: Location) {}
    var showsPermissionHint: Bool {
        get { false }
        set {}
    }
    var route: GPXRoute { fatalError() }
    var screen: MapScreen { MapScreen() }
}

@MainActor final class MapScreen: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
    func viewDidAppear() {}
}

/// A thread-safe list of values.
nonisolated final class Recorder<Value: Sendable>: Sendable {
    private let recorded = Mutex<[Value]>([])
    var values: [Value] { recorded.withLock { $0 } }
    func append(_ value: Value) { recorded.withLock { $0.append(value) } }
}
