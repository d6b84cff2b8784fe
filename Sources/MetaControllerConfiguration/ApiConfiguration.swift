public import MetaControllerNetworking
import MetaControllerSupport
public import Foundation

/// How the app's ``URLSessionApiController`` is set up: a base URL per
/// environment, a timeout, retries and body logging.
///
/// In a configuration file:
///
/// ```json
/// "api": {
///     "baseURLs": {
///         "production": "https://api.example.com/v1",
///         "staging": "https://staging.example.com/v1",
///         "test": "http://127.0.0.1:8080"
///     },
///     "timeoutSeconds": 20,
///     "retry": { "maximumAttempts": 3, "initialDelaySeconds": 0.25 },
///     "logsBodies": false
/// }
/// ```
///
/// Only `baseURLs` is required; every URL must be `http` or `https` with a host.
public struct ApiConfiguration: Codable, Sendable, Equatable {
    /// The server's base URL in each environment.
    public var baseURLs: [AppEnvironment: URL]
    /// How long a request may take; 60 seconds by default.
    public var timeout: Duration
    /// When failed requests are sent again; never by default.
    public var retryPolicy: RetryPolicy
    /// Whether request and response bodies are logged as text.
    public var logsBodies: Bool

    /// Creates a configuration.
    public init(
        baseURLs: [AppEnvironment: URL], timeout: Duration = .seconds(60),
        retryPolicy: RetryPolicy = .none, logsBodies: Bool = false
    ) {
        self.baseURLs = baseURLs
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.logsBodies = logsBodies
    }

    /// The base URL for `environment`.
    ///
    /// - Throws: ``ConfigurationError/Code/unknownEnvironment`` when the configuration has none.
    public func baseURL(for environment: AppEnvironment) throws(ConfigurationError) -> URL {
        guard let url = baseURLs[environment] else {
            let known = baseURLs.keys.map(\.rawValue).sorted().joined(separator: ", ")
            throw ConfigurationError(
                .unknownEnvironment, at: "api.baseURLs.\(environment)",
                "no base URL for environment \(environment); the configuration has \(known.isEmpty ? "none" : known)")
        }
        return url
    }

    private enum Keys: String, CodingKey, CaseIterable {
        case baseURLs, timeoutSeconds, retry, logsBodies
    }

    private enum RetryKeys: String, CodingKey, CaseIterable {
        case maximumAttempts, initialDelaySeconds, multiplier, maximumDelaySeconds, retryableStatusCodes
    }

    /// Decodes a configuration, naming the key path of anything wrong or unknown.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Set(Keys.allCases.map(\.rawValue)))
        let container = try decoder.container(keyedBy: Keys.self)
        let urls = try container.decode([String: String].self, forKey: .baseURLs)
        var baseURLs: [AppEnvironment: URL] = [:]
        for (name, text) in urls {
            let path = container.codingPath + [Keys.baseURLs, AnyCodingKey(name)]
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                let host = url.host, !host.isEmpty
            else {
                throw ConfigurationError(.invalidValue, at: path, "not an http or https URL: \"\(text)\"")
            }
            baseURLs[AppEnvironment(rawValue: name)] = url
        }
        self.baseURLs = baseURLs
        timeout = try Self.seconds(container, .timeoutSeconds, default: .seconds(60))
        logsBodies = try container.decodeIfPresent(Bool.self, forKey: .logsBodies) ?? false
        retryPolicy = .none
        if container.contains(.retry) {
            let retryDecoder = try container.superDecoder(forKey: .retry)
            try retryDecoder.rejectUnknownKeys(Set(RetryKeys.allCases.map(\.rawValue)))
            let retry = try retryDecoder.container(keyedBy: RetryKeys.self)
            let attempts = try retry.decode(Int.self, forKey: .maximumAttempts)
            guard attempts >= 1 else {
                throw ConfigurationError(.invalidValue, at: retry.codingPath + [RetryKeys.maximumAttempts], "must be 1 or more")
            }
            var policy = RetryPolicy(maximumAttempts: attempts)
            policy.initialDelay = try Self.seconds(retry, .initialDelaySeconds, default: policy.initialDelay)
            policy.maximumDelay = try Self.seconds(retry, .maximumDelaySeconds, default: policy.maximumDelay)
            if let multiplier = try retry.decodeIfPresent(Double.self, forKey: .multiplier) {
                guard multiplier >= 1, multiplier.isFinite else {
                    throw ConfigurationError(.invalidValue, at: retry.codingPath + [RetryKeys.multiplier], "must be 1 or more")
                }
                policy.multiplier = multiplier
            }
            if let codes = try retry.decodeIfPresent([Int].self, forKey: .retryableStatusCodes) {
                policy.retryableStatusCodes = Set(codes)
            }
            retryPolicy = policy
        }
    }

    /// Encodes the configuration in the form it decodes from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(
            Dictionary(uniqueKeysWithValues: baseURLs.map { ($0.key.rawValue, $0.value.absoluteString) }),
            forKey: .baseURLs)
        try container.encode(timeout.timeInterval, forKey: .timeoutSeconds)
        try container.encode(logsBodies, forKey: .logsBodies)
        if retryPolicy != .none {
            var retry = container.nestedContainer(keyedBy: RetryKeys.self, forKey: .retry)
            try retry.encode(retryPolicy.maximumAttempts, forKey: .maximumAttempts)
            try retry.encode(retryPolicy.initialDelay.timeInterval, forKey: .initialDelaySeconds)
            try retry.encode(retryPolicy.multiplier, forKey: .multiplier)
            try retry.encode(retryPolicy.maximumDelay.timeInterval, forKey: .maximumDelaySeconds)
            try retry.encode(retryPolicy.retryableStatusCodes.sorted(), forKey: .retryableStatusCodes)
        }
    }

    /// The number of seconds at `key`, rounded to the nanosecond, or
    /// `fallback` when it is absent.
    ///
    /// The check is made on the rounded value, the one the timers use: a
    /// value that rounds to 0 nanoseconds (below 0.0000000005, such as
    /// `1e-10` or `5e-324`) would be a timeout that fires at once, and is
    /// refused like 0 and negative values; so is anything above a year,
    /// `NaN` and the infinities.
    static func seconds<Key: CodingKey>(
        _ container: KeyedDecodingContainer<Key>, _ key: Key, default fallback: Duration
    ) throws -> Duration {
        guard let seconds = try container.decodeIfPresent(Double.self, forKey: key) else { return fallback }
        guard let nanoseconds = Duration.nearestNanoseconds(toSeconds: seconds), nanoseconds >= 1,
            nanoseconds <= 31_536_000 * 1_000_000_000
        else {
            throw ConfigurationError(
                .invalidValue, at: container.codingPath + [key],
                "must be a number of seconds that is at least 1 nanosecond once rounded to the nanosecond, and at most a year (31536000); found \(seconds)")
        }
        return .nanoseconds(nanoseconds)
    }
}
