// An app that depends on the MetaControllerCore product alone (README, "Package layout"):
// the container, a slot of its own, a consumer that logs, factories and Signals, with no
// controller family linked. That this file compiles with only `import MetaControllerCore`
// is most of the test: the core must need none of the other modules.
import MetaControllerCore
import Testing

protocol ClockController: AnyObject, Sendable {
    var now: Int { get }
}

enum ClockControllerKey: MetaControllerKey {
    typealias Value = any ClockController
}

extension MetaControllerReader {
    var clockController: (any ClockController)? { self[ClockControllerKey.self] }
}

final class FixedClock: ClockController {
    let now = 42
}

/// A log controller of the app's own, since the logging family is not linked: it keeps
/// each entry's line in a `Property`, which is safe to update from any thread.
final class ArrayLog: LogController {
    let lines = Property<[String]>([])
    func log(_ entry: LogEntry) { lines.update { $0.append(entry.description) } }
}

final class ClockScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.log, .custom(ClockControllerKey.self)]
    var metaController: MetaController?

    func show() {
        infoLog("the time is \(clockController?.now ?? 0)")
    }
}

struct CoreOnlyTests {
    @Test func theCoreAloneHoldsSlotsPassesDownAndLogs() {
        let app = MetaController()
        let log = ArrayLog()
        app.logController = log
        app[ClockControllerKey.self] = FixedClock()
        let screen = ClockScreen()
        app.passMetaController(to: screen)
        screen.show()
        #expect(log.lines.value.count == 1)
        #expect(log.lines.value.first?.hasSuffix("show(): the time is 42") == true)
        #expect(app.audit(screen).isSatisfied)
    }

    @Test func theCoreAloneMakesProductsAndDispatchesSignals() throws {
        let app = MetaController()
        app.register(Int.self) { _ in 7 }
        #expect(try app.make(Int.self) == 7)
        let ticks = Signal<Int>("ticks")
        let heard = Property(0)
        let token = app.signals.listen(to: ticks) { heard.set($0) }
        app.signals.dispatch(ticks, 3)
        #expect(heard.value == 3)
        token.cancel()
    }
}
