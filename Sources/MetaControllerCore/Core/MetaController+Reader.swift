extension MetaController: MetaControllerReader {
    /// This MetaController itself, so that it is a ``MetaControllerReader``.
    ///
    /// Code that holds the MetaController rather than receiving it (an app's
    /// launch code, a preview, a test) then has what every consumer has: the
    /// logging shortcuts, and the accessors an app declares for its custom
    /// slots on ``MetaControllerReader``:
    ///
    /// ```swift
    /// extension MetaControllerReader {
    ///     var favoritesController: (any FavoritesController)? { self[FavoritesControllerKey.self] }
    /// }
    ///
    /// let metaController = MetaController()
    /// metaController[FavoritesControllerKey.self] = AppFavoritesController()
    /// metaController.infoLog("launched")
    /// metaController.favoritesController?.add(42)
    /// ```
    ///
    /// The built-in slots, ``signals`` and the custom-slot subscript stay the
    /// MetaController's own (settable, and ``signals`` not optional).
    public var metaController: MetaController? { self }
}
