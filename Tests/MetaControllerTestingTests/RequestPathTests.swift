@testable import MetaControllerTesting
import Testing
import MetaControllerTestSupport

/// The mock server's request paths: split on `/`, each segment decoded, dot
/// segments removed as RFC 3986, section 5.2.4 does, a climb above the root refused.
@Suite struct RequestPathTests {
    /// RFC 3986, section 5.2.4, as the RFC writes it: an input buffer consumed
    /// from the front, rule by rule, into an output buffer. An independent
    /// oracle for paths with no percent-encoding (there, decoding changes nothing).
    private static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output = ""
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input.removeFirst(3)
            } else if input.hasPrefix("./") {
                input.removeFirst(2)
            } else if input.hasPrefix("/./") {
                input.removeFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") || input == "/.." {
                input = "/" + input.dropFirst(input == "/.." ? 3 : 4)
                if let slash = output.lastIndex(of: "/") { output.removeSubrange(slash...) } else { output = "" }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                // The first segment, with its leading "/" if any, up to the next "/".
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }

    /// Whether `path` has more `..` segments, at some point, than segments before them to remove.
    private static func climbsAboveRoot(_ path: String) -> Bool {
        var depth = 0
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            switch segment {
            case "..":
                if depth == 0 { return true }
                depth -= 1
            case ".": break
            default:
                // A trailing empty segment adds no depth; one in the middle does (`/a//..` is `/a/`).
                if !(segment.isEmpty && index == segments.count - 1) { depth += 1 }
            }
        }
        return false
    }

    @Test func aSeededSweepAgreesWithTheRFCsAlgorithm() throws {
        var generator = SeededGenerator(seed: 0x5EED_3986)
        let pieces = ["a", "b", "cd", ".", "..", "", "...", ".a", "a."]
        var compared = 0
        for _ in 0..<50_000 {
            let count = Int.random(in: 0...8, using: &generator)
            let path = "/" + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "/")
            if Self.climbsAboveRoot(path) {
                #expect(throws: RequestPath.Fault.aboveRoot, "\(path)") { try RequestPath(Substring(path)) }
            } else {
                let expected = Self.removeDotSegments(path)
                let got = try RequestPath(Substring(path)).path
                #expect(got == (expected.isEmpty ? "/" : expected), "\(path)")
                compared += 1
            }
        }
        #expect(compared > 20_000)
    }

    @Test(arguments: [
        ("/a/%2e/b", "/a/b"), ("/a/%2E%2e/b", "/b"), ("/a/.%2E", "/"), ("/a%2Fb/..", "/"),
        ("/%2e%2e%2f%2e%2e", "/../.."),   // one segment that decodes to hold "/", never split again
    ])
    func encodedDotsAreDotSegmentsButEncodedSlashesAreNotSeparators(raw: String, path: String) throws {
        #expect(try RequestPath(Substring(raw)).path == path)
    }

    @Test(arguments: [
        ("/%", RequestPath.Fault.badPercentEncoding), ("/%4", .badPercentEncoding), ("/%zz", .badPercentEncoding),
        ("/%C3", .notUTF8), ("/%FF", .notUTF8), ("/a%00", .nul), ("/..", .aboveRoot), ("/a/../..", .aboveRoot),
        ("/%2e%2e", .aboveRoot), ("/a#b", .fragment),
    ])
    func badPathsAreRefusedWithTheirReason(raw: String, fault: RequestPath.Fault) {
        #expect(throws: fault) { try RequestPath(Substring(raw)) }
    }

    /// Adversarial shapes on a 512 KB stack: nothing recurses per segment, and
    /// each finishes (the time is not measured; a quadratic walk would take minutes).
    @Test func hundredThousandSegmentsAndDotSegmentsOnASmallStack() async throws {
        let count = 100_000
        let results = try await onSmallStack(throwing: { () throws -> [Int] in
            let deep = String(repeating: "/a", count: count)
            let climbing = deep + String(repeating: "/..", count: count)
            let encoded = deep + String(repeating: "/%2E%2e", count: count - 1)
            let dots = String(repeating: "/.", count: count)
            return [
                try RequestPath(Substring(deep)).segments.count,
                try RequestPath(Substring(climbing)).segments == [""] ? 1 : 0,
                try RequestPath(Substring(encoded)).segments == ["a", ""] ? 1 : 0,   // "/a/a/.." is "/a/"
                try RequestPath(Substring(dots)).segments == [""] ? 1 : 0,
                (try? RequestPath(Substring(climbing + "/.."))) == nil ? 1 : 0,
            ]
        })
        #expect(results == [count, 1, 1, 1, 1])
    }

    @Test func aTenMegabyteSegmentIsDecodedWhole() async throws {
        let segment = String(repeating: "%41b", count: 10 * 1024 * 1024 / 4)
        let decoded = try await onSmallStack(throwing: { try RequestPath(Substring("/" + segment)).segments })
        #expect(decoded.count == 1)
        #expect(decoded.first?.utf8.count == 10 * 1024 * 1024 / 2)
        #expect(decoded.first?.hasPrefix("AbAb") == true)
    }
}
