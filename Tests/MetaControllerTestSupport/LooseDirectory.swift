package import Foundation

/// Creates `directory` open to everyone (mode 0777), owned by `owner` when one is given
/// (which needs root), as a store or log directory someone else set up loosely.
package func makeLooseDirectory(_ directory: URL, owner: uid_t? = nil) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
    if let owner, chown(directory.path, owner, gid_t(owner)) != 0 {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: directory.path])
    }
}

/// The permission bits of the file or directory at `url`.
package func permissions(of url: URL) throws -> Int? {
    try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
}
