public import MetaControllerCore
public import MetaControllerLogging
public import MetaControllerNetworking
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

extension StandardLogController {
    /// Creates the log controller a configuration describes.
    ///
    /// It never fails: a destination that cannot be set up (a log directory
    /// that cannot be created or written) is replaced by standard error, its
    /// error is kept in ``setupErrors`` and written to standard error at once.
    ///
    /// ```swift
    /// let log = StandardLogController(configuration: configuration.log, relativeTo: cachesURL)
    /// for error in log.setupErrors { print(error) }
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The level and destinations.
    ///   - directory: What relative file-destination directories are relative to.
    public convenience init(configuration: LogConfiguration, relativeTo directory: URL) {
        var destinations: [any LogDestination] = []
        var errors: [LogSetupError] = []
        for destination in configuration.destinations {
            let level = destination.level ?? .trace
            let format = destination.format.map(LogFormat.init) ?? (destination.kind == .file ? .jsonLines : .line)
            switch destination.kind {
            case .standardError:
                destinations.append(StreamLogDestination(.standardError, minimumLevel: level, format: format))
            case .standardOutput:
                destinations.append(StreamLogDestination(.standardOutput, minimumLevel: level, format: format))
            case .memory:
                destinations.append(MemoryLogDestination(capacity: destination.capacity ?? 1000, minimumLevel: level, format: format))
            case .system:
                destinations.append(SystemLogDestination(subsystem: "MetaController", category: "app", minimumLevel: level))
            case .file:
                let path = destination.directory ?? ""
                let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
                destinations.append(
                    Self.setUp(
                        {
                            try FileLogDestination(
                                directory: url, fileName: destination.fileName ?? "app.log",
                                maximumFileBytes: destination.maximumFileBytes ?? 1024 * 1024,
                                keptFiles: destination.keptFiles ?? 5, minimumLevel: level, format: format)
                        }, fallbackLevel: level, errors: &errors))
            }
        }
        self.init(
            minimumLevel: configuration.level, destinations: destinations,
            revealsPrivateValues: configuration.revealsPrivateValues, setupErrors: errors)
    }
}

extension LogFormat {
    /// The format a configuration names.
    init(_ format: LogDestinationConfiguration.Format) {
        switch format {
        case .line: self = .line
        case .detailedLine: self = .detailedLine
        case .jsonLines: self = .jsonLines
        }
    }
}

extension MetaController {
    /// Creates a MetaController with the log and API controllers a configuration describes.
    ///
    /// ```swift
    /// // At launch:
    /// let metaController = try MetaController(
    ///     configuration: .load(from: configurationURL), environment: .production, logDirectory: cachesURL)
    ///
    /// // In a test, against a mock server on a port chosen at run time:
    /// let metaController = try MetaController(configuration: configuration, environment: .test, baseURL: server.baseURL)
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The settings.
    ///   - environment: Whose API base URL to use.
    ///   - baseURL: Replaces the configured base URL.
    ///   - logDirectory: What relative log directories are relative to; the temporary directory by default.
    /// - Throws: ``ConfigurationError/Code/unknownEnvironment`` when there is no base URL for `environment`
    ///   and none is given. A log destination that cannot be set up does not throw; see
    ///   ``StandardLogController/init(configuration:relativeTo:)``.
    public convenience init(
        configuration: AppConfiguration, environment: AppEnvironment, baseURL: URL? = nil,
        logDirectory: URL = FileManager.default.temporaryDirectory
    ) throws(ConfigurationError) {
        let api = try configuration.makeApiController(for: environment, baseURL: baseURL)
        self.init()
        logController = StandardLogController(configuration: configuration.log, relativeTo: logDirectory)
        apiController = api
    }
}
