extension LogMetadata {
    /// The metadata of the innermost ``withValues(_:operation:)`` scope around the calling task.
    @TaskLocal static var scoped = LogMetadata()

    /// The metadata every entry created now, on this task, picks up: that of
    /// the enclosing ``withValues(_:operation:)`` scopes; empty outside them.
    public static var current: LogMetadata { scoped }

    /// Runs `operation` with `values` added to the metadata of every
    /// ``LogEntry`` created inside it, by any code, through any MetaController.
    ///
    /// The values travel with the task, not with a MetaController: they reach
    /// child tasks (`async let`, task groups, `Task { }`) but not detached tasks,
    /// and they end with the scope. A scope inside another adds to the outer
    /// one's values; where both have a key, the inner value wins. Nothing is
    /// stored outside the task, so concurrent scopes never see each other's values.
    ///
    /// ```swift
    /// LogMetadata.withValues(["job": "nightly-export"]) {
    ///     exporter.run()   // every line it logs ends in [job=nightly-export]
    /// }
    /// ```
    ///
    /// An entry takes the values when it is created, on the caller's task, so a
    /// log controller that writes later on another thread still writes them.
    ///
    /// - Parameters:
    ///   - values: The metadata to add.
    ///   - operation: The code whose entries carry it.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withValues<R>(_ values: LogMetadata, operation: () throws -> R) rethrows -> R {
        try $scoped.withValue(scoped.merging(values), operation: operation)
    }

    /// Runs the asynchronous `operation` with `values` added to the metadata of
    /// every ``LogEntry`` created inside it, by any code, through any MetaController.
    ///
    /// The form for a server's request scope, in a middleware around the rest
    /// of the request:
    ///
    /// ```swift
    /// func handle(_ request: Request, next: (Request) async throws -> Response) async throws -> Response {
    ///     try await LogMetadata.withValues(["req": request.id]) {
    ///         try await next(request)   // every line logged while serving it ends in [req=…]
    ///     }
    /// }
    /// ```
    ///
    /// It behaves as the synchronous ``withValues(_:operation:)``.
    ///
    /// - Parameters:
    ///   - values: The metadata to add.
    ///   - isolation: The caller's actor; leave the default.
    ///   - operation: The code whose entries carry it.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withValues<R>(
        _ values: LogMetadata,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await $scoped.withValue(scoped.merging(values), operation: operation)
    }
}
