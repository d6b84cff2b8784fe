#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MetaControllerTestSupport
import Testing
@testable import MetaControllerTesting

/// The grammar of a `Host` value and of an absolute-form target's authority (RFC 3986,
/// section 3.2.2), with the C library's `inet_pton` as an independent oracle for IPv6.
@Suite struct URIAuthorityTests {
    @Test(arguments: [
        "a", "a.b.c", "127.0.0.1", "127.0.0.1:8080", "localhost:", "999.1.1.1", "a%20b", "",
        "[::1]", "[::1]:443", "[::]", "[1:2:3:4:5:6:7:8]", "[::ffff:10.0.0.1]", "[v7.a:b]", "[V1F.x]",
        "!$&'()*+,;=", "-._~",
    ])
    func acceptsAHostAndAnOptionalPort(text: String) {
        #expect(URIAuthority.isValid(text[...]))
    }

    @Test(arguments: [
        "a b", "x/y", "a@b", "[::1", "x:port", "a:1:2", "[::1]x", "[::1]:8a", "a%2", "a%zz", "caf\u{E9}",
        "[1:2:3:4:5:6:7:8:9]", "[1::2::3]", "[:::]", "[::1.2.3]", "[1.2.3.4::]", "[12345::]", "[v.x]", "[vg.x]",
        "[v1.]", "a\u{7F}", "a\tb", "[]", "a[b]", "a?b", "a#b", "[1:2:3:4:5:6:7::8]", "[::1:2:3:4:5:6:7:8]",
        "[1:2:3:4:5:6::1.2.3.4]",
    ])
    func refusesWhatIsNotAHostAndAPort(text: String) {
        #expect(!URIAuthority.isValid(text[...]))
    }

    @Test func anEmptyHostIsRefusedWhereOneIsRequired() {
        #expect(!URIAuthority.isValid(""[...], requiresHost: true))
        #expect(!URIAuthority.isValid(":80"[...], requiresHost: true))
        #expect(URIAuthority.isValid("a:80"[...], requiresHost: true))
    }

    /// A seeded sweep of strings built from the characters IPv6 addresses are made of, each
    /// judged by the parser and by `inet_pton`; they must agree on every one.
    @Test func agreesWithInetPtonOnASeededSweepOfIPv6Shapes() {
        var random = SeededGenerator(seed: 0x5EED_1F6)
        let alphabet = Array("0123456789abcdefABCDEF:.".utf8)
        let pieces = ["::", ":", "0", "ffff", "1.2.3.4", "255.255.255.255", "256.1.1.1", "01.2.3.4", "12345", "a:b"]
        var checked = 0
        for round in 0..<50_000 {
            var text: [UInt8] = []
            let length = Int(random.next() % 40)
            for _ in 0..<length {
                if round % 2 == 0 {
                    text.append(alphabet[Int(random.next() % UInt64(alphabet.count))])
                } else {
                    text += Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8)
                }
            }
            let string = String(decoding: text, as: UTF8.self)
            var address = in6_addr()
            let oracle = inet_pton(AF_INET6, string, &address) == 1
            #expect(URIAuthority.isIPv6(text[...]) == oracle, "\(string)")
            if URIAuthority.isIPv6(text[...]) != oracle { break }
            checked += 1
        }
        #expect(checked == 50_000)
    }

    @Test func aHundredThousandBytesAreCheckedInOnePass() {
        let long = String(repeating: "a", count: 100_000)
        #expect(URIAuthority.isValid(long[...]))
        let colons = "[" + String(repeating: "1:", count: 50_000) + "]"
        #expect(!URIAuthority.isValid(colons[...]))
    }
}
