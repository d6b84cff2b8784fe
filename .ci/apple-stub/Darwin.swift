// A stub of Apple's Darwin module for compile checks on Linux (.ci/check-apple). It is not
// Darwin: it re-exports, one by one, the Glibc declarations this package's `#if canImport(Darwin)`
// files use whose Swift shape is the same on both systems (for the package's uses: an Int32
// constant, a C function with the same parameters), and declares the few names that exist only
// on Darwin or have another shape there, as the macOS/iOS SDK's headers import them into Swift.
// Nothing here runs: bodies are `fatalError()`.
//
// Mirrors: the iOS 26 / macOS 26 SDK's usr/include (sys/socket.h, sys/stat.h, netinet/in.h,
// sys/fcntl.h, pthread/pthread.h, sys/_pthread/_pthread_types.h) as Swift imports them. No Apple
// page was consulted for these: the values and field names are those of the BSD headers the SDK
// ships (also in apple-oss-distributions/xnu and libpthread), written from them, not checked here
// against an SDK. The sources' own Darwin branches name them (sin_len, SO_NOSIGPIPE,
// F_SETNOSIGPIPE, st_ctimespec, pthread_self() as a pointer).
//
// What it cannot show: a re-exported Glibc name keeps Glibc's shape, so a difference in a name
// listed there (mode_t is UInt16 on Darwin, UInt32 here; pthread_key_t is UInt there, UInt32
// here) is not seen. A file that also imports Foundation sees all of Glibc through it (Linux's
// Foundation re-exports Glibc where Apple's re-exports Darwin), so there a Linux-only name or
// shape in a Darwin branch compiles. Only what the package uses is here: a new Darwin call
// needs a line below.

// MARK: - The same on both systems (for the package's uses): Glibc's declarations

import Glibc

/// sys/stat.h: `struct stat`. A typealias: Glibc's struct cannot be re-exported by name, its
/// function `stat(_:_:)` shares the name.
public typealias stat = Glibc.stat

/// sys/file.h: `func flock(_: Int32, _: Int32) -> Int32`, declared again because Glibc's cannot
/// be re-exported by name (its `struct flock` shares it). Disfavoured, so that in a file that
/// also imports Foundation (and so Glibc's `flock`) the call is not ambiguous.
@_disfavoredOverload @discardableResult
public func flock(_ fd: Int32, _ operation: Int32) -> Int32 { fatalError("stub") }

