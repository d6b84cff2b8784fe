import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// `MetaController.passMetaController(to:)`: hierarchies and the write-once policy.
struct MetaControllerPassingTests {
    @Test func passingToAConsumerSetsItsMetaController() {
        let metaController = MetaController()
        let screen = Screen()
        metaController.passMetaController(to: screen)
        #expect(screen.metaController === metaController)
    }

    @Test func passingToNilOrANonConsumerDoesNothing() {
        let metaController = MetaController.withFakes()
        metaController.passMetaController(to: nil)
        metaController.passMetaController(to: PlainObject())
        #expect(metaController.fakeLogController?.entries.isEmpty == true)
    }

    @Test func passesThroughAThreeLevelHierarchy() {
        let metaController = MetaController.withFakes()
        let detail = Screen("detail")
        let list = Screen("list")
        let stack = Stack([list, PlainObject(), detail])   // level 2: a container that is no consumer
        let settings = Screen("settings")
        let root = TabsScreen([stack, settings])   // level 1
        metaController.passMetaController(to: root)
        #expect(root.metaController === metaController)
        #expect(list.metaController === metaController)
        #expect(detail.metaController === metaController)
        #expect(settings.metaController === metaController)
    }

    @Test func walksDepthFirstInTheOrderChildrenAreListed() {
        let metaController = MetaController()
        let order = Lock<[String]>([])
        let tree = Stack([
            Stack([Recorder("1", order), Recorder("2", order)]),
            Recorder("3", order),
            Stack([PlainObject(), Recorder("4", order)]),
        ])
        metaController.passMetaController(to: tree)
        #expect(order.withLock { $0 } == ["1", "2", "3", "4"])
        #expect(metaController.audit(tree).consumers.count == 4)
    }

    @Test func aHierarchyWithACycleIsVisitedOnce() {
        let metaController = MetaController()
        let screen = Screen()
        let stack = Stack([screen])
        let tabs = TabsScreen([stack])
        stack.items.append(tabs)   // the stack lists its own parent
        stack.items.append(screen)   // and one child twice
        metaController.passMetaController(to: tabs)
        #expect(screen.metaController === metaController)
        #expect(metaController.audit(tabs).consumers.count == 2)
        stack.items.removeAll()   // break the cycle for deallocation
    }

