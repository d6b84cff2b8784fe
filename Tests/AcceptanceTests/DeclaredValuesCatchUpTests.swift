import Foundation
import MetaController
import MetaControllerGraphModule
import MetaControllerTesting
import Testing

// Outside acceptance tests of the promises about keys' test and preview values, made on first
// read, and the catch-up of what they listen to (CustomControllers.md "Test and preview values",
// SwiftUI.md "App-wide listeners" and "Previews", TestingWithFakes.md, Signals.md rule 7,
// SeeingTheGraph.md). Written from the docs only.

// MARK: - Helpers

final class DVLocked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    var get: Value { lock.lock(); defer { lock.unlock() }; return value }
    func with<R>(_ body: (inout Value) -> R) -> R { lock.lock(); defer { lock.unlock() }; return body(&value) }
}

/// Runs `body` on another thread and waits for it at most `seconds`: false when it did not end.
func dvWithin(_ seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body(); done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

enum DV {
    static let number = Signal<Int>("dv-number")
    static let other = Signal<Int>("dv-other")
    static let replayed = Signal<Int>("dv-replayed", replaysLast: true)
    static let payloads = Signal<DVPayload>("dv-payloads")
}

/// A payload that counts how many of its kind are alive.
final class DVPayload: Sendable {
    let id: Int
    let alive: DVLocked<Int>
    init(_ id: Int, alive: DVLocked<Int>) {
        self.id = id
        self.alive = alive
        alive.with { $0 += 1 }
    }
    deinit { alive.with { $0 -= 1 } }
}

/// An app-wide listener: what it listens to, it starts listening to in `metaControllerDidArrive()`.
final class DVListener: WeakMetaControllerConsumer, Sendable {
    let metaControllerReference = WeakMetaControllerReference()
    let label: String
    let heard = DVLocked<[Int]>([])
    let arrivals = DVLocked(0)
    let tokens = DVLocked<[SubscriptionToken]>([])
    let heardAtAddReturn = DVLocked<[Int]?>(nil)
    let sawItselfInItsSlot = DVLocked<Bool?>(nil)
    let onArrive: @Sendable (DVListener) -> Void
    init(_ label: String = "test", onArrive: @escaping @Sendable (DVListener) -> Void) {
        self.label = label
        self.onArrive = onArrive
    }
    func hear(_ value: Int) { heard.with { $0.append(value) } }
    func metaControllerDidArrive() {
        arrivals.with { $0 += 1 }
        onArrive(self)
    }
}

final class DVPayloadListener: WeakMetaControllerConsumer, Sendable {
    let metaControllerReference = WeakMetaControllerReference()
    let heard = DVLocked<[Int]>([])
    func metaControllerDidArrive() {
        try? signals?.add(self, to: DV.payloads) { listener, payload in
            listener.heard.with { $0.append(payload.id) }
        }
    }
}

protocol DVTag { static func make() -> DVListener }

/// A key whose test value is made by `Tag`; it declares no preview value.
enum DVKey<Tag: DVTag>: MetaControllerKey {
    typealias Value = DVListener
    static var testValue: Value? { Tag.make() }
}

func dvAdd(_ listener: DVListener, to signal: Signal<Int> = DV.number) {
    try? listener.signals?.add(listener, to: signal) { listener, value in listener.hear(value) }
}

enum PlainTag: DVTag { static func make() -> DVListener { DVListener { dvAdd($0) } } }
enum PlainTag2: DVTag { static func make() -> DVListener { DVListener { dvAdd($0) } } }
enum TokenTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            guard let token = listener.signals?.listen(to: DV.number, handler: { [weak listener] value in listener?.hear(value) }) else { return }
            listener.tokens.with { $0.append(token) }
        }
    }
}
enum FilterTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            try? listener.signals?.add(listener, to: DV.number, where: { $0 % 2 == 0 }) { l, v in l.hear(v) }
        }
    }
}
enum OnceTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            try? listener.signals?.add(listener, to: DV.number, once: true, where: { $0 > 1 }) { l, v in l.hear(v) }
        }
    }
}
enum ReplayTag: DVTag { static func make() -> DVListener { DVListener { dvAdd($0, to: DV.replayed) } } }
enum QueueTag: DVTag {
    static let queue = DispatchQueue(label: "dv-serial")
    static func make() -> DVListener {
        DVListener { listener in
            try? listener.signals?.add(listener, to: DV.number, delivery: .queue(queue)) { l, v in l.hear(v) }
        }
    }
}
enum RemoveSelfTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            try? listener.signals?.add(listener, to: DV.number) { l, v in
                l.hear(v)
                if v == 2 { l.signals?.remove(l, from: DV.number) }
            }
        }
    }
}
enum ReentrantTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            try? listener.signals?.add(listener, to: DV.number) { l, v in
                l.hear(v)
                if v == 2 { l.signals?.dispatch(DV.number, 100) }
            }
        }
    }
}
enum ArriveDispatchTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            dvAdd(listener)
            listener.signals?.dispatch(DV.number, 50)
        }
    }
}
enum CountedTag: DVTag {
    static let made = DVLocked(0)
    static func make() -> DVListener { made.with { $0 += 1 }; return DVListener { dvAdd($0) } }
}
enum HandTag: DVTag {
    static let made = DVLocked(0)
    static func make() -> DVListener { made.with { $0 += 1 }; return DVListener { dvAdd($0) } }
}
enum ManyTag: DVTag {
    static let made = DVLocked(0)
    static let arrivals = DVLocked(0)
    static func make() -> DVListener {
        made.with { $0 += 1 }
        return DVListener { listener in
            ManyTag.arrivals.with { $0 += 1 }
            dvAdd(listener)
        }
    }
}
enum OnceThreadTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            try? listener.signals?.add(listener, to: DV.number, once: true) { l, v in l.hear(v) }
        }
    }
}
/// Its value reads another key's test value and the log controller while it arrives.
enum NestedTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            _ = listener[DVKey<PlainTag2>.self]
            _ = listener.logController
            dvAdd(listener)
        }
    }
}
enum GraphTag: DVTag { static func make() -> DVListener { DVListener { _ in } } }
enum MainActorTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            try? listener.signals?.add(listener, to: DV.number, delivery: .mainActor) { l, v in l.hear(v) }
        }
    }
}
/// A token listener removed from its handler while it catches up: its token is not yet
/// returned then, so it removes the signal (`removeSignal` removes every listener of it).
enum CancelSelfTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            guard
                let token = listener.signals?.listen(
                    to: DV.number,
                    handler: { [weak listener] value in
                        guard let listener else { return }
                        listener.hear(value)
                        if value == 2 { listener.signals?.removeSignal(DV.number) }
                    })
            else { return }
            listener.tokens.with { $0.append(token) }
        }
    }
}
/// Reads its own slot while it is handed the MetaController.
enum SelfReadTag: DVTag {
    static let arrivals = DVLocked(0)
    static func make() -> DVListener {
        DVListener { listener in
            SelfReadTag.arrivals.with { $0 += 1 }
            let own = listener[DVKey<SelfReadTag>.self]
            listener.sawItselfInItsSlot.with { $0 = own === listener }
            dvAdd(listener)
        }
    }
}
/// Records what it had heard the moment `add` returned.
enum BeforeReturnTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            dvAdd(listener)
            let atReturn = listener.heard.get
            listener.heardAtAddReturn.with { $0 = atReturn }
        }
    }
}
/// Listens to two signals.
enum TwoSignalsTag: DVTag {
    static func make() -> DVListener {
        DVListener { listener in
            dvAdd(listener, to: DV.number)
            try? listener.signals?.add(listener, to: DV.other) { l, v in l.hear(-v) }
        }
    }
}

