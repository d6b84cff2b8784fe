import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// `MetaController(parent:signals:)`: a scope with an event bus of its own.
extension MetaControllerTests {
    @Test func aChildMadeWithSignalsDispatchesOnThemAndItsParentsBusStaysQuiet() throws {
        let app = MetaController()
        let bus = Signals()
        let request = MetaController(parent: app, signals: bus)
        #expect(request.signals === bus)
        #expect(MetaController(parent: request).signals === bus)   // its children share it
        #expect(MetaController(parent: app).signals === app.signals)   // the default stays shared
        let appHeard = app.signals.record(TestSignals.word)
        let requestHeard = request.signals.record(TestSignals.word)
        let screen = Screen()
        request.passMetaController(to: screen)
        screen.signals?.dispatch(TestSignals.word, "secret")
        #expect(requestHeard.values == ["secret"])
        #expect(appHeard.values.isEmpty)
    }

    @Test func theParentsControllersKeepDispatchingOnTheParentsBus() throws {
        let app = MetaController()
        app.dataController = MemoryDataController()
        let request = MetaController(parent: app, signals: Signals())
        let appHeard = app.signals.record(DataChange.signal)
        let requestHeard = request.signals.record(DataChange.signal)
        try request.dataController?.save(Data("1".utf8), forKey: "shared")   // the app's store
        request.dataController = MemoryDataController()
        try request.dataController?.save(Data("2".utf8), forKey: "own")   // the request's store
        #expect(appHeard.values == [DataChange(key: "shared", kind: .saved)])
        #expect(requestHeard.values == [DataChange(key: "own", kind: .saved)])
    }

    /// Forty requests at once, each with its own bus and store, on two or more
    /// threads: each hears its own save and no other (run under the thread sanitizer too).
    @Test func concurrentRequestsWithTheirOwnBusesHearOnlyThemselves() async throws {
        let app = MetaController()
        app.logController = FakeLogController()
        let appHeard = app.signals.record(DataChange.signal)
        let heard = try await withThrowingTaskGroup(of: (Int, [DataChange]).self) { group in
            for number in 0..<40 {
                group.addTask {
                    let request = MetaController(parent: app, signals: Signals())
                    request.dataController = MemoryDataController()
                    let recording = request.signals.record(DataChange.signal)
                    let handler = Screen("request-\(number)")
                    request.passMetaController(to: handler)
                    try await handler.dataController?.save(Data("secret-of-\(number)".utf8), forKey: "secret-of-\(number)")
                    return (number, recording.values)
                }
            }
            var heard: [Int: [DataChange]] = [:]
            for try await (number, values) in group { heard[number] = values }
            return heard
        }
        #expect(heard.count == 40)
        for (number, values) in heard {
            #expect(values == [DataChange(key: "secret-of-\(number)", kind: .saved)])
        }
        #expect(appHeard.values.isEmpty)
    }
}
