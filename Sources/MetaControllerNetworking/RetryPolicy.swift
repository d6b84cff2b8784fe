/// When and how often an API controller sends a failed request again.
///
/// Retrying is opt-in: ``none`` is the default. A policy retries only
/// idempotent requests (``ApiRequest/isIdempotent``), and only after a
/// transport failure, a timeout, or a status in ``retryableStatusCodes``;
/// never after a cancellation, a decoding failure or another status. Between
/// attempts it waits an exponentially growing delay:
/// `initialDelay`, then `initialDelay * multiplier`, and so on, at most `maximumDelay`.
///
/// ```swift
/// let api = URLSessionApiController(
///     baseURL: serverURL,
///     retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(200))
/// )
/// ```
public struct RetryPolicy: Sendable, Equatable {
    /// How many times a request is sent at most, the first attempt included. At least 1.
    public var maximumAttempts: Int
    /// The wait before the second attempt.
    public var initialDelay: Duration
    /// What each wait is multiplied by for the next.
    public var multiplier: Double
    /// The longest wait between two attempts.
    public var maximumDelay: Duration
    /// The statuses worth retrying: by default 408, 429, 500, 502, 503 and 504.
    public var retryableStatusCodes: Set<Int>

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maximumAttempts: How many times a request is sent at most; values below 1 count as 1.
    ///   - initialDelay: The wait before the second attempt.
    ///   - multiplier: What each wait is multiplied by for the next; values below 1 count as 1.
    ///   - maximumDelay: The longest wait.
    ///   - retryableStatusCodes: The statuses worth retrying.
    public init(
        maximumAttempts: Int,
        initialDelay: Duration = .milliseconds(250),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(10),
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.multiplier = max(1, multiplier)
        self.maximumDelay = maximumDelay
        self.retryableStatusCodes = retryableStatusCodes
    }

    /// Sends every request once. The default.
    public static let none = RetryPolicy(maximumAttempts: 1)

    /// Whether a request that failed with `error` on attempt number `attempt` (from 1) is sent again.
    public func shouldRetry(_ error: ApiError, attempt: Int) -> Bool {
        guard attempt < maximumAttempts, error.request.isIdempotent else { return false }
        switch error.code {
        case .transport, .timeout: return true
        case .httpStatus: return error.statusCode.map(retryableStatusCodes.contains) ?? false
        default: return false
        }
    }

    /// The wait after attempt number `attempt` (from 1) failed.
    public func delay(after attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(1, attempt) {
            delay = delay * multiplier
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}
