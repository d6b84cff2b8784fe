/// A pass that left a consumer with the MetaController of another scope.
///
/// Passing never replaces a MetaController a consumer holds unless told to
/// (`replacingExisting: true`). When the one it keeps is not a scope of the
/// passing MetaController (neither it nor a child of it), the consumer was
/// almost certainly reused from another scope, a pooled request handler say,
/// and now serves this scope with the other's controllers. A strict
/// MetaController (``MetaControllerCore/MetaController/strict(reporting:)``) reports it:
///
/// ```swift
/// print(refused)   // NoteHandler kept the MetaController of another scope when passed one at Server.swift (line 12); pass replacingExisting: true to re-scope a reused object
/// ```
public struct RefusedPass: StrictReport, Equatable {
    /// The name of the consumer's type, such as `NoteHandler`.
    public let consumer: String

    /// The file of the pass, as `#fileID` gives it.
    public let file: String

    /// The line of the pass.
    public let line: UInt

    /// Describes a pass at `file` and `line` that a consumer of the type named `consumer` refused.
    ///
    /// - Parameters:
    ///   - consumer: The name of the consumer's type.
    ///   - file: The file of the pass.
    ///   - line: The line of the pass.
    public init(consumer: String, file: String, line: UInt) {
        self.consumer = consumer
        self.file = file
        self.line = line
    }

    /// A sentence that names the consumer's type, where the pass was, and the fix.
    public var description: String {
        let fileName = file.split(separator: "/").last.map(String.init) ?? file
        return "\(consumer) kept the MetaController of another scope when passed one at \(fileName) (line \(line)); "
            + "pass replacingExisting: true to re-scope a reused object"
    }
}
