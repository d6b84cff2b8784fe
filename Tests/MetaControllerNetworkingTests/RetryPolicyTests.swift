import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct RetryPolicyTests {
    private let get = ApiRequest(.get, "/feed")
    private let post = ApiRequest(.post, "/items")

    @Test func noneNeverRetries() {
        #expect(RetryPolicy.none.maximumAttempts == 1)
        #expect(!RetryPolicy.none.shouldRetry(.transport("offline", for: get), attempt: 1))
    }

    @Test func retriesTransportTimeoutsAndRetryableStatusesOfIdempotentRequests() {
        let policy = RetryPolicy(maximumAttempts: 3)
        #expect(policy.shouldRetry(.transport("offline", for: get), attempt: 1))
        #expect(policy.shouldRetry(.timeout(after: .seconds(1), for: get), attempt: 2))
        #expect(policy.shouldRetry(.httpStatus(503, for: get), attempt: 1))
        #expect(!policy.shouldRetry(.httpStatus(404, for: get), attempt: 1))
        #expect(!policy.shouldRetry(.cancelled(for: get), attempt: 1))
        #expect(!policy.shouldRetry(.transport("offline", for: get), attempt: 3))   // out of attempts
    }

    @Test func neverRetriesANonIdempotentRequestUnlessMarked() {
        let policy = RetryPolicy(maximumAttempts: 3)
        #expect(!policy.shouldRetry(.httpStatus(503, for: post), attempt: 1))
        var marked = post
        marked.isIdempotent = true
        #expect(policy.shouldRetry(.httpStatus(503, for: marked), attempt: 1))
    }

    @Test func delaysGrowExponentiallyUpToTheMaximum() {
        let policy = RetryPolicy(
            maximumAttempts: 10, initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .milliseconds(500))
        #expect(policy.delay(after: 1) == .milliseconds(100))
        #expect(policy.delay(after: 2) == .milliseconds(200))
        #expect(policy.delay(after: 3) == .milliseconds(400))
        #expect(policy.delay(after: 4) == .milliseconds(500))
        #expect(policy.delay(after: 9) == .milliseconds(500))
    }

    @Test func nonsenseSettingsAreClamped() {
        let policy = RetryPolicy(maximumAttempts: -2, multiplier: 0.1)
        #expect(policy.maximumAttempts == 1)
        #expect(policy.multiplier == 1)
    }
}
