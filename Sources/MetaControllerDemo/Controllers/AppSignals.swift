import MetaController

/// The app's signals, declared once so a typo is a compile error.
enum AppSignals {
    /// An item was shared; the profile screen counts shares.
    static let itemShared = Signal<FeedItem>("itemShared")
}
