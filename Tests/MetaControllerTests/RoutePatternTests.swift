@testable import MetaControllerTesting
import Testing

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
        ] as [(String, String, [String: String])])
    func matches(pattern: String, path: String, parameters: [String: String]) {
        #expect(RoutePattern(pattern).match(path) == parameters)
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
    ])
    func doesNotMatch(pattern: String, path: String) {
        #expect(RoutePattern(pattern).match(path) == nil)
    }
}