enum DVPayloadKey: MetaControllerKey {
    typealias Value = DVPayloadListener
    static var testValue: Value? { DVPayloadListener() }
}

/// A key with a test value and a preview value of its own.
enum DVPreviewKey: MetaControllerKey {
    typealias Value = DVListener
    static var testValue: Value? { DVListener("test") { dvAdd($0) } }
    static var previewValue: Value? { DVListener("preview") { dvAdd($0) } }
}

/// A key that declares no test value.
enum DVEmptyKey: MetaControllerKey { typealias Value = DVListener }

/// A consumer (a screen's model) that reads slots through its own subscript and listens when it arrives.
final class DVModel: WeakMetaControllerConsumer, Sendable {
    let metaControllerReference = WeakMetaControllerReference()
    let heard = DVLocked<[Int]>([])
    let listens: Bool
    init(listens: Bool = false) { self.listens = listens }
    func metaControllerDidArrive() {
        guard listens else { return }
        try? signals?.add(self, to: DV.number) { model, value in model.heard.with { $0.append(value) } }
    }
    func readPlain() -> DVListener? { self[DVKey<PlainTag>.self] }
    func readEmpty() -> DVListener? { self[DVEmptyKey.self] }
}

final class DVGraphConsumer: MetaControllerConsumer {
    var metaController: MetaController?
    static var requiredControllers: [MetaControllerSlot] { [.custom(DVKey<GraphTag>.self)] }
}

func dvStrict() -> (MetaController, DVLocked<[any StrictReport]>) {
    let reports = DVLocked<[any StrictReport]>([])
    let metaController = MetaController.strict { report in reports.with { $0.append(report) } }
    return (metaController, reports)
}

