import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

@Suite struct RecordingTests {
    @Test func recordsEveryPayloadOfASignalInOrder() {
        let signals = Signals()
        let recording = signals.record(TestSignals.ping)
        signals.dispatch(TestSignals.ping, 1)
        signals.dispatch(TestSignals.word, "not recorded")
        signals.dispatch(TestSignals.ping, 2)
        #expect(recording.values == [1, 2])
        #expect(recording.count == 2)
        #expect(recording.last == 2)
    }

    @Test func recordsAReplayedPayloadFirst() {
        let signals = Signals()
        signals.dispatch(TestSignals.state, "signed in")
        let recording = signals.record(TestSignals.state)
        signals.dispatch(TestSignals.state, "signed out")
        #expect(recording.values == ["signed in", "signed out"])
    }

    @Test func recordsAPropertyWithOrWithoutItsCurrentValue() {
        let property = Property(1)
        let withReplay = property.record(replay: true)
        let withoutReplay = property.record()
        property.value = 2
        #expect(withReplay.values == [1, 2])
        #expect(withoutReplay.values == [2])
    }

    @Test func cancelStopsRecordingAndKeepsWhatWasRecorded() {
        let signals = Signals()
        let recording = signals.record(TestSignals.ping)
        signals.dispatch(TestSignals.ping, 1)
        recording.cancel()
        signals.dispatch(TestSignals.ping, 2)
        #expect(recording.values == [1])
        #expect(signals.listenerCount(for: TestSignals.ping) == 0)
    }

    @Test func releasingARecordingStopsIt() {
        let property = Property(0)
        var recording: Recording<Int>? = property.record()
        property.value = 1
        #expect(recording?.values == [1])
        #expect(property.subscriberCount == 1)
        recording = nil
        #expect(property.subscriberCount == 0)
    }

    @Test func removeAllForgetsValuesAndGoesOnRecording() {
        let signals = Signals()
        let recording = signals.record(TestSignals.ping)
        signals.dispatch(TestSignals.ping, 1)
        recording.removeAll()
        signals.dispatch(TestSignals.ping, 2)
        #expect(recording.values == [2])
    }
}
