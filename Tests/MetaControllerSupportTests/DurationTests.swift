import Dispatch
import Foundation
import MetaController
@testable import MetaControllerSupport
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

/// The package's conversions of `Duration`, which must keep the fraction of a second.
@Suite struct DurationTests {
    @Test(arguments: [
        (Duration.zero, Int64(0)),
        (.nanoseconds(1), 1),
        (.microseconds(1), 1_000),
        (.milliseconds(300), 300_000_000),
        (.milliseconds(1500), 1_500_000_000),
        (.seconds(2), 2_000_000_000),
        (.nanoseconds(-7), -7),
        (.seconds(-1.5), -1_500_000_000),
        (.seconds(Int64.max), Int64.max),
        (.seconds(Int64.min), Int64.min),
        (.seconds(9_223_372_036) + .nanoseconds(999_999_999), Int64.max),
    ])
    func nanosecondsKeepTheFraction(duration: Duration, expected: Int64) {
        #expect(duration.nanoseconds == expected)
    }

    @Test func nanosecondsRoundToTheNearest() {
        // 1.4 and 1.5 nanoseconds, in attoseconds.
        #expect(Duration(secondsComponent: 0, attosecondsComponent: 1_499_999_999).nanoseconds == 1)
        #expect(Duration(secondsComponent: 0, attosecondsComponent: 1_500_000_000).nanoseconds == 2)
        #expect(Duration(secondsComponent: 0, attosecondsComponent: -1_500_000_000).nanoseconds == -2)
    }

    @Test(arguments: [
        (Duration.zero, 0.0),
        (.nanoseconds(1), 1e-9),
        (.microseconds(1), 1e-6),
        (.milliseconds(300), 0.3),
        (.milliseconds(1500), 1.5),
        (.milliseconds(2500), 2.5),
        (.seconds(86_400 * 365), 31_536_000),
    ])
    func timeIntervalsKeepTheFraction(duration: Duration, expected: TimeInterval) {
        #expect(abs(duration.timeInterval - expected) <= expected.ulp * 2)
    }

    @Test func aHugeDurationIsAFiniteTimeInterval() {
        #expect(Duration.seconds(Int64.max).timeInterval == TimeInterval(Int64.max))
    }

    @Test(arguments: [
        (Duration.zero, 1.0),
        (.nanoseconds(1), 1),
        (.milliseconds(300), 1),
        (.seconds(1), 1),
        (.milliseconds(1500), 2),
        (.milliseconds(2500), 3),
        (.seconds(60), 60),
        (.seconds(60) + .nanoseconds(1), 61),
        (.seconds(Int64.max), 1_000_000_000),
    ])
    func urlSessionIntervalsAreWholeSecondsNeverShorter(duration: Duration, expected: TimeInterval) {
        let interval = duration.wholeSecondsTimeoutInterval
        #expect(interval == expected)
        #expect(interval.rounded(.towardZero) == interval)   // what URLSession on Linux keeps of it
        #expect(duration > Duration.longestWait || Duration.seconds(interval) >= duration)
    }

    @Test(arguments: [Duration.zero, .nanoseconds(1), .milliseconds(300), .milliseconds(1500), .seconds(Int64.max), .seconds(-5)])
    func dispatchDeadlinesAreNowPlusTheDurationClamped(duration: Duration) {
        let before = DispatchTime.now().uptimeNanoseconds
        let deadline = duration.dispatchDeadline.uptimeNanoseconds
        let after = DispatchTime.now().uptimeNanoseconds
        let wait = max(0, min(duration, Duration.longestWait).nanoseconds)
        #expect(deadline >= before + UInt64(wait))
        #expect(deadline <= after + UInt64(wait))
    }

    @Test(arguments: [
        (Duration.seconds(2), "2 seconds"),
        (.seconds(1), "1 second"),
        (.milliseconds(250), "0.25 seconds"),
        (.milliseconds(300), "0.3 seconds"),
        (.milliseconds(1500), "1.5 seconds"),
        (.nanoseconds(1), "0.000000001 seconds"),
        (.microseconds(1), "0.000001 seconds"),
        (.zero, "0 seconds"),
        (.milliseconds(-1500), "-1.5 seconds"),
    ])
    func messagesShowTheDurationToTheNanosecond(duration: Duration, expected: String) {
        #expect(duration.seconds == expected)
    }

    @Test(arguments: [
        (0.3, Duration.milliseconds(300)),
        (1.5, .milliseconds(1500)),
        (0.25, .milliseconds(250)),
        (1e-9, .nanoseconds(1)),
        (20, .seconds(20)),
        (0.1 + 0.2, .milliseconds(300)),
        (31_536_000, .seconds(31_536_000)),
        (12_345.678_901_234, .seconds(12_345) + .nanoseconds(678_901_234)),
        (0.999_999_999_6, .seconds(1)),
    ])
    func secondsFromConfigurationAreRoundedToTheNanosecond(seconds: Double, expected: Duration) {
        #expect(Duration(roundedSeconds: seconds) == expected)
    }

    @Test func aSeededSweepOfSecondsRoundTripsThroughTimeInterval() {
        var generator = SeededGenerator(seed: 13)
        for _ in 0..<10_000 {
            let nanoseconds = Int64.random(in: 1...1_000_000_000_000_000, using: &generator)
            let duration = Duration.nanoseconds(nanoseconds)
            #expect(duration.nanoseconds == nanoseconds)
            #expect(Duration(roundedSeconds: duration.timeInterval) == duration)
            let interval = duration.wholeSecondsTimeoutInterval
            #expect(Duration.seconds(interval) >= duration && Duration.seconds(interval) < duration + .seconds(1))
        }
    }
}