func dvMissed(_ reports: DVLocked<[any StrictReport]>) -> [MissedDispatches] {
    reports.get.compactMap { $0 as? MissedDispatches }
}

// MARK: - MetaController: when declared values are made

@Suite("Declared values: MetaController makes them on first read (withFakes, strict, preview, plain, child, reset)")
struct DeclaredValuesCatchUpMakingTests {
    @Test func builtInFakesAreThereAtOnceInWithFakesAndPreview() {
        for metaController in [MetaController.withFakes(), MetaController.preview()] {
            #expect(metaController.fakeLogController != nil)
            #expect(metaController.fakeLocationController != nil)
            #expect(metaController.fakeApiController != nil)
            #expect(metaController.fakeDataController != nil)
            #expect(metaController.fakeNotificationController != nil)
        }
    }

    @Test func strictStartsEmptyAndItsOwnReadsAreNotReported() {
        let (metaController, reports) = dvStrict()
        #expect(metaController.apiController == nil)
        #expect(metaController[DVEmptyKey.self] == nil)
        #expect(reports.get.isEmpty)
    }

    @Test func keyValueIsMadeOnFirstReadAndHandedTheMetaController() throws {
        for metaController in [MetaController.withFakes(), dvStrict().0] {
            let value = try #require(metaController[DVKey<PlainTag>.self])
            #expect(value.metaController === metaController)
            #expect(value.arrivals.get == 1)
            #expect(metaController[DVKey<PlainTag>.self] === value)   // kept
            #expect(value.arrivals.get == 1)
        }
    }

    @Test func eachTestMetaControllerMakesItsOwn() {
        let first = MetaController.withFakes()[DVKey<PlainTag>.self]
        let second = MetaController.withFakes()[DVKey<PlainTag>.self]
        #expect(first != nil && second != nil)
        #expect(first !== second)
    }

    @Test func valueIsNotMadeUntilRead() {
        let before = CountedTag.made.get
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(DV.number, 1)
        #expect(CountedTag.made.get == before)
        _ = metaController[DVKey<CountedTag>.self]
        #expect(CountedTag.made.get == before + 1)
    }

    @Test func plainMetaControllerNeverMakesThem() {
        let metaController = MetaController()
        let model = DVModel()
        metaController.passMetaController(to: model)
        #expect(metaController[DVKey<PlainTag>.self] == nil)
        #expect(model.readPlain() == nil)
        #expect(MetaController(parent: metaController)[DVKey<PlainTag>.self] == nil)
    }

    @Test func previewUsesPreviewValueAndTestMetaControllersTheTestValue() {
        #expect(MetaController.preview()[DVPreviewKey.self]?.label == "preview")
        #expect(MetaController.withFakes()[DVPreviewKey.self]?.label == "test")
        #expect(dvStrict().0[DVPreviewKey.self]?.label == "test")
    }

    @Test func previewFallsBackToTheTestValue() {
        #expect(MetaController.preview()[DVKey<PlainTag>.self] != nil)
    }

    @Test func readInAChildIsKeptInTheTestMetaController() throws {
        let metaController = MetaController.withFakes()
        let child = MetaController(parent: metaController)
        child.signals.dispatch(DV.number, 1)
        child.signals.dispatch(DV.number, 2)
        let value = try #require(child[DVKey<PlainTag>.self])
        #expect(metaController[DVKey<PlainTag>.self] === value)
        #expect(value.metaController === metaController)
        #expect(value.heard.get == [1, 2])
    }

    @Test func childOfAStrictMetaControllerFillsAndDoesNotReport() {
        let (metaController, reports) = dvStrict()
        let child = MetaController(parent: metaController)
        let model = DVModel()
        child.passMetaController(to: model)
        #expect(model.readPlain() != nil)
        #expect(model.readPlain() === metaController[DVKey<PlainTag>.self])
        #expect(reports.get.isEmpty)
    }

    @Test func strictReportsOnlyASlotWithoutATestValue() {
        let (metaController, reports) = dvStrict()
        let model = DVModel()
        metaController.passMetaController(to: model)
        #expect(model.readPlain() != nil)
        #expect(reports.get.isEmpty)
        #expect(model.readEmpty() == nil)
        #expect(model.readEmpty() == nil)
        #expect(reports.get.compactMap { $0 as? UnfilledSlotRead }.count == 2)
    }

    @Test func resetEmptiesTheSlotAndTheNextReadMakesANewValue() throws {
        let metaController = MetaController.withFakes()
        let first = try #require(metaController[DVKey<PlainTag>.self])
        metaController.reset()
        let second = try #require(metaController[DVKey<PlainTag>.self])
        #expect(first !== second)
        #expect(second.metaController === metaController)
    }

