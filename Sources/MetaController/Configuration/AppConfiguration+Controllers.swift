public import Foundation

extension AppConfiguration {
    /// Makes the API controller this configuration describes for `environment`.
    ///
    /// ```swift
    /// // In a test: the test environment, pointed at a mock server.
    /// let api = try configuration.makeApiController(for: .test, baseURL: server.baseURL)
    /// ```
    ///
    /// - Parameters:
    ///   - environment: Whose base URL to use.
    ///   - baseURL: Replaces the configured base URL, as a test does to reach a
    ///     `MockAPIServer` on a port chosen at run time.
    /// - Throws: ``ConfigurationError/Code/unknownEnvironment`` when there is no
    ///   base URL for `environment` and none is given.
    public func makeApiController(
        for environment: AppEnvironment, baseURL: URL? = nil
    ) throws(ConfigurationError) -> URLSessionApiController {
        let url = if let baseURL { baseURL } else { try api.baseURL(for: environment) }
        return URLSessionApiController(
            baseURL: url,
            timeout: api.timeout,
            retryPolicy: api.retryPolicy,
            logsBodies: api.logsBodies)
    }
}
