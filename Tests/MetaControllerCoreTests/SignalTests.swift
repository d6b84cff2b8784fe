import MetaController
@testable import MetaControllerCore
import Testing

/// `Signal`, the key: two keys are the same signal when their names, payload types and replay
/// settings are equal, and `Hashable` asks that equal keys hash alike.
@Suite struct SignalTests {
    /// A key made after every equal key went away (so its identity, and its number, are new)
    /// hashes as the first did: a `Set` or a `Dictionary` of keys finds it.
    @Test func equalKeysHashAlikeWhenTheyWereNotAliveAtOnce() {
        let name = "hashed-\(UInt64.random(in: 0...UInt64.max))"
        var stored: Set<Signal<Int>> = [Signal<Int>(name)]
        let firstHash = stored.first!.hashValue
        let firstNumber = stored.first!.number
        stored = []
        // Every key of the name is gone: the next one has another number, and the same hash.
        let again = Signal<Int>(name)
        #expect(again.number != firstNumber)
        #expect(again.hashValue == firstHash)
        var byKey: [Signal<Int>: String] = [:]
        byKey[again] = "kept"
        #expect(byKey[Signal<Int>(name)] == "kept")
    }

    /// Keys that differ in payload type or replay setting are other signals, and (almost always)
    /// hash apart.
    @Test func keysThatDifferInTypeOrReplayAreOtherSignals() {
        let name = "kinds-\(UInt64.random(in: 0...UInt64.max))"
        let plain = Signal<Int>(name), replaying = Signal<Int>(name, replaysLast: true)
        #expect(plain != replaying)
        #expect(Set([plain, replaying, Signal<Int>(name)]).count == 2)
        #expect(Signal<String>(name).hashValue != plain.hashValue)
    }
}