    @Test func aSlotSetByHandKeepsWhatWasSetAndNoValueIsMade() {
        let before = HandTag.made.get
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(DV.number, 1)
        let mine = DVListener("mine") { dvAdd($0) }
        metaController[DVKey<HandTag>.self] = mine
        #expect(metaController[DVKey<HandTag>.self] === mine)
        #expect(HandTag.made.get == before)
        // A value set by hand hears only what comes after.
        #expect(mine.heard.get.isEmpty)
        metaController.signals.dispatch(DV.number, 2)
        #expect(mine.heard.get == [2])
    }

    @Test func valueMayReadOtherSlotsWhileItArrives() {
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(DV.number, 7)
        let finished = dvWithin(20) {
            let value = metaController[DVKey<NestedTag>.self]
            #expect(value?.heard.get == [7])
            #expect(metaController[DVKey<PlainTag2>.self]?.heard.get == [7])
        }
        #expect(finished, "reading a value whose metaControllerDidArrive reads other slots hung")
    }
}

// MARK: - Signals: the catch-up of an app-wide listener

@Suite("Declared values: Signals catch-up of an app-wide listener (rule 7, MissedDispatches, hostile use)")
struct DeclaredValuesCatchUpSignalsTests {
    @Test func hearsWhatWasDispatchedBeforeTheFirstReadInOrderOnce() throws {
        for metaController in [MetaController.withFakes(), dvStrict().0, MetaController.preview()] {
            for value in 1...5 { metaController.signals.dispatch(DV.number, value) }
            metaController.signals.dispatch(DV.other, 99)
            let listener = try #require(metaController[DVKey<PlainTag>.self])
            #expect(listener.heard.get == [1, 2, 3, 4, 5])
            metaController.signals.dispatch(DV.number, 6)
            #expect(listener.heard.get == [1, 2, 3, 4, 5, 6])
        }
    }

    @Test func caughtUpBeforeAddReturns() {
        let metaController = MetaController.withFakes()
        for value in 1...3 { metaController.signals.dispatch(DV.number, value) }
        let listener = metaController[DVKey<BeforeReturnTag>.self]
        #expect(listener?.heardAtAddReturn.get == [1, 2, 3])
    }

    @Test func eachSignalCatchesUpWithItsOwnPayloadsInOrder() {
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(DV.number, 1)
        metaController.signals.dispatch(DV.other, 10)
        metaController.signals.dispatch(DV.number, 2)
        metaController.signals.dispatch(DV.other, 20)
        #expect(metaController[DVKey<TwoSignalsTag>.self]?.heard.get == [1, 2, -10, -20])
    }

    @Test func aSecondValueMadeLaterAlsoHearsFromTheFirstLine() {
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(DV.number, 1)
        let first = metaController[DVKey<PlainTag>.self]
        metaController.signals.dispatch(DV.number, 2)
        let second = metaController[DVKey<PlainTag2>.self]
        #expect(first?.heard.get == [1, 2])
        #expect(second?.heard.get == [1, 2])
        metaController.signals.dispatch(DV.number, 3)
        #expect(first?.heard.get == [1, 2, 3])
        #expect(second?.heard.get == [1, 2, 3])
    }

    @Test func aValueMadeThroughAConsumerCatchesUp() {
        let (metaController, reports) = dvStrict()
        metaController.signals.dispatch(DV.number, 1)
        let model = DVModel()
        metaController.passMetaController(to: model)
        #expect(model.readPlain()?.heard.get == [1])
        #expect(reports.get.isEmpty)
    }

    @Test func aValueMadeByAnAuditCatchesUp() {
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(DV.number, 1)
        #expect(metaController.contains(.custom(DVKey<PlainTag>.self)))
        metaController.signals.dispatch(DV.number, 2)
        #expect(metaController[DVKey<PlainTag>.self]?.heard.get == [1, 2])
    }

    @Test func previewHearsWhatItsConfigurationDispatched() {
        let metaController = MetaController.preview { metaController in
            metaController.signals.dispatch(DV.number, 1)
            metaController.signals.dispatch(DV.number, 2)
        }
        #expect(metaController[DVKey<PlainTag>.self]?.heard.get == [1, 2])
    }

    @Test func tokenFormCatchesUpToo() {
        let metaController = MetaController.withFakes()
        for value in 1...3 { metaController.signals.dispatch(DV.number, value) }
        let listener = metaController[DVKey<TokenTag>.self]
        #expect(listener?.heard.get == [1, 2, 3])
        metaController.signals.dispatch(DV.number, 4)
        #expect(listener?.heard.get == [1, 2, 3, 4])
    }

