public import MetaControllerCore

/// The default ``LogController``: a minimum level and any number of
/// destinations, each with its own level.
///
/// ```swift
/// let log = StandardLogController(
///     minimumLevel: .debug,
///     destinations: [
///         StreamLogDestination(.standardError, minimumLevel: .info),
///         try FileLogDestination(directory: logsURL),
///         MemoryLogDestination(capacity: 500),
///     ]
/// )
/// metaController.logController = log
/// ```
///
/// - A level below ``minimumLevel``, or below every destination's, costs one
///   comparison: ``isLogging(_:)`` reads two stored values, takes no lock, and
///   the shortcuts then never build the message.
/// - Destinations do their I/O off the logging thread; ``flush()`` waits for
///   all of it, for tests and before the app exits.
/// - Private values (``LogPrivacy``) reach destinations as `<private>` unless
///   ``revealsPrivateValues`` is on, which takes effect in debug builds only.
///
/// It is a consumer: put in a MetaController, it holds it weakly like the other controllers.
public final class StandardLogController: LogController, MetaControllerConsumer {
    /// The lowest level logged at all.
    public let minimumLevel: LogLevel
    /// Where entries go.
    public let destinations: [any LogDestination]
    /// Whether private values are shown: `true` only in a debug build that asked for it.
    public let revealsPrivateValues: Bool
    /// What went wrong while setting up destinations (``init(minimumLevel:settingUp:revealsPrivateValues:)``
    /// or a configuration); each failed destination was replaced by standard error.
    public let setupErrors: [LogSetupError]

    /// The lowest level that some destination takes and the controller keeps.
    private let lowestKept: LogLevel
    private let reference = WeakMetaControllerReference()

    /// Creates a controller.
    ///
    /// - Parameters:
    ///   - minimumLevel: The lowest level logged; `info` by default.
    ///   - destinations: Where entries go; standard error by default.
    ///   - revealsPrivateValues: Whether private values are shown; ignored in release builds.
    public convenience init(
        minimumLevel: LogLevel = .info,
        destinations: [any LogDestination] = [StreamLogDestination()],
        revealsPrivateValues: Bool = false
    ) {
        self.init(minimumLevel: minimumLevel, destinations: destinations, revealsPrivateValues: revealsPrivateValues, setupErrors: [])
    }

    /// Creates a controller from destinations that may fail to set up, such as
    /// files; it never throws.
    ///
    /// Each destination that throws is replaced by standard error, the error is
    /// written there at once and kept in ``setupErrors``, so a log directory that
    /// cannot be created costs the app its log file, not its launch. An error
    /// other than a ``LogSetupError`` (from a destination of your own) is kept
    /// as one, its description as the reason.
    ///
    /// ```swift
    /// let log = StandardLogController(minimumLevel: .debug, settingUp: [
    ///     { StreamLogDestination(.standardError, minimumLevel: .info) },
    ///     { try FileLogDestination(directory: logsURL) },
    /// ])
    /// for error in log.setupErrors { print(error) }   // cannot create the log directory …: Permission denied
    /// ```
    ///
    /// - Parameters:
    ///   - minimumLevel: The lowest level logged; `info` by default.
    ///   - destinations: Makes each destination, in order.
    ///   - revealsPrivateValues: Whether private values are shown; ignored in release builds.
    public convenience init(
        minimumLevel: LogLevel = .info,
        settingUp destinations: [() throws -> any LogDestination],
        revealsPrivateValues: Bool = false
    ) {
        var errors: [LogSetupError] = []
        let made = destinations.map { make in Self.setUp(make, fallbackLevel: .trace, errors: &errors) }
        self.init(minimumLevel: minimumLevel, destinations: made, revealsPrivateValues: revealsPrivateValues, setupErrors: errors)
    }

    /// Makes a destination, or on failure records the error and returns standard
    /// error in its place, having written the error there.
    package static func setUp(
        _ make: () throws -> any LogDestination, fallbackLevel: LogLevel, errors: inout [LogSetupError]
    ) -> any LogDestination {
        do {
            return try make()
        } catch {
            let error =
                error as? LogSetupError
                ?? LogSetupError(action: "set up a log destination", path: "", reason: String(describing: error))
            errors.append(error)
            let fallback = StreamLogDestination(.standardError, minimumLevel: fallbackLevel, format: .detailedLine)
            fallback.write(
                LogEntry(
                    level: .error, message: "\(error); logging to standard error instead",
                    file: #fileID, function: #function, line: #line),
                revealingPrivateValues: false)
            return fallback
        }
    }

    package init(minimumLevel: LogLevel, destinations: [any LogDestination], revealsPrivateValues: Bool, setupErrors: [LogSetupError]) {
        self.minimumLevel = minimumLevel
        self.destinations = destinations
        #if DEBUG
        self.revealsPrivateValues = revealsPrivateValues
        #else
        self.revealsPrivateValues = false
        #endif
        self.setupErrors = setupErrors
        lowestKept = max(minimumLevel, destinations.map(\.minimumLevel).min() ?? .critical)
    }

    /// The MetaController this controller was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// Whether an entry of `level` would reach at least one destination.
    public func isLogging(_ level: LogLevel) -> Bool {
        level >= lowestKept && !destinations.isEmpty
    }

    /// Hands `entry` to every destination whose level it reaches.
    public func log(_ entry: LogEntry) {
        guard entry.level >= minimumLevel else { return }
        for destination in destinations where entry.level >= destination.minimumLevel {
            destination.write(entry, revealingPrivateValues: revealsPrivateValues)
        }
    }

    /// Returns when every destination has written everything logged before the call.
    ///
    /// Call it in tests before reading a file, and before the app exits.
    public func flush() {
        for destination in destinations { destination.flush() }
    }
}
