public import MetaControllerCore

/// A log controller for tests that records every entry it is given.
///
/// Assert on ``entries`` (or ``messages``) after the code under test has run.
/// ``minimumLevel`` makes it refuse lower levels, which lets a test check that a
/// disabled level does not even build its message.
///
/// MetaController's own warnings about how it is used (in debug builds, "…
/// requires favoritesController, which this MetaController lacks"; a pass
/// refused under the write-once rule) go to ``diagnostics``, not ``entries``,
/// so a test's assertions on what the app logged do not see them.
///
/// ```swift
/// let log = FakeLogController()
/// let metaController = MetaController()
/// metaController.logController = log
/// screen.metaController = metaController
/// screen.refresh()
/// #expect(log.messages == ["refreshing"])
/// ```
///
/// It is safe to log to from many threads at once.
public final class FakeLogController: LogController, MetaControllerConsumer {
    private struct State: Sendable {
        var entries: [LogEntry] = []
        var diagnostics: [LogEntry] = []
        var minimumLevel: LogLevel = .trace
        var flushCount = 0
    }

    private let state = Lock(State())
    private let reference = WeakMetaControllerReference()

    /// Creates a fake that keeps every level.
    public init() {}

    /// The MetaController this fake was put in, held weakly.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// The lowest level kept; `.trace` (everything) by default.
    public var minimumLevel: LogLevel {
        get { state.withLock { $0.minimumLevel } }
        set { state.withLock { $0.minimumLevel = newValue } }
    }

    /// Every entry logged, oldest first, with its level, source location and
    /// metadata (the pairs of enclosing `LogMetadata.withValues` scopes included):
    ///
    /// ```swift
    /// LogMetadata.withValues(["req": "72b5"]) { handler.list() }
    /// #expect(log.entries.last?.metadata == ["req": "72b5", "user": "ada"])
    /// ```
    public var entries: [LogEntry] { state.withLock { $0.entries } }

    /// The messages of ``entries``, oldest first.
    public var messages: [String] { entries.map(\.message) }

    /// The warnings MetaController itself logged here, oldest first: a
    /// consumer's required controllers missing when it was passed the
    /// MetaController (debug builds), a pass or push refused under the
    /// write-once rule. They are not in ``entries``.
    ///
    /// ```swift
    /// metaController.passMetaController(to: CheckoutScreen())
    /// #expect(log.diagnostics.map(\.message) == ["CheckoutScreen requires apiController, which this MetaController lacks"])
    /// #expect(log.entries.isEmpty)
    /// ```
    public var diagnostics: [LogEntry] { state.withLock { $0.diagnostics } }

    /// How many times ``flush()`` was called, so that a test can check that a
    /// path (the app's exit, say) flushes the log.
    public var flushCount: Int { state.withLock { $0.flushCount } }

    /// Forgets every entry and diagnostic logged so far.
    public func removeAllEntries() {
        state.withLock { state in
            state.entries.removeAll()
            state.diagnostics.removeAll()
        }
    }

    /// Whether `level` is at or above ``minimumLevel``.
    public func isLogging(_ level: LogLevel) -> Bool {
        level >= minimumLevel
    }

    /// Records `entry` when its level is kept: in ``diagnostics`` when
    /// MetaController itself logged it, in ``entries`` otherwise.
    public func log(_ entry: LogEntry) {
        state.withLock { state in
            guard entry.level >= state.minimumLevel else { return }
            if entry.isDiagnostic {
                state.diagnostics.append(entry)
            } else {
                state.entries.append(entry)
            }
        }
    }

    /// Counts the call in ``flushCount``; the entries are recorded already.
    public func flush() {
        state.withLock { $0.flushCount += 1 }
    }
}
