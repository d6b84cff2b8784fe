import Foundation
import MetaController

/// A file in the temporary directory standing in for a stream, open for writing,
/// so that a test reads what was written there instead of printing it.
final class CapturedStream {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).log")
    let handle: FileHandle

    init() throws {
        try Data().write(to: url)
        handle = try FileHandle(forWritingTo: url)
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }

    /// Everything written so far.
    var text: String {
        get throws { try String(contentsOf: url, encoding: .utf8) }
    }

    /// What was written, one element a line.
    var lines: [String] {
        get throws { try text.split(separator: "\n").map(String.init) }
    }

    /// Runs `body` with this file in place of standard error for the package's
    /// writes (fallback destinations, warnings without a log controller) made
    /// in the current task.
    func asStandardError<Result>(_ body: () throws -> Result) rethrows -> Result {
        try POSIXFile.$standardError.withValue(handle.fileDescriptor, operation: body)
    }
}
