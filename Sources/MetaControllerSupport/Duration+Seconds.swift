package import Foundation

/// Conversions of a `Duration` that keep its fraction of a second: a timeout of
/// 300 milliseconds must not become 0 seconds, nor 1.5 seconds become 1.
extension Duration {
    /// The longest wait handed to a timer: about 31 years. Longer durations wait
    /// this long, so a conversion can neither overflow nor trap.
    package static let longestWait = Duration.seconds(1_000_000_000)

    /// The duration in seconds, for messages: `2 seconds`, `0.25 seconds`, `0.000001 seconds`;
    /// exact to the nanosecond, rounded to the nearest one below that.
    package var seconds: String {
        let nanoseconds = self.nanoseconds
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let whole = magnitude / 1_000_000_000, fraction = magnitude % 1_000_000_000
        guard fraction != 0 else { return whole == 1 && sign.isEmpty ? "1 second" : "\(sign)\(whole) seconds" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits) seconds"
    }

    /// The duration in seconds as a `TimeInterval`, fraction included.
    package var timeInterval: TimeInterval {
        let (whole, attoseconds) = components
        return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds, rounded to the nearest (halves away from zero)
    /// and clamped to `Int64`'s range.
    package var nanoseconds: Int64 {
        let (whole, attoseconds) = components
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return whole < 0 ? .min : .max }
        var fraction = attoseconds / 1_000_000_000
        let remainder = attoseconds % 1_000_000_000
        if remainder >= 500_000_000 { fraction += 1 } else if remainder <= -500_000_000 { fraction -= 1 }
        let (sum, sumOverflow) = scaled.addingReportingOverflow(fraction)
        if sumOverflow { return scaled < 0 ? .min : .max }
        return sum
    }

    /// The time from now at which a timer for this duration fires: at least
    /// now, at most ``longestWait`` from now, to the nanosecond.
    package var dispatchDeadline: DispatchTime {
        let nanoseconds = max(0, min(self, Self.longestWait).nanoseconds)
        return .now() + .nanoseconds(Int(nanoseconds))
    }

    /// A `URLRequest.timeoutInterval` that never fires before this duration has
    /// passed: the duration rounded up to whole seconds, at least 1, at most
    /// ``longestWait``.
    ///
    /// `URLSession` on Linux drops the fraction of its `timeoutInterval` (0.3
    /// seconds fires at once, 1.5 seconds after 1), and on Apple platforms it
    /// limits only the wait between two bytes; the whole-attempt deadline is
    /// kept by the caller to the nanosecond.
    package var wholeSecondsTimeoutInterval: TimeInterval {
        let (whole, attoseconds) = min(self, Self.longestWait).components
        return TimeInterval(max(1, attoseconds > 0 ? whole + 1 : whole))
    }

    /// The duration nearest `seconds`, to the nanosecond (``nearestNanoseconds(toSeconds:)``).
    ///
    /// - Precondition: `seconds` is finite and its nanoseconds fit an `Int64` (about 292 years).
    package init(roundedSeconds seconds: Double) {
        guard let nanoseconds = Self.nearestNanoseconds(toSeconds: seconds.magnitude) else {
            preconditionFailure("Duration(roundedSeconds:): \(seconds) seconds is not finite or does not fit")
        }
        self = .nanoseconds(seconds < 0 ? -nanoseconds : nanoseconds)
    }

    /// The whole number of nanoseconds nearest `seconds` (a half rounds up):
    /// `0.3` is exactly 300 milliseconds, where `Duration.seconds(0.3)` is a
    /// few attoseconds short. It is computed from the number's exact binary
    /// value, so that a value just below half a nanosecond is 0 and one at or
    /// above it is 1; `nil` when
    /// `seconds` is negative, not finite, or more nanoseconds than an `Int64` holds.
    ///
    /// (Multiplying by 1e9 in floating point rounds the product first, which
    /// can carry a value just below a half up to it.)
    package static func nearestNanoseconds(toSeconds seconds: Double) -> Int64? {
        guard seconds.isFinite, seconds >= 0 else { return nil }
        guard seconds != 0 else { return 0 }
        // seconds == significand × 2^scale, exactly.
        let significand: UInt64, scale: Int
        if seconds.isSubnormal {
            (significand, scale) = (seconds.significandBitPattern, -1074)
        } else {
            (significand, scale) = (seconds.significandBitPattern | 1 << 52, seconds.exponent - 52)
        }
        if scale >= 0 {
            // A whole number of seconds.
            guard scale <= 10 else { return nil }
            let (product, overflow) = (significand << UInt64(scale)).multipliedReportingOverflow(by: 1_000_000_000)
            return overflow ? nil : Int64(exactly: product)
        }
        // significand × 10^9 < 2^83: below half of 2^shift, the result is 0.
        let shift = -scale
        guard shift <= 84 else { return 0 }
        var (high, low) = significand.multipliedFullWidth(by: 1_000_000_000)
        // Add half of 2^shift, then divide by 2^shift: the nearest, a half up.
        if shift - 1 < 64 {
            let (sum, carry) = low.addingReportingOverflow(1 << UInt64(shift - 1))
            low = sum
            if carry { high += 1 }
        } else {
            high += 1 << UInt64(shift - 1 - 64)
        }
        let quotient: UInt64
        if shift < 64 {
            guard high >> UInt64(shift) == 0 else { return nil }
            quotient = low >> UInt64(shift) | high << UInt64(64 - shift)
        } else {
            quotient = high >> UInt64(shift - 64)
        }
        return Int64(exactly: quotient)
    }
}
