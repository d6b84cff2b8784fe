package import Foundation

/// Makes a directory refuse new entries, for fault tests, and undoes it.
///
/// Permissions do not stop root, which is what CI runs as here, so as root the
/// directory is made immutable with `chattr +i`; otherwise its mode becomes 0500.
package enum ReadOnlyDirectory {
    /// - Returns: Whether the directory now refuses new entries.
    package static func make(_ directory: URL) -> Bool {
        if geteuid() == 0 {
            guard run("/usr/bin/chattr", ["+i", directory.path]) else { return false }
        } else {
            guard (try? FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory.path)) != nil
            else { return false }
        }
        // Check that it worked: a new file must be refused.
        let probe = directory.appendingPathComponent("probe-\(UUID().uuidString)")
        if FileManager.default.createFile(atPath: probe.path, contents: Data()) {
            try? FileManager.default.removeItem(at: probe)
            undo(directory)
            return false
        }
        return true
    }

    package static func undo(_ directory: URL) {
        if geteuid() == 0 { _ = run("/usr/bin/chattr", ["-i", directory.path]) }
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: tool) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