@_exported import func Glibc.fstat
@_exported import func Glibc.lstat
@_exported import struct Glibc.timespec
@_exported import struct Glibc.timeval
@_exported import func Glibc.clock_gettime
@_exported import var Glibc.CLOCK_REALTIME
@_exported import var Glibc.errno
@_exported import func Glibc.strerror
@_exported import func Glibc.open
@_exported import func Glibc.openat
@_exported import func Glibc.close
@_exported import func Glibc.read
@_exported import func Glibc.write
@_exported import func Glibc.fsync
@_exported import func Glibc.fcntl
@_exported import func Glibc.fchmod
@_exported import func Glibc.unlinkat
@_exported import func Glibc.renameat
@_exported import func Glibc.geteuid
@_exported import func Glibc.pipe
@_exported import func Glibc.poll
@_exported import struct Glibc.pollfd
@_exported import typealias Glibc.nfds_t
@_exported import typealias Glibc.mode_t
@_exported import func Glibc.sched_yield
@_exported import typealias Glibc.pthread_key_t
@_exported import func Glibc.pthread_key_create
@_exported import func Glibc.pthread_getspecific
@_exported import func Glibc.pthread_setspecific
@_exported import func Glibc.socket
@_exported import func Glibc.bind
@_exported import func Glibc.listen
@_exported import func Glibc.accept
@_exported import func Glibc.getsockname
@_exported import func Glibc.setsockopt
@_exported import func Glibc.recv
@_exported import func Glibc.send
@_exported import func Glibc.shutdown
@_exported import func Glibc.inet_addr
@_exported import struct Glibc.sockaddr
@_exported import struct Glibc.sockaddr_in
@_exported import typealias Glibc.sa_family_t
@_exported import typealias Glibc.socklen_t
@_exported import var Glibc.AF_INET
@_exported import var Glibc.SOL_SOCKET
@_exported import var Glibc.SO_SNDTIMEO
@_exported import var Glibc.POLLIN
@_exported import var Glibc.POLLOUT
@_exported import var Glibc.O_RDONLY
@_exported import var Glibc.O_WRONLY
@_exported import var Glibc.O_CREAT
@_exported import var Glibc.O_EXCL
@_exported import var Glibc.O_NOFOLLOW
@_exported import var Glibc.O_NONBLOCK
@_exported import var Glibc.O_CLOEXEC
@_exported import var Glibc.O_DIRECTORY
@_exported import var Glibc.F_GETFL
@_exported import var Glibc.F_SETFL
@_exported import var Glibc.AT_REMOVEDIR
@_exported import var Glibc.LOCK_EX
@_exported import var Glibc.LOCK_SH
@_exported import var Glibc.LOCK_NB
@_exported import var Glibc.S_IFMT
@_exported import var Glibc.S_IFREG
@_exported import var Glibc.S_IFLNK
@_exported import var Glibc.S_IFDIR
@_exported import var Glibc.S_IFIFO
@_exported import var Glibc.S_IFCHR
@_exported import var Glibc.S_IFBLK
@_exported import var Glibc.S_IFSOCK
@_exported import var Glibc.EINTR
@_exported import var Glibc.ENOENT
@_exported import var Glibc.EWOULDBLOCK
@_exported import var Glibc.EAGAIN
@_exported import func Glibc.readdir
/// dirent.h: `struct dirent` (its `d_name` is 1,024 bytes on Darwin, 256 on Linux; the package
/// reads it in place, up to its NUL) and string.h's `strlen`.
@_exported import struct Glibc.dirent
@_exported import func Glibc.strlen
@_exported import func Glibc.fstatat
@_exported import func Glibc.fdopendir
@_exported import func Glibc.closedir
@_exported import var Glibc.EPERM
@_exported import var Glibc.EISDIR
@_exported import var Glibc.AT_SYMLINK_NOFOLLOW

// MARK: - Darwin's own shapes

/// sys/_pthread/_pthread_types.h: `pthread_t` is a pointer on Darwin (an integer on Linux).
/// The SDK's struct has fields (`__sig`, `__cleanup_stack`, `__opaque`); none is used here.
public struct _opaque_pthread_t {}
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>

/// pthread/pthread.h: `func pthread_self() -> pthread_t`.
public func pthread_self() -> pthread_t { fatalError("stub") }

/// sys/socket.h: `#define SOCK_STREAM 1`, an `Int32` in Swift (Glibc's is an enum value).
public var SOCK_STREAM: Int32 { 1 }

/// sys/socket.h: `#define SHUT_RDWR 2`, an `Int32` in Swift (Glibc's is an enum value).
public var SHUT_RDWR: Int32 { 2 }

/// sys/socket.h: `#define SO_NOSIGPIPE 0x1022`; Darwin only (Linux has MSG_NOSIGNAL instead).
public var SO_NOSIGPIPE: Int32 { 0x1022 }

/// sys/fcntl.h: `#define F_SETNOSIGPIPE 73`, "No SIGPIPE generated on EPIPE", for `fcntl` on any
/// descriptor (a pipe's too); Darwin only. Under `__DARWIN_C_LEVEL >= __DARWIN_C_FULL`, the default.
public var F_SETNOSIGPIPE: Int32 { 73 }

extension sockaddr_in {
    /// netinet/in.h: `__uint8_t sin_len`, the first field of a BSD socket address; not on Linux.
    public var sin_len: UInt8 {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
}

extension stat {
    /// sys/stat.h: Darwin names the times `st_atimespec`, `st_mtimespec`, `st_ctimespec`
    /// (Linux: `st_atim`, `st_mtim`, `st_ctim`).
    public var st_atimespec: timespec { st_atim }
    public var st_mtimespec: timespec { st_mtim }
    public var st_ctimespec: timespec { st_ctim }
}
