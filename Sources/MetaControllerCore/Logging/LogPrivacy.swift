/// How a value interpolated into a log message may be shown.
///
/// ```swift
/// infoLog("signed in \(user.name, privacy: .private) with \(token, privacy: .sensitive)")
/// // signed in <private> with <private>
/// ```
///
/// Interpolations without a privacy argument are public: they are shown as they are.
public enum LogPrivacy: Sendable, Equatable {
    /// Shown as it is. The default.
    case `public`
    /// Shown as `<private>`, unless the log controller reveals private values,
    /// which it does in debug builds only.
    case `private`
    /// Always shown as `<private>`, in every build: passwords, tokens, keys.
    case sensitive
}