    @Test func filterApplies() {
        let metaController = MetaController.withFakes()
        for value in 1...6 { metaController.signals.dispatch(DV.number, value) }
        #expect(metaController[DVKey<FilterTag>.self]?.heard.get == [2, 4, 6])
    }

    @Test func onceAppliesAfterTheFilter() {
        let metaController = MetaController.withFakes()
        for value in 1...4 { metaController.signals.dispatch(DV.number, value) }
        let listener = metaController[DVKey<OnceTag>.self]
        #expect(listener?.heard.get == [2])
        metaController.signals.dispatch(DV.number, 5)
        #expect(listener?.heard.get == [2])
        #expect(metaController.signals.listenerCount(for: DV.number) == 0)
    }

    /// "a `replaysLast` signal's last payload is heard once"; rule 7: each payload dispatched since, once, in order.
    @Test func replaysLastPayloadIsHeardOnce() {
        let metaController = MetaController.withFakes()
        for value in 1...3 { metaController.signals.dispatch(DV.replayed, value) }
        let heard = metaController[DVKey<ReplayTag>.self]?.heard.get ?? []
        #expect(heard.filter { $0 == 3 }.count == 1)
        #expect(heard == [1, 2, 3])
    }

    @Test func queueDeliveryCatchesUpInOrder() {
        let metaController = MetaController.withFakes()
        for value in 1...3 { metaController.signals.dispatch(DV.number, value) }
        let listener = metaController[DVKey<QueueTag>.self]
        metaController.signals.dispatch(DV.number, 4)
        QueueTag.queue.sync {}
        #expect(listener?.heard.get == [1, 2, 3, 4])
    }

    /// Rule 7: "through its filter, `once` and delivery": a main-actor listener hears the caught-up
    /// payloads on the main actor, in order, once (waited for with a deadline, never a sleep).
    @Test @MainActor func mainActorDeliveryCatchesUpInOrderOnce() async {
        let metaController = MetaController.withFakes()
        for value in 1...3 { metaController.signals.dispatch(DV.number, value) }
        let listener = metaController[DVKey<MainActorTag>.self]
        metaController.signals.dispatch(DV.number, 4)
        let deadline = Date().addingTimeInterval(20)
        while (listener?.heard.get.count ?? 0) < 4 && Date() < deadline { await Task.yield() }
        #expect(listener?.heard.get == [1, 2, 3, 4])
    }

    @Test func eachTestMetaControllerKeepsItsOwnRecord() {
        let first = MetaController.withFakes()
        let second = MetaController.withFakes()
        first.signals.dispatch(DV.number, 1)
        second.signals.dispatch(DV.number, 2)
        #expect(first[DVKey<PlainTag>.self]?.heard.get == [1])
        #expect(second[DVKey<PlainTag>.self]?.heard.get == [2])
    }

    @Test func previewValueCatchesUpWithTheConfiguration() {
        let metaController = MetaController.preview { $0.signals.dispatch(DV.number, 9) }
        let value = metaController[DVPreviewKey.self]
        #expect(value?.label == "preview")
        #expect(value?.heard.get == [9])
    }

    @Test func aScreenModelPassedLaterHearsOnlyWhatComesAfter() {
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(DV.number, 1)
        let model = DVModel(listens: true)
        metaController.passMetaController(to: model)
        #expect(model.heard.get.isEmpty)
        metaController.signals.dispatch(DV.number, 2)
        #expect(model.heard.get == [2])
    }

    @Test func aListenerTheValueAddsLaterHearsOnlyWhatComesAfter() throws {
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(DV.number, 1)
        let value = try #require(metaController[DVKey<PlainTag>.self])
        #expect(value.heard.get == [1])
        let later = DVLocked<[Int]>([])
        let token = metaController.signals.listen(to: DV.number) { value in later.with { $0.append(value) } }
        #expect(later.get.isEmpty)
        metaController.signals.dispatch(DV.number, 2)
        #expect(later.get == [2])
        token.cancel()
    }

    @Test func aListenerAddedByTheTestDirectlyHearsOnlyWhatComesAfter() {
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(DV.number, 1)
        let heard = DVLocked<[Int]>([])
        let token = metaController.signals.listen(to: DV.number) { value in heard.with { $0.append(value) } }
        #expect(heard.get.isEmpty)
        token.cancel()
    }

    @Test func exactlyTenThousandKeptIsHeardInFullWithoutReport() {
        let (metaController, reports) = dvStrict()
        for value in 1...10_000 { metaController.signals.dispatch(DV.number, value) }
        let heard = metaController[DVKey<PlainTag>.self]?.heard.get ?? []
        #expect(heard == Array(1...10_000), "heard \(heard.count): \(heard.prefix(3))...\(heard.suffix(3))")
        #expect(dvMissed(reports).isEmpty)
    }

