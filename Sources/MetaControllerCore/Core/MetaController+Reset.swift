extension MetaController {
    /// Empties this MetaController for a new session: every slot set on it
    /// becomes empty, and every shared product made in it is dropped.
    ///
    /// Hold a signed-in user's controllers in a child scope, hand that scope
    /// down as usual, and reset it on logout:
    ///
    /// ```swift
    /// let session = MetaController(parent: app)
    /// session[UserControllerKey.self] = SignedInUserController(user: ada)
    /// session.registerShared(AvatarCache.self) { _ in AvatarCache() }
    /// app.passMetaController(to: rootScreen)
    /// session.passMetaController(to: accountScreen)
    ///
    /// // On logout:
    /// session.reset()
    /// // On the next login:
    /// session[UserControllerKey.self] = SignedInUserController(user: grace)
    /// ```
    ///
    /// The consumers that hold this MetaController keep holding it, so the
    /// screens that stay read the next session's controllers with no pass of
    /// their own. Its registrations stay: the next request for a shared
    /// product makes a new one with the same factory. The values and products
    /// it let go of are released once nothing else holds them, after its lock
    /// is released, so their `deinit` may use it. Its parents, its children and
    /// its ``signals`` are untouched: reset a child scope of its own when a flow
    /// keeps per-user state there too.
    ///
    /// A request under way on another thread finishes with what it found, and a
    /// shared product being made while the scope is reset goes to the request
    /// that made it but is not kept; the next request makes a new one. A shared
    /// product an async factory is making goes to every request already waiting
    /// for it, and is not kept either: the first request after the reset starts
    /// a construction of its own rather than wait for the old session's.
    ///
    /// Consumers and controllers that keep a product themselves (a screen's
    /// `let cache = try metaController.make(AvatarCache.self)`) keep the old
    /// session's; make it again, or read it through the MetaController each time.
    public func reset() {
        let released = state.withLock { $0.reset() }
        withExtendedLifetime(released) {}
    }
}
