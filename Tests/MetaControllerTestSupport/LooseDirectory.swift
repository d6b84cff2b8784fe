package import Foundation

/// Creates `directory` open to everyone (mode 0777, or `mode`), owned by `owner` when one is given
/// (which needs root), as a store or log directory someone else set up loosely; `mode` 01777 makes
/// it shared as `/tmp` is.
package func makeLooseDirectory(_ directory: URL, owner: uid_t? = nil, mode: mode_t = 0o777) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    // chmod, not the umask-bound mkdir, so that every bit asked for is set.
    guard chmod(directory.path, mode) == 0 else {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: directory.path])
    }
    if let owner, chown(directory.path, owner, gid_t(owner)) != 0 {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: directory.path])
    }
}

/// The permission bits of the file or directory at `url`.
package func permissions(of url: URL) throws -> Int? {
    try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
}

/// The mode bits of the file or directory at `url`, the sticky, set-user-ID and set-group-ID bits
/// included (`01777` for `/tmp`), read with `stat`.
package func mode(of url: URL) throws -> Int {
    var status = stat()
    guard stat(url.path, &status) == 0 else {
        throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
    }
    return Int(status.st_mode) & 0o7777
}