    @Test func oneOverTheLimitIsReportedByStrict() throws {
        let (metaController, reports) = dvStrict()
        for value in 1...10_001 { metaController.signals.dispatch(DV.number, value) }
        let heard = metaController[DVKey<PlainTag>.self]?.heard.get ?? []
        #expect(heard == Array(2...10_001), "heard \(heard.count): \(heard.prefix(3))...\(heard.suffix(3))")
        let missed = dvMissed(reports)
        try #require(missed.count == 1)
        #expect(missed[0].missed == 1)
        #expect(missed[0].signal == "dv-number")
        #expect(missed[0].listener?.contains("DVListener") == true)
        #expect(!missed[0].description.isEmpty)
        #expect(reports.get.count == 1)
    }

    @Test func theLimitIsOfAllSignalsTogether() throws {
        let (metaController, reports) = dvStrict()
        for value in 1...5 { metaController.signals.dispatch(DV.number, value) }
        for value in 1...10_000 { metaController.signals.dispatch(DV.other, value) }
        #expect(metaController[DVKey<PlainTag>.self]?.heard.get == [])
        let missed = dvMissed(reports)
        try #require(missed.count == 1)
        #expect(missed[0].missed == 5)
    }

    @Test func tokenListenerPastTheLimitIsReportedWithoutAListenerName() throws {
        let (metaController, reports) = dvStrict()
        for value in 1...10_003 { metaController.signals.dispatch(DV.number, value) }
        let heard = metaController[DVKey<TokenTag>.self]?.heard.get ?? []
        #expect(heard == Array(4...10_003), "heard \(heard.count): \(heard.prefix(3))...\(heard.suffix(3))")
        let missed = dvMissed(reports)
        try #require(missed.count == 1)
        #expect(missed[0].missed == 3)
        #expect(missed[0].listener == nil)
    }

    @Test func withFakesPastTheLimitHearsWhatIsKept() {
        let metaController = MetaController.withFakes()
        for value in 1...10_500 { metaController.signals.dispatch(DV.number, value) }
        let heard = metaController[DVKey<PlainTag>.self]?.heard.get ?? []
        #expect(heard == Array(501...10_500), "heard \(heard.count): \(heard.prefix(3))...\(heard.suffix(3))")
    }

    @Test func plainBusKeepsNothing() {
        let metaController = MetaController()
        metaController.signals.dispatch(DV.number, 1)
        let value = DVListener { dvAdd($0) }
        metaController[DVKey<PlainTag>.self] = value
        #expect(value.heard.get.isEmpty)
    }

    // MARK: Hostile use

    @Test func hundredThousandDispatchesBeforeTheFirstRead() throws {
        let (metaController, reports) = dvStrict()
        let alive = DVLocked(0)
        for id in 0..<100_000 { metaController.signals.dispatch(DV.payloads, DVPayload(id, alive: alive)) }
        // Memory stays bounded: the bus keeps its last 10,000 dispatches, not all.
        #expect(alive.get <= 10_000)
        let listener = try #require(metaController[DVPayloadKey.self])
        let heard = listener.heard.get
        #expect(heard == Array(90_000..<100_000), "heard \(heard.count): \(heard.prefix(3))...\(heard.suffix(3))")
        let missed = dvMissed(reports)
        try #require(missed.count == 1)
        #expect(missed[0].missed == 90_000)
        #expect(missed[0].signal == "dv-payloads")
        #expect(missed[0].listener?.contains("DVPayloadListener") == true)
    }

    @Test func hundredThousandDispatchesInWithFakes() throws {
        let metaController = MetaController.withFakes()
        let alive = DVLocked(0)
        for id in 0..<100_000 { metaController.signals.dispatch(DV.payloads, DVPayload(id, alive: alive)) }
        #expect(alive.get <= 10_000)
        let listener = try #require(metaController[DVPayloadKey.self])
        let heard = listener.heard.get
        #expect(heard == Array(90_000..<100_000), "heard \(heard.count): \(heard.prefix(3))...\(heard.suffix(3))")
    }