    @Test func aDifferentMetaControllerIsKeptAndTheCallerWarned() throws {
        let first = MetaController()
        let second = MetaController.withFakes()
        let screen = Screen()
        first.passMetaController(to: screen)
        let line: UInt = #line; second.passMetaController(to: screen)
        #expect(screen.metaController === first)
        let warning = try #require(second.fakeLogController?.diagnostics.first)
        #expect(second.fakeLogController?.entries.isEmpty == true)   // the app logged nothing
        #expect(warning.level == .warning)
        #expect(
            warning.message
                == "Screen already holds the MetaController of another scope and keeps it; "
                + "an object reused across scopes (a pooled handler, say) needs replacingExisting: true to take this one")
        #expect(warning.line == line)
        #expect(warning.function == "aDifferentMetaControllerIsKeptAndTheCallerWarned()")
    }

    @Test func aRefusedConsumersChildrenKeepTheirsToo() {
        let production = MetaController()
        let log = FakeLogController()
        production.logController = log
        let scoped = MetaController(parent: production)
        let inner = Screen("inner")
        let subtree = TabsScreen([inner])
        scoped.passMetaController(to: subtree)
        let root = TabsScreen([subtree])
        production.passMetaController(to: root)
        #expect(root.metaController === production)
        #expect(subtree.metaController === scoped)
        #expect(inner.metaController === scoped)
        #expect(
            log.diagnostics.map(\.message) == [
                "TabsScreen already holds a different MetaController and keeps it; pass replacingExisting: true to replace it"
            ])
    }

    @Test func withoutALogControllerTheWarningGoesToStandardError() throws {
        let first = MetaController()
        let second = MetaController()
        let screen = Screen()
        first.passMetaController(to: screen)
        let standardError = try CapturedStream()
        let line: UInt = #line; standardError.asStandardError { second.passMetaController(to: screen) }
        #expect(screen.metaController === first)
        #expect(
            try standardError.lines == [
                "warning: MetaControllerPassingTests.swift (line \(line)): withoutALogControllerTheWarningGoesToStandardError(): "
                    + "Screen already holds the MetaController of another scope and keeps it; "
                    + "an object reused across scopes (a pooled handler, say) needs replacingExisting: true to take this one"
            ])
    }

    @Test func replacingExistingReplacesOnPurpose() {
        let first = MetaController()
        let second = MetaController.withFakes()
        let screen = Screen()
        let root = TabsScreen([screen])
        first.passMetaController(to: root)
        second.passMetaController(to: root, replacingExisting: true)
        #expect(root.metaController === second)
        #expect(screen.metaController === second)
        #expect(second.fakeLogController?.entries.isEmpty == true)
    }

    @Test func passingTheSameMetaControllerAgainIsANoOpThatReachesNewChildren() {
        let metaController = MetaController.withFakes()
        let root = TabsScreen([])
        metaController.passMetaController(to: root)
        let added = Screen("added")
        root.tabs.append(added)
        metaController.passMetaController(to: root)
        #expect(root.metaController === metaController)
        #expect(added.metaController === metaController)
        #expect(metaController.fakeLogController?.entries.isEmpty == true)
    }

    @Test func missingRequirementWarnsInDebugBuilds() {
        let metaController = MetaController()
        let log = FakeLogController()
        metaController.logController = log
        metaController.apiController = FakeApiController()
        let settings = SettingsScreen()
        metaController.passMetaController(to: settings)
        #expect(settings.metaController === metaController)   // it still receives it
        #if DEBUG
        #expect(log.diagnostics.map(\.message) == ["SettingsScreen requires notificationController, which this MetaController lacks"])
        #else
        #expect(log.diagnostics.isEmpty)
        #endif
        #expect(log.entries.isEmpty)   // kept apart from what the app logs
    }

    @Test func aConsumerListedTwiceIsWarnedAboutOnce() {
        let metaController = MetaController()
        let log = FakeLogController()
        metaController.logController = log
        let settings = SettingsScreen()
        metaController.passMetaController(to: Stack([settings, Stack([settings])]))
        metaController.passMetaController(to: settings)   // and passed again later
        #expect(settings.metaController === metaController)
        #if DEBUG
        #expect(log.diagnostics.map(\.message) == ["SettingsScreen requires apiController, notificationController, which this MetaController lacks"])
        #else
        #expect(log.diagnostics.isEmpty)
        #endif
        #expect(metaController.audit(Stack([settings, Stack([settings])])).consumers.count == 1)
    }

    @Test func subclassesAndTheirBaseClassInOneTreeAllReceiveIt() {
        let metaController = MetaController()
        let base = BaseScreen()
        let derived = DerivedScreen()
        let container = DerivedContainer([PlainObject(), derived])
        let root = Stack([base, container, BaseScreen(), derived, container])
        metaController.passMetaController(to: root)
        #expect(base.metaController === metaController)
        #expect(derived.metaController === metaController)
        #expect(container.metaController === metaController)
        #expect(metaController.audit(root).consumers.map(\.typeName) == ["BaseScreen", "DerivedContainer", "DerivedScreen", "BaseScreen"])
    }

    @Test func noWarningWhenRequirementsAreMet() {
        let metaController = MetaController.withFakes()
        metaController.passMetaController(to: SettingsScreen())
        #expect(metaController.fakeLogController?.entries.isEmpty == true)
    }
}

/// Records the order in which it receives a MetaController.
private final class Recorder: MetaControllerConsumer {
    let name: String
    let order: Lock<[String]>
    init(_ name: String, _ order: Lock<[String]>) {
        self.name = name
        self.order = order
    }
    var metaController: MetaController? {
        didSet { order.withLock { $0.append(name) } }
    }
}

/// A consumer class with subclasses, to check that a walk tells classes apart.
private class BaseScreen: MetaControllerConsumer {
    var metaController: MetaController?
}

private final class DerivedScreen: BaseScreen {}

/// A subclass of a consumer that adds being a container.
private final class DerivedContainer: BaseScreen, MetaControllerContainer {
    let items: [AnyObject]
    init(_ items: [AnyObject]) { self.items = items }
    var metaControllerChildren: [AnyObject] { items }
}
