@testable import MetaControllerTesting
import Testing
import MetaControllerTestSupport

@Suite struct RoutePatternTests {
    @Test(
        arguments: [
            ("/", "/", [:]),
            ("/users", "/users", [:]),
            ("/users", "/users/", [:]),   // empty segments are ignored
            ("/users/:id", "/users/7", ["id": "7"]),
            ("/users/:id/posts/:post", "//users/7/posts/9", ["id": "7", "post": "9"]),
            ("/files/*", "/files/a", ["*": "a"]),
            ("/files/*", "/files/a/b/c.txt", ["*": "a/b/c.txt"]),
            ("/:kind/*", "/files/a/b", ["kind": "files", "*": "a/b"]),
            ("/*", "/anything/at/all", ["*": "anything/at/all"]),
            ("/a:b", "/a:b", [:]),   // a colon inside a segment is literal
            ("/items/:id", "/items/a%2Fb", ["id": "a/b"]),   // split first, then each segment decoded
            ("/items/:id/raw", "/items/a%2Fb/raw", ["id": "a/b"]),
            ("/items/:id", "/items/caf%C3%A9%20x", ["id": "café x"]),
            ("/files/*", "/files/a/../b/./c", ["*": "b/c"]),   // dot segments removed first
            ("/files/*", "/files/a/%2e%2E/b/%2E/c", ["*": "b/c"]),
            ("/files/*", "/files/a/.%2e/b", ["*": "b"]),
            ("/files/*", "/x/../files/y", ["*": "y"]),
            ("/:name", "/..%2F..%2Fetc", ["name": "../../etc"]),   // one segment, never split again
        ] as [(String, String, [String: String])])
    func matches(pattern: String, path: String, parameters: [String: String]) throws {
        #expect(try RoutePattern(pattern).match(path) == parameters)
    }

    @Test(arguments: [
        ("/users", "/"),
        ("/users", "/Users"),   // case matters
        ("/users", "/users/7"),
        ("/users/:id", "/users"),
        ("/users/:id", "/users/7/posts"),
        ("/files/*", "/files"),   // the wildcard needs a segment
        ("/files/*", "/other/a"),
        ("/", "/a"),
        ("/files/*", "/files/../../etc/passwd"),   // above the root: refused
        ("/files/*", "/files/%2e%2e/%2e%2e/etc/passwd"),
        ("/files/*", "/files/..%2F..%2Fetc/passwd"),   // the wildcard never takes a segment holding "/"
        ("/files/*", "/files/a%2Fb"),
        ("/files/*", "/files/a/.."),   // that is /files/
        ("/items/:id", "/items/a%00"),   // NUL: refused
        ("/items/:id", "/items/%C0%AF"),   // not UTF-8: refused
        ("/items/:id", "/items/a%2"),   // not two hex digits: refused
        ("/items/:id", "/items/a%zz"),
    ])
    func doesNotMatch(pattern: String, path: String) throws {
        #expect(try RoutePattern(pattern).match(path) == nil)
    }

    @Test(arguments: [
        ("/files/*/raw", "its * is not its last segment"),
        ("/*/*", "its * is not its last segment"),
        ("/files/*.txt", "its segment *.txt holds a *, which is allowed only as the whole last segment"),
        ("/users/:", "a : has no parameter name after it"),
        ("/:id/x/:id", "two parameters are named id"),
        ("/a/../b", "its segment .. is a dot segment, which no request path holds"),
        ("/a/./b", "its segment . is a dot segment, which no request path holds"),
        ("users/:id", "it does not start with /"),
        ("", "it does not start with /"),
        ("/search?q=1", "it holds ? or #; a route matches the path alone, without its query"),
    ])
    func refusesMalformedPatterns(pattern: String, reason: String) {
        #expect(throws: RoutePattern.Fault(reason: reason)) { try RoutePattern(pattern) }
    }
}