    @Test func handlerDispatchingOnTheSameSignalWhileCatchingUp() {
        let metaController = MetaController.withFakes()
        for value in 1...3 { metaController.signals.dispatch(DV.number, value) }
        let outcome = DVLocked<[Int]?>(nil)
        let finished = dvWithin(20) { outcome.with { $0 = metaController[DVKey<ReentrantTag>.self]?.heard.get } }
        #expect(finished, "catch-up with a reentrant dispatch hung")
        let heard = outcome.get ?? []
        for value in [1, 2, 3, 100] { #expect(heard.filter { $0 == value }.count == 1, "heard \(heard)") }
        #expect(heard.filter { $0 != 100 } == [1, 2, 3])
    }

    @Test func metaControllerDidArriveDispatchingOnTheSameSignal() {
        let metaController = MetaController.withFakes()
        for value in 1...3 { metaController.signals.dispatch(DV.number, value) }
        let outcome = DVLocked<[Int]?>(nil)
        let finished = dvWithin(20) { outcome.with { $0 = metaController[DVKey<ArriveDispatchTag>.self]?.heard.get } }
        #expect(finished, "a value dispatching in metaControllerDidArrive hung")
        #expect(outcome.get == [1, 2, 3, 50])
    }

    @Test func listenerRemovingItselfWhileCatchingUpHearsNoMore() throws {
        let metaController = MetaController.withFakes()
        for value in 1...5 { metaController.signals.dispatch(DV.number, value) }
        let listener = try #require(metaController[DVKey<RemoveSelfTag>.self])
        #expect(listener.heard.get == [1, 2])
        metaController.signals.dispatch(DV.number, 6)
        #expect(listener.heard.get == [1, 2])
        #expect(metaController.signals.listenerCount(for: DV.number) == 0)
    }

    @Test func tokenListenerRemovedFromItsHandlerWhileCatchingUpHearsNoMore() {
        let metaController = MetaController.withFakes()
        for value in 1...5 { metaController.signals.dispatch(DV.number, value) }
        let listener = metaController[DVKey<CancelSelfTag>.self]
        #expect(listener?.heard.get == [1, 2])
        metaController.signals.dispatch(DV.number, 6)
        #expect(listener?.heard.get == [1, 2])
    }

    /// "both get the one stored first. Only that one is handed the MetaController": stored, then handed.
    @Test func aValueReadingItsOwnSlotWhileItArrivesFindsItself() {
        let before = SelfReadTag.arrivals.get
        let metaController = MetaController.withFakes()
        metaController.signals.dispatch(DV.number, 1)
        let outcome = DVLocked<DVListener?>(nil)
        #expect(dvWithin(20) { outcome.with { $0 = metaController[DVKey<SelfReadTag>.self] } }, "reading its own slot while it arrives hung")
        let listener = outcome.get
        #expect(listener?.sawItselfInItsSlot.get == true)
        #expect(SelfReadTag.arrivals.get == before + 1)
        #expect(listener?.heard.get == [1])
    }

    @Test func testValueReadFromManyThreadsAtOnce() {
        for _ in 0..<50 {
            let arrivalsBefore = ManyTag.arrivals.get
            let metaController = MetaController.withFakes()
            for value in 1...100 { metaController.signals.dispatch(DV.number, value) }
            let seen = DVLocked<[ObjectIdentifier?]>([])
            let finished = dvWithin(30) {
                DispatchQueue.concurrentPerform(iterations: 8) { _ in
                    let value = metaController[DVKey<ManyTag>.self]
                    seen.with { $0.append(value.map(ObjectIdentifier.init)) }
                }
            }
            #expect(finished)
            let stored = metaController[DVKey<ManyTag>.self]
            #expect(stored != nil)
            #expect(seen.get.count == 8)
            #expect(seen.get.allSatisfy { $0 == stored.map(ObjectIdentifier.init) }, "threads got different values")
            #expect(stored?.arrivals.get == 1)
            #expect(ManyTag.arrivals.get == arrivalsBefore + 1, "only the stored one is handed the MetaController")
            let storedHeard = stored?.heard.get ?? []
            #expect(storedHeard == Array(1...100), "heard \(storedHeard.count) payloads")
        }
    }

    /// The dispatcher dispatches 100 payloads, then the rest while the main thread reads the slot;
    /// fewer than 10,000 in all, so every payload must be heard exactly once whatever the interleaving.
    @Test(arguments: [false, true]) func dispatchFromAnotherThreadWhileTheValueIsFirstRead(strict: Bool) {
        let count = 9_000   // below the 10,000 kept, so nothing may fall out of the record
        for _ in 0..<30 {
            let (metaController, reports) = strict ? dvStrict() : (MetaController.withFakes(), DVLocked<[any StrictReport]>([]))
            let started = DispatchSemaphore(value: 0)
            let go = DispatchSemaphore(value: 0)
            let dispatcherDone = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for value in 0..<count {
                    metaController.signals.dispatch(DV.number, value)
                    if value == 100 {
                        started.signal()
                        _ = go.wait(timeout: .now() + 30)
                    }
                }
                dispatcherDone.signal()
            }
            #expect(started.wait(timeout: .now() + 30) == .success)
            go.signal()
            let listener = DVLocked<DVListener?>(nil)
            #expect(dvWithin(30) { listener.with { $0 = metaController[DVKey<PlainTag>.self] } }, "the first read hung")
            #expect(dispatcherDone.wait(timeout: .now() + 30) == .success, "the dispatcher hung")
            let heard = listener.get?.heard.get ?? []
            let distinct = Set(heard)
            let missing = count - distinct.intersection(Set(0..<count)).count
            #expect(heard.count == count, "heard \(heard.count) payloads, \(heard.count - distinct.count) twice, \(missing) never")
            #expect(distinct.count == heard.count, "\(heard.count - distinct.count) payloads heard twice")
            #expect(missing == 0, "\(missing) payloads never heard")
            #expect(Array(heard.prefix(101)) == Array(0...100), "the earlier ones first, in order")
            #expect(reports.get.isEmpty, "\(reports.get.map(\.description))")
        }
    }

