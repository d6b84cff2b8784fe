import Dispatch
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

// The app-wide listener of Docs/SwiftUI.md ("App-wide listeners"), as an app writes it.

private enum AppSignals {
    static let itemShared = Signal<Int>("itemShared")
}

private final class ShareHistoryController: WeakMetaControllerConsumer, Sendable {
    let shareCount = Property(0)
    let metaControllerReference = WeakMetaControllerReference()

    func metaControllerDidArrive() {
        try? signals?.add(self, to: AppSignals.itemShared) { controller, _ in
            controller.shareCount.update { $0 += 1 }
        }
    }
}

private enum ShareHistoryKey: MetaControllerKey {
    typealias Value = ShareHistoryController
    static var testValue: Value? { ShareHistoryController() }
}

/// The same with a token (`listen(to:)`) and a preview value of its own.
private final class SharedItemsController: WeakMetaControllerConsumer, Sendable {
    let items = Inbox<Int>()
    let source: String
    let metaControllerReference = WeakMetaControllerReference()
    private let token = Lock<SubscriptionToken?>(nil)

    init(_ source: String) { self.source = source }

    func metaControllerDidArrive() {
        let items = self.items
        let token = signals?.listen(to: AppSignals.itemShared) { items.record($0) }
        self.token.withLock { $0 = token }
    }
}

private enum SharedItemsKey: MetaControllerKey {
    typealias Value = SharedItemsController
    static var testValue: Value? { SharedItemsController("test") }
    static var previewValue: Value? { SharedItemsController("preview") }
}

extension MetaControllerReader {
    fileprivate var shareHistory: ShareHistoryController? { self[ShareHistoryKey.self] }
    fileprivate var sharedItems: SharedItemsController? { self[SharedItemsKey.self] }
}

/// A screen's model: it listens from when it is passed the MetaController.
private final class ShareScreenModel: WeakMetaControllerConsumer, Sendable {
    let heard = Inbox<Int>()
    let metaControllerReference = WeakMetaControllerReference()
    func metaControllerDidArrive() {
        try? signals?.add(self, to: AppSignals.itemShared) { model, item in model.heard.record(item) }
    }
}

/// A key's test or preview value hears what the test dispatched before its slot was first read.
struct MetaControllerCatchUpTests {
    /// The definition of done of issue 46, in each test MetaController.
    @Test(arguments: ["withFakes", "strict", "preview"])
    func anAppWideListenerHearsWhatWasDispatchedBeforeItsSlotWasRead(_ kind: String) {
        let reports = Inbox<String>()
        let metaController =
            switch kind {
            case "withFakes": MetaController.withFakes()
            case "strict": MetaController.strict { reports.record("\($0)") }
            default: MetaController.preview()
            }
        metaController.signals.dispatch(AppSignals.itemShared, 1)
        metaController.signals.dispatch(AppSignals.itemShared, 2)
        #expect(metaController.shareHistory?.shareCount.value == 2)
        #expect(metaController.sharedItems?.items.values == [1, 2])
        metaController.signals.dispatch(AppSignals.itemShared, 3)
        #expect(metaController.shareHistory?.shareCount.value == 3)
        #expect(metaController.sharedItems?.items.values == [1, 2, 3])
        #expect(metaController.sharedItems?.source == (kind == "preview" ? "preview" : "test"))
        #expect(reports.values.isEmpty)
    }

    /// Docs/CustomControllers.md: `reset()` leaves the bus and what it kept, so the value made
    /// after it hears from the test MetaController's first line too.
    @Test func aValueMadeAfterResetHearsFromTheFirstLineToo() {
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(AppSignals.itemShared, 1)
        let first = metaController.shareHistory
        #expect(first?.shareCount.value == 1)
        metaController.reset()
        metaController.signals.dispatch(AppSignals.itemShared, 2)
        let second = metaController.shareHistory
        #expect(second !== first)
        #expect(second?.shareCount.value == 2)
    }

    @Test func aChildsFirstReadCatchesUpWithWhatTheChildDispatched() {
        let root = MetaController.withFakes()
        let child = MetaController(parent: root)
        child.signals.dispatch(AppSignals.itemShared, 1)
        #expect(child.shareHistory?.shareCount.value == 1)
        #expect(root.shareHistory === child.shareHistory)
    }

    @Test func aPlainMetaControllerMakesNothingAndNothingCatchesUp() {
        let metaController = MetaController()
        metaController.signals.dispatch(AppSignals.itemShared, 1)
        #expect(metaController.shareHistory == nil)
        let history = ShareHistoryController()
        metaController[ShareHistoryKey.self] = history
        #expect(history.shareCount.value == 0)
        metaController.signals.dispatch(AppSignals.itemShared, 2)
        #expect(history.shareCount.value == 1)
    }

    @Test func aScreenModelPassedLaterHearsOnlyWhatComesAfter() {
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(AppSignals.itemShared, 1)
        let model = ShareScreenModel()
        metaController.passMetaController(to: model)
        metaController.signals.dispatch(AppSignals.itemShared, 2)
        #expect(model.heard.values == [2])
    }

    @Test func aValueSetByHandInATestDoesNotCatchUp() {
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(AppSignals.itemShared, 1)
        let history = ShareHistoryController()
        metaController[ShareHistoryKey.self] = history
        #expect(history.shareCount.value == 0)
    }

    /// Past the record's limit the oldest payloads are gone: a strict MetaController says so.
    @Test func aStrictMetaControllerReportsWhatFellOutOfTheRecord() {
        let reports = Inbox<any StrictReport>()
        let metaController = MetaController.strict { reports.record($0) }
        for item in 1...10_005 { metaController.signals.dispatch(AppSignals.itemShared, item) }
        #expect(metaController.shareHistory?.shareCount.value == 10_000)
        let missed = reports.values.compactMap { $0 as? MissedDispatches }
        #expect(missed == [MissedDispatches(signal: "itemShared", listener: "ShareHistoryController", missed: 5)])
        #expect(reports.values.count == 1)
        #expect("\(missed.first.map { "\($0)" } ?? "")".contains("keeps the last 10,000 dispatches"))
    }

    @Test func withFakesDoesNotReportWhatFellOutOfTheRecord() {
        let metaController = MetaController.withFakes()
        for item in 1...10_001 { metaController.signals.dispatch(AppSignals.itemShared, item) }
        #expect(metaController.shareHistory?.shareCount.value == 10_000)
    }
}
