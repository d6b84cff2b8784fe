package import Foundation
import MetaController

/// A file in the temporary directory standing in for a stream, open for writing,
/// so that a test reads what was written there instead of printing it.
package final class CapturedStream {
    package let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).log")
    package let handle: FileHandle

    package init() throws {
        try Data().write(to: url)
        handle = try FileHandle(forWritingTo: url)
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }

    /// Everything written so far.
    package var text: String {
        get throws { try String(contentsOf: url, encoding: .utf8) }
    }

    /// What was written, one element a line.
    package var lines: [String] {
        get throws { try text.split(separator: "\n").map(String.init) }
    }

    /// Runs `body` with this file in place of standard error for the package's
    /// writes (fallback destinations, warnings without a log controller) made
    /// in the current task.
    package func asStandardError<Result>(_ body: () throws -> Result) rethrows -> Result {
        try POSIXFile.$standardError.withValue(handle.fileDescriptor, operation: body)
    }
}
