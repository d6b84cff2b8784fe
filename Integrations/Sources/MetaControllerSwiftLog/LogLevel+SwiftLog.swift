public import Logging
public import MetaController

extension LogLevel {
    /// The MetaController level of a swift-log level; the seven levels map one to one.
    ///
    /// ```swift
    /// LogLevel(Logger.Level.notice)   // .notice
    /// ```
    ///
    /// - Parameter level: The swift-log level.
    public init(_ level: Logger.Level) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}

extension Logger.Level {
    /// The swift-log level of a MetaController level; the seven levels map one to one.
    ///
    /// ```swift
    /// Logger.Level(LogLevel.notice)   // .notice
    /// ```
    ///
    /// - Parameter level: The MetaController level.
    public init(_ level: LogLevel) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}