    /// Many readers at once while another thread dispatches: one value, handed once, each payload heard once.
    @Test func manyReadersAndADispatcherAtOnce() {
        let count = 9_000
        for _ in 0..<20 {
            let (metaController, reports) = dvStrict()
            let started = DispatchSemaphore(value: 0)
            let go = DispatchSemaphore(value: 0)
            let dispatcherDone = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for value in 0..<count {
                    metaController.signals.dispatch(DV.number, value)
                    if value == 50 {
                        started.signal()
                        _ = go.wait(timeout: .now() + 30)
                    }
                }
                dispatcherDone.signal()
            }
            #expect(started.wait(timeout: .now() + 30) == .success)
            go.signal()
            let seen = DVLocked<Set<ObjectIdentifier?>>([])
            #expect(
                dvWithin(30) {
                    DispatchQueue.concurrentPerform(iterations: 6) { _ in
                        let value = metaController[DVKey<PlainTag2>.self]
                        seen.with { _ = $0.insert(value.map(ObjectIdentifier.init)) }
                    }
                }, "concurrent first reads hung")
            #expect(dispatcherDone.wait(timeout: .now() + 30) == .success, "the dispatcher hung")
            let stored = metaController[DVKey<PlainTag2>.self]
            #expect(seen.get == [stored.map(ObjectIdentifier.init)], "readers got \(seen.get.count) different values")
            #expect(stored?.arrivals.get == 1)
            let heard = stored?.heard.get ?? []
            let distinct = Set(heard)
            #expect(heard.count == count && distinct.count == count, "heard \(heard.count), \(distinct.count) distinct of \(count)")
            #expect(reports.get.isEmpty, "\(reports.get.map(\.description))")
        }
    }

    @Test func onceListenerWithADispatchFromAnotherThreadHearsExactlyOne() {
        for _ in 0..<20 {
            let metaController = MetaController.withFakes()
            let started = DispatchSemaphore(value: 0)
            let dispatcherDone = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for value in 0..<5_000 {
                    metaController.signals.dispatch(DV.number, value)
                    if value == 10 { started.signal() }
                }
                dispatcherDone.signal()
            }
            #expect(started.wait(timeout: .now() + 30) == .success)
            let listener = DVLocked<DVListener?>(nil)
            #expect(dvWithin(30) { listener.with { $0 = metaController[DVKey<OnceThreadTag>.self] } })
            #expect(dispatcherDone.wait(timeout: .now() + 30) == .success)
            #expect(listener.get?.heard.get == [0])
        }
    }
}

// MARK: - MetaControllerGraph

@Suite("Declared values: MetaControllerGraph")
struct DeclaredValuesCatchUpGraphTests {
    @Test @MainActor func graphCompilesWithTheModuleImportedAndCountsADeclaredSlotAsFilled() {
        let metaController = MetaController.withFakes()
        let graph = metaController.graph(consumers: [DVGraphConsumer.self])
        #expect(graph.verification.isSatisfied, "\(graph.verification)")
        #expect(!graph.mermaid.isEmpty)
        #expect(!graph.dot.isEmpty)
    }

    @Test @MainActor func aPlainMetaControllerLacksTheDeclaredSlot() {
        let graph = MetaController().graph(consumers: [DVGraphConsumer.self])
        #expect(!graph.verification.isSatisfied)
    }

    @Test func auditCountsADeclaredSlotAsFilled() {
        let metaController = MetaController.withFakes()
        let consumer = DVGraphConsumer()
        #expect(metaController.audit(consumer).isSatisfied)
        #expect(metaController.contains(.custom(DVKey<GraphTag>.self)))
        #expect(!MetaController().contains(.custom(DVKey<GraphTag>.self)))
    }
}
