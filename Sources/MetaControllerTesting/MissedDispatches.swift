/// A listener of a key's declared value caught up with fewer payloads than were dispatched.
///
/// The bus of a test or preview MetaController keeps its last 10,000 dispatches, of all
/// signals together, so that what a key's `MetaControllerKey.testValue` (or `previewValue`)
/// starts listening to when it arrives it hears from the test's first line. A test that
/// dispatched more than that before the value was made lets the oldest go, and a listener that
/// catches up then hears only the payloads still kept: a strict MetaController
/// (``MetaControllerCore/MetaController/strict(reporting:)``) reports it.
///
/// ```swift
/// print(missed)   // ShareHistoryController caught up with itemShared without its 3 oldest payloads: ...
/// ```
public struct MissedDispatches: StrictReport, Equatable {
    /// The name of the signal the listener listens to.
    public let signal: String

    /// The name of the listener's type, or `nil` for a listener without an object (`listen(to:)`).
    public let listener: String?

    /// How many of the signal's payloads fell out of the record before the listener was added.
    public let missed: Int

    /// Describes a listener of the type named `listener` that caught up with `signal` without its `missed` oldest payloads.
    ///
    /// - Parameters:
    ///   - signal: The signal's name.
    ///   - listener: The listener's type name; `nil` for a token listener.
    ///   - missed: How many payloads it did not hear.
    public init(signal: String, listener: String?, missed: Int) {
        self.signal = signal
        self.listener = listener
        self.missed = missed
    }

    /// A sentence that names the listener, the signal, what it missed and the fix.
    public var description: String {
        "\(listener ?? "A token listener") caught up with \(signal) without its \(missed) oldest payload(s): "
            + "the test MetaController keeps the last 10,000 dispatches; read the key's slot before dispatching so many"
    }
}
