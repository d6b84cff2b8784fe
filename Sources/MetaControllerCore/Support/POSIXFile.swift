#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

/// The few POSIX file calls the log destinations and the data store need, on every platform.
package enum POSIXFile {
    package static let standardOutput: Int32 = 1
    /// Where the package writes what goes to standard error: descriptor 2, unless
    /// a test has put a file of its own in its place for the task it runs in, to
    /// read what a failure path wrote there instead of printing it.
    @TaskLocal package static var standardError: Int32 = 2

    /// What ``openRegularFile(_:flags:)`` found.
    package enum OpenedFile {
        /// A regular file, in blocking mode, and its size.
        case opened(descriptor: Int32, size: Int)
        /// The system refused with this error number.
        case failed(Int32)
        /// Something other than a regular file is there; `kind` names it: "a symbolic link".
        case refused(kind: String)
        /// A regular file with `count` names (hard links): another name shares it, so what is written
        /// would reach that name's file too; refused, as `logrotate` refuses it.
        case linked(count: Int)

        /// Why the file was not opened: the system's reason, or what is there instead of a file.
        package var failure: String? {
            switch self {
            case .opened: nil
            case .failed(let number): POSIXFile.errorText(number)
            case .refused(let kind): "it is \(kind), not a regular file"
            case .linked(let count):
                "it has \(count) hard links (another name shares the file), so nothing is written to it; remove it and a file of its own is made"
            }
        }
    }

    /// Opens the regular file at `path` with `flags` (new files are `0600`), refusing anything else there
    /// without blocking: a symbolic link as the last component is not followed, a FIFO is not waited on.
    package static func openRegularFile(_ path: String, flags: Int32) -> OpenedFile {
        let descriptor = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // O_NOFOLLOW fails on a link with ELOOP, a FIFO without a reader opened for writing with
            // ENXIO: say what is there rather than that.
            let number = errno
            var status = stat()
            if number != ENOENT, lstat(path, &status) == 0, let kind = kind(of: status) { return .refused(kind: kind) }
            return .failed(number)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let number = errno
            close(descriptor)
            return .failed(number)
        }
        if let kind = kind(of: status) {
            close(descriptor)
            return .refused(kind: kind)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .opened(descriptor: descriptor, size: Int(status.st_size))
    }

    /// What the file described by `status` is, unless it is a regular file.
    package static func kind(of status: stat) -> String? {
        switch UInt32(status.st_mode) & UInt32(S_IFMT) {
        case UInt32(S_IFREG): nil
        case UInt32(S_IFLNK): "a symbolic link"
        case UInt32(S_IFDIR): "a directory"
        case UInt32(S_IFIFO): "a FIFO"
        case UInt32(S_IFCHR): "a character device"
        case UInt32(S_IFBLK): "a block device"
        case UInt32(S_IFSOCK): "a socket"
        default: "a special file"
        }
    }

    /// Takes every permission away from group and others on the directory at `path`, when it has
    /// any and belongs to this process's user (`0777` becomes `0700`).
    ///
    /// A shared directory, one with the sticky bit that group or others may write in (`/tmp`,
    /// `01777`), is refused and left as it is, as `logrotate` refuses it: restricting it would lock
    /// its other users out of their own files.
    ///
    /// - Returns: `nil` when the directory is its owner's only, or why it is not.
    package static func restrictToOwner(directory path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return errorText(errno) }
        defer { close(descriptor) }
        return restrictToOwner(directoryDescriptor: descriptor)
    }

    /// ``restrictToOwner(directory:)`` for a directory already open as `descriptor`.
    package static func restrictToOwner(directoryDescriptor descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return errorText(errno) }
        let mode = UInt32(status.st_mode) & 0o7777
        guard mode & 0o077 != 0 else { return nil }
        if mode & 0o1000 != 0, mode & 0o022 != 0 {
            return "it is a shared directory (mode 0\(String(mode, radix: 8)): sticky, and other users may write in it), "
                + "which is not made private; use a directory of its own inside it"
        }
        let loose = "it is open to other users (mode 0\(String(mode, radix: 8)))"
        guard status.st_uid == geteuid() else { return "\(loose) and belongs to another user" }
        guard fchmod(descriptor, mode_t(mode & 0o700)) == 0 else { return "\(loose) and cannot be changed: \(errorText(errno))" }
        return nil
    }

    /// Whether anything, a dangling symbolic link included, is at `path`.
    package static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Writes every byte. A descriptor in non-blocking mode (`O_NONBLOCK`, which a supervisor or a
    /// parent process may have set on a pipe it shares) that cannot take more now (`EAGAIN`) is
    /// waited on (`poll`) until it can, as a blocking one would be.
    ///
    /// - Returns: `0`, or the error number.
    @discardableResult
    package static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let count = bytes.withUnsafeBytes { Darwin.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            #else
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            #endif
            let number = errno
            if count < 0, number == EINTR { continue }
            if count < 0, number == EAGAIN || number == EWOULDBLOCK, waitUntilWritable(descriptor) { continue }
            guard count > 0 else { return number }
            offset += count
        }
        return 0
    }

    /// Waits until `descriptor` can take more bytes, or reports an error or a hang-up that the next
    /// write will name. - Returns: `false` when it cannot be waited on.
    private static func waitUntilWritable(_ descriptor: Int32) -> Bool {
        var target = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while poll(&target, 1, -1) < 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }

    package static func sync(_ descriptor: Int32) { _ = fsync(descriptor) }

    package static func close(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(descriptor)
        #else
        _ = Glibc.close(descriptor)
        #endif
    }

    package static func errorText(_ number: Int32) -> String {
        strerror(number).map { String(cString: $0) } ?? "error \(number)"
    }
}
