// Uses the availability check must report (marked) and must accept (unmarked).
// Not part of the package; `.ci/check-availability --self-test` type-checks it.
import Foundation
import Synchronization

let counter = Mutex(0)  // expect: too new

func validated(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)  // expect: too new
}

// Back-deployed (`@backDeployed(before: iOS 17)`): usable at the minimums.
func stream() -> AsyncStream<Int> {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    continuation.finish()
    return stream
}

struct Holder: ~Copyable {
    let count: Atomic<Int>  // expect: too new
}

func halfGuarded(_ bytes: [UInt8]) -> String? {
    if #available(iOS 18, *) {
        return String(validating: bytes, as: UTF8.self)  // expect: too new
    }
    return nil
}

func guarded(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return String(validating: bytes, as: UTF8.self)
    }
    return String(decoding: bytes, as: UTF8.self)
}

func guardedEarly() -> Int {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return 0 }
    let value = Atomic<Int>(1)
    return value.load(ordering: .relaxed)
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class Box: Sendable {
    let value = Mutex(0)
}

func olderThanTheMinimums(_ url: URL) async throws -> Duration {
    let start = ContinuousClock.now
    try await Task.sleep(for: .milliseconds(1))
    _ = url.appending(path: "x")
    _ = Date.now.formatted(.iso8601)
    await MainActor.run {}
    return ContinuousClock.now - start
}

func foundationTooNew() -> URL? {
    URL(string: "a b", encodingInvalidCharacters: false)  // expect: too new
}

func discarding() async {
    await withDiscardingTaskGroup { group in  // expect: too new
        group.addTask {}  // expect: too new
    }
}
