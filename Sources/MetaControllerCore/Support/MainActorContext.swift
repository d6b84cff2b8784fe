import Dispatch
import Foundation

/// Whether the running code is on the main actor, asked without trapping.
///
/// The main actor runs its work on the main queue. In an app that queue is
/// drained by the main thread; in a process that parked its main thread in
/// `dispatchMain()` (a command-line tool's async `main`, a test runner) it is
/// drained by a pool thread. Either way, code running on the main thread or
/// inside a main-queue block excludes every other main-actor job, so it may
/// call main-actor code through `MainActor.assumeIsolated`.
enum MainActorContext {
    /// A key the main queue, and only it, holds a value for.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether code with `isolation` runs on the main actor: isolated to it,
    /// on the main thread, or inside a block of the main queue.
    static func isCurrent(_ isolation: (any Actor)?) -> Bool {
        isolation === MainActor.shared || Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
    }
}
