import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

@Suite struct AppConfigurationTests {
    private static let full = """
        {
            "api": {
                "baseURLs": {
                    "production": "https://api.example.com/v1",
                    "staging": "https://staging.example.com/v1",
                    "test": "http://127.0.0.1:8080"
                },
                "timeoutSeconds": 20,
                "retry": { "maximumAttempts": 3, "initialDelaySeconds": 0.5, "retryableStatusCodes": [503] },
                "logsBodies": true
            },
            "log": {
                "level": "debug",
                "destinations": [
                    { "kind": "standardError", "level": "warning", "format": "detailedLine" },
                    { "kind": "file", "directory": "Logs", "maximumFileBytes": 4096, "keptFiles": 3 },
                    { "kind": "memory", "capacity": 10 }
                ]
            }
        }
        """

    private func load(_ json: String) throws(ConfigurationError) -> AppConfiguration {
        try AppConfiguration(data: Data(json.utf8))
    }

    private func expectError(_ json: String, _ code: ConfigurationError.Code, at keyPath: String) {
        #expect {
            try load(json)
        } throws: { error in
            let error = error as? ConfigurationError
            return error?.code == code && error?.keyPath == keyPath
                && error?.description.hasPrefix(keyPath.isEmpty ? "" : "\(keyPath): ") == true
        }
    }

    @Test func decodesEverySetting() throws {
        let configuration = try load(Self.full)
        #expect(try configuration.api.baseURL(for: .staging).absoluteString == "https://staging.example.com/v1")
        #expect(configuration.api.timeout == .seconds(20))
        #expect(configuration.api.retryPolicy.maximumAttempts == 3)
        #expect(configuration.api.retryPolicy.initialDelay == .milliseconds(500))
        #expect(configuration.api.retryPolicy.retryableStatusCodes == [503])
        #expect(configuration.api.logsBodies)
        #expect(configuration.log.level == .debug)
        #expect(
            configuration.log.destinations == [
                LogDestinationConfiguration(kind: .standardError, level: .warning, format: .detailedLine),
                LogDestinationConfiguration(kind: .file, directory: "Logs", maximumFileBytes: 4096, keptFiles: 3),
                LogDestinationConfiguration(kind: .memory, capacity: 10),
            ])
    }

    @Test func onlyTheBaseURLsAreRequiredAndNullMeansAbsent() throws {
        let configuration = try load(#"{"api": {"baseURLs": {"test": "http://127.0.0.1:1"}, "logsBodies": null}}"#)
        #expect(configuration.api.timeout == .seconds(60))
        #expect(configuration.api.retryPolicy == .none)
        #expect(configuration.log == LogConfiguration())
        #expect(configuration.log.destinations.map(\.kind) == [.standardError])
    }

    @Test func aPropertyListDecodesTheSame() throws {
        let json = try load(Self.full)
        let plist = try PropertyListEncoder().encode(json)
        #expect(try AppConfiguration(data: plist) == json)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        #expect(try AppConfiguration(data: encoder.encode(json)) == json)
    }

    @Test func aConfigurationRoundTripsThroughJSON() throws {
        let configuration = try load(Self.full)
        #expect(try AppConfiguration(data: JSONEncoder().encode(configuration)) == configuration)
    }

    @Test func loadsFromAFileAndNamesAFileItCannotRead() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).json")
        try Data(Self.full.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try AppConfiguration.load(from: url).log.level == .debug)
        let missing = url.appendingPathExtension("missing")
        #expect {
            try AppConfiguration.load(from: missing)
        } throws: { error in
            (error as? ConfigurationError)?.code == .unreadableFile
                && (error as? ConfigurationError)?.description.contains(missing.path) == true
        }
    }

    @Test(arguments: [
        (#"{"api": {"baseURLs": {}}, "logs": {}}"#, "logs"),
        (#"{"api": {"baseURLs": {}, "timeout": 3}}"#, "api.timeout"),
        (#"{"api": {"baseURLs": {}, "retry": {"maximumAttempts": 2, "delay": 1}}}"#, "api.retry.delay"),
        (
            #"{"api": {"baseURLs": {}}, "log": {"destinations": [{"kind": "memory"}, {"kind": "memory", "directory": "x"}]}}"#,
            "log.destinations[1].directory"
        ),
    ])
    func unknownKeysAreNamed(json: String, keyPath: String) {
        expectError(json, .unknownKey, at: keyPath)
    }

    /// Configuration.md's own example of an error, word for word.
    @Test func capacityOnAFileDestinationIsTheDocumentedUnknownKey() throws {
        let json = """
            {"api": {"baseURLs": {}}, "log": {"destinations": [
                {"kind": "memory", "capacity": 500},
                {"kind": "file", "directory": "Logs", "capacity": 500}
            ]}}
            """
        do {
            _ = try load(json)
            Issue.record("a file destination with a capacity decoded")
        } catch {
            #expect(error.code == .unknownKey)
            #expect(
                error.description
                    == "log.destinations[1].capacity: unknown key; expected one of directory, fileName, format, keptFiles, kind, level, maximumFileBytes"
            )
        }
    }

    /// Each kind-specific key with a valid value, on every kind it does not apply to.
    private static let misplacedKeys: [(kind: String, key: String, value: String)] = {
        let fileKeys = [("directory", #""Logs""#), ("fileName", #""app.log""#), ("maximumFileBytes", "4096"), ("keptFiles", "3")]
        let memoryKeys = [("capacity", "10")]
        var cases: [(kind: String, key: String, value: String)] = []
        for kind in LogDestinationConfiguration.Kind.allCases {
            let misplaced = kind == .file ? memoryKeys : kind == .memory ? fileKeys : fileKeys + memoryKeys
            cases += misplaced.map { (kind.rawValue, $0.0, $0.1) }
        }
        return cases
    }()

    @Test(arguments: misplacedKeys)
    func aKeyThatDoesNotApplyToTheKindIsRefused(destination: (kind: String, key: String, value: String)) throws {
        let expected: String
        switch destination.kind {
        case "file": expected = "directory, fileName, format, keptFiles, kind, level, maximumFileBytes"
        case "memory": expected = "capacity, format, kind, level"
        default: expected = "format, kind, level"
        }
        let directory = destination.kind == "file" ? #", "directory": "Logs""# : ""
        let json = """
            {"api": {"baseURLs": {}}, "log": {"destinations": [
                {"kind": "\(destination.kind)"\(directory), "\(destination.key)": \(destination.value)}
            ]}}
            """
        do {
            _ = try load(json)
            Issue.record("\(destination.key) on a \(destination.kind) destination decoded")
        } catch {
            #expect(error.code == .unknownKey)
            #expect(error.description == "log.destinations[0].\(destination.key): unknown key; expected one of \(expected)")
        }
    }

    @Test(arguments: [
        (#"{"api": {"baseURLs": {"test": 7}}}"#, "api.baseURLs.test"),
        (#"{"api": {"baseURLs": {}, "timeoutSeconds": "20"}}"#, "api.timeoutSeconds"),
        (#"{"api": {"baseURLs": {}}, "log": {"destinations": {"kind": "file"}}}"#, "log.destinations"),
        (#"{"api": []}"#, "api"),
    ])
    func wrongTypesAreNamed(json: String, keyPath: String) {
        expectError(json, .typeMismatch, at: keyPath)
    }

    @Test(arguments: [
        (#"{"api": {"baseURLs": {"staging": "htp:/nothing"}}}"#, "api.baseURLs.staging"),
        (#"{"api": {"baseURLs": {"staging": "ftp://files.example.com"}}}"#, "api.baseURLs.staging"),
        (#"{"api": {"baseURLs": {"staging": ""}}}"#, "api.baseURLs.staging"),
        (#"{"api": {"baseURLs": {}, "timeoutSeconds": -1}}"#, "api.timeoutSeconds"),
        (#"{"api": {"baseURLs": {}, "timeoutSeconds": 1e300}}"#, "api.timeoutSeconds"),
        (#"{"api": {"baseURLs": {}, "retry": {"maximumAttempts": 0}}}"#, "api.retry.maximumAttempts"),
        (#"{"api": {"baseURLs": {}}, "log": {"level": "verbose"}}"#, "log.level"),
        (#"{"api": {"baseURLs": {}}, "log": {"destinations": [{"kind": "carrier pigeon"}]}}"#, "log.destinations[0].kind"),
        (
            #"{"api": {"baseURLs": {}}, "log": {"destinations": [{"kind": "file", "directory": "x", "keptFiles": 0}]}}"#,
            "log.destinations[0].keptFiles"
        ),
        (
            #"{"api": {"baseURLs": {}}, "log": {"destinations": [{"kind": "file", "directory": "x", "fileName": "../up"}]}}"#,
            "log.destinations[0].fileName"
        ),
    ])
    func badValuesAreNamed(json: String, keyPath: String) {
        expectError(json, .invalidValue, at: keyPath)
    }

    @Test(arguments: [
        (
            #"{"log": {"level": "loud"}}"#, "log.level",
            #"expected one of trace, debug, info, notice, warning, error, critical; found "loud""#
        ),
        (
            #"{"log": {"destinations": [{"kind": "memory"}, {"kind": "memory", "level": "LOUD"}]}}"#,
            "log.destinations[1].level", #"expected one of trace, debug, info, notice, warning, error, critical; found "LOUD""#
        ),
        (
            #"{"log": {"destinations": [{"kind": "carrier pigeon"}]}}"#, "log.destinations[0].kind",
            #"expected one of standardError, standardOutput, file, memory, system; found "carrier pigeon""#
        ),
        (
            #"{"log": {"destinations": [{"kind": "memory", "format": "xml"}]}}"#, "log.destinations[0].format",
            #"expected one of line, detailedLine, jsonLines; found "xml""#
        ),
        (
            #"{"log": {"destinations": [{"kind": "memory", "format": "say \"hi\""}]}}"#, "log.destinations[0].format",
            #"expected one of line, detailedLine, jsonLines; found "say \"hi\"""#
        ),
    ])
    func anUnknownNameListsTheNamesThatAreValid(log: String, keyPath: String, reason: String) throws {
        let json = #"{"api": {"baseURLs": {}}, "# + log.dropFirst()
        do {
            _ = try load(String(json))
            Issue.record("\(keyPath) decoded")
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.keyPath == keyPath)
            #expect(error.reason == reason)
            #expect(error.description == "\(keyPath): \(reason)")
        }
    }

    @Test(arguments: [(1.5, Duration.milliseconds(1500)), (0.3, .milliseconds(300)), (0.001, .milliseconds(1)), (20, .seconds(20))])
    func fractionalSecondsAreKept(seconds: Double, expected: Duration) throws {
        // swift-format-ignore
        let configuration = try load(#"{"api": {"baseURLs": {}, "timeoutSeconds": \#(seconds), "retry": {"maximumAttempts": 2, "initialDelaySeconds": \#(seconds), "maximumDelaySeconds": \#(seconds)}}}"#)
        #expect(configuration.api.timeout == expected)
        #expect(configuration.api.retryPolicy.initialDelay == expected)
        #expect(configuration.api.retryPolicy.maximumDelay == expected)
        #expect(try AppConfiguration(data: JSONEncoder().encode(configuration)) == configuration)
    }

    // MARK: - Seconds that round to no time at all

    @Test(arguments: ["5e-324", "1e-10", "4.999999999999999e-10", "0.0000000004", "2.2250738585072014e-308", "0", "-0.0"])
    func aNumberOfSecondsThatRoundsToZeroNanosecondsIsRefused(seconds: String) {
        // Above 0, but a timeout of 0 nanoseconds: every request would time out at once.
        for key in ["timeoutSeconds", "retry.initialDelaySeconds", "retry.maximumDelaySeconds"] {
            expectError(Self.apiJSON(key, seconds), .invalidValue, at: "api.\(key)")
        }
    }

    // 1.5e-9 is 1.49999999999999999002…e-9 as a Double: the exact value is rounded, so it is 1 nanosecond.
    @Test(
        arguments: [
            ("5e-10", 1), ("0.000000001", 1), ("1.4e-9", 1), ("1.5e-9", 1), ("1.6e-9", 2), ("0.3", 300_000_000),
            ("31536000", 31_536_000_000_000_000),
        ] as [(String, Int64)])
    func theSmallestNumberOfSecondsAcceptedRoundsToOneNanosecond(seconds: String, nanoseconds: Int64) throws {
        let configuration = try load(Self.apiJSON("timeoutSeconds", seconds))
        #expect(configuration.api.timeout == .nanoseconds(nanoseconds))
    }

    @Test func theReasonSaysWhatIsAccepted() {
        #expect {
            try load(Self.apiJSON("timeoutSeconds", "1e-10"))
        } throws: { error in
            (error as? ConfigurationError)?.reason
                == "must be a number of seconds that is at least 1 nanosecond once rounded to the nanosecond, and at most a year (31536000); found 1e-10"
        }
    }

    /// Numbers of seconds near the edges (half a nanosecond, the halves between
    /// nanoseconds, a year), a few units in the last place either side, and at
    /// random: each is accepted exactly when its exact value rounds to between
    /// 1 nanosecond and a year, and then is that many nanoseconds. The oracle
    /// works on decimal digits, not on the code under test's binary arithmetic.
    @Test func aSweepNearTheEdgesAgreesWithExactDecimalArithmetic() throws {
        var generator = SeededGenerator(seed: 0x1_2027)
        var edges: [Double] = [5e-10, 1.5e-9, 2.5e-9, 31_536_000, 0.3, 1.0000000005]
        for _ in 0..<40 {
            // (2n + 1) half nanoseconds: a value exactly halfway between two nanoseconds.
            let halves = 2 * UInt64.random(in: 0..<2_000_000_000, using: &generator) + 1
            edges.append(Double("\(halves / 2).5e-9")!)
        }
        var values: [Double] = [.leastNonzeroMagnitude, .leastNormalMagnitude, 1e-300, 31_536_000.000_000_004]
        for edge in edges {
            var below = edge, above = edge
            values.append(edge)
            for _ in 0..<12 {
                below = below.nextDown
                above = above.nextUp
                values += [below, above]
            }
        }
        for _ in 0..<300 {
            values.append(Double.random(in: 0..<2e-9, using: &generator))
            values.append(Double.random(in: 0..<40_000_000, using: &generator))
        }
        var accepted = 0, refused = 0
        for seconds in values {
            let text = "\(seconds)"
            try #require(Double(text) == seconds)
            let expected = Self.exactNanoseconds(seconds)
            let valid = expected.map { $0 >= 1 && $0 <= 31_536_000_000_000_000 } ?? false
            let configuration = try? load(Self.apiJSON("timeoutSeconds", text))
            if valid, let expected {
                accepted += 1
                #expect(configuration?.api.timeout == .nanoseconds(Int64(expected)), "\(text) s")
            } else {
                refused += 1
                #expect(configuration == nil, "\(text) s")
            }
        }
        #expect(accepted > 100 && refused > 100)
    }

    /// A configuration whose `api` holds `seconds` at `key` (`retry.` keys inside `retry`).
    private static func apiJSON(_ key: String, _ seconds: String) -> String {
        guard key.hasPrefix("retry.") else { return #"{"api": {"baseURLs": {}, "\#(key)": \#(seconds)}}"# }
        return #"{"api": {"baseURLs": {}, "retry": {"maximumAttempts": 2, "\#(key.dropFirst(6))": \#(seconds)}}}"#
    }

    /// The nanoseconds nearest `seconds` (a half rounds up), from its exact
    /// decimal expansion: a double is m × 2^e, and for e < 0 that is
    /// m × 5^-e / 10^-e, whose digits are computed one by one. `nil` when it
    /// does not fit 64 bits.
    private static func exactNanoseconds(_ seconds: Double) -> UInt64? {
        let bits = seconds.bitPattern
        let biased = Int((bits >> 52) & 0x7FF), fraction = bits & (1 << 52 - 1)
        let m = biased == 0 ? fraction : fraction | 1 << 52
        let e = biased == 0 ? -1074 : biased - 1075
        // Decimal digits, least significant first.
        var digits = String(m).reversed().map { Int($0.wholeNumberValue!) }
        func multiply(by factor: Int) {
            var carry = 0
            for index in digits.indices {
                let product = digits[index] * factor + carry
                digits[index] = product % 10
                carry = product / 10
            }
            while carry > 0 {
                digits.append(carry % 10)
                carry /= 10
            }
        }
        // N = m × 2^e × 10^9 × 10^k, with k decimal places: k = -e when e < 0.
        let places = max(0, -e)
        if e >= 0 { for _ in 0..<e { multiply(by: 2) } } else { for _ in 0..<places { multiply(by: 5) } }
        for _ in 0..<9 { multiply(by: 10) }
        // Now digits × 10^-places is the value in nanoseconds.
        let roundUp = places > 0 && places <= digits.count && digits[places - 1] >= 5
        var whole: UInt64 = 0
        for digit in digits.dropFirst(places).reversed() {
            let (times10, overflow1) = whole.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return nil }
            whole = sum
        }
        return roundUp ? whole + 1 : whole
    }

    @Test(arguments: [
        (#"{}"#, "api"),
        (#"{"api": {}}"#, "api.baseURLs"),
        (#"{"api": {"baseURLs": {}, "retry": {}}}"#, "api.retry.maximumAttempts"),
        (#"{"api": {"baseURLs": {}}, "log": {"destinations": [{"kind": "file"}]}}"#, "log.destinations[0].directory"),
        (#"{"api": {"baseURLs": {}}, "log": {"destinations": [{"level": "info"}]}}"#, "log.destinations[0].kind"),
    ])
    func missingKeysAreNamed(json: String, keyPath: String) {
        expectError(json, .missingKey, at: keyPath)
    }

    @Test(arguments: ["", "{", "not json", "[1, 2", "<?xml version=\"1.0\"?><plist><dict><key>api</key>"])
    func malformedFilesAreRefusedWithoutACrash(text: String) {
        expectError(text, .malformedFile, at: "")
    }

    private static func xmlPropertyList(levels: Int) -> Data {
        Data(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">"
                + String(repeating: "<array>", count: levels) + String(repeating: "</array>", count: levels) + "</plist>").utf8)
    }

    private static func json(levels: Int) -> Data {
        Data((String(repeating: "[", count: levels) + String(repeating: "]", count: levels)).utf8)
    }

    /// A binary property list of `levels` arrays, each holding the next.
    private static func binaryPropertyList(levels: Int) -> Data {
        var bytes = Array("bplist00".utf8), offsets: [Int] = []
        for number in 0..<levels {
            offsets.append(bytes.count)
            if number == levels - 1 {
                bytes.append(0xA0)
            } else {
                bytes.append(0xA1)
                bytes += withUnsafeBytes(of: UInt32(number + 1).bigEndian, Array.init)
            }
        }
        let table = bytes.count
        for offset in offsets { bytes += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4]
        for value in [UInt64(levels), 0, UInt64(table)] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        return Data(bytes)
    }

    /// The same nesting as an XML property list, JSON and a binary property list.
    private static func everyFormat(levels: Int) -> [Data] {
        [xmlPropertyList(levels: levels), json(levels: levels), binaryPropertyList(levels: levels)]
    }

    /// The error decoding `data` throws, or `nil` when it decodes.
    private static func outcome(of data: Data) -> ConfigurationError? {
        do throws(ConfigurationError) {
            _ = try AppConfiguration(data: data)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [10_000, 100_000])
    func deeplyNestedFilesAreRefusedBeforeFoundationParsesThem(levels: Int) async {
        let reasons = await onSmallStack { () -> [String] in
            Self.everyFormat(levels: levels).map { Self.outcome(of: $0).map { "\($0.code): \($0)" } ?? "decoded" }
        }
        #expect(
            reasons == [
                "malformedFile: nested more than 64 levels deep",
                "malformedFile: nested more than 64 levels deep",
                "malformedFile: not a binary property list nested at most 64 levels deep",
            ])
    }

    @Test func nestingUpToTheLimitReachesTheDecoder() async {
        let codes = await onSmallStack { () -> [String] in
            [64, 65].flatMap { levels in
                Self.everyFormat(levels: levels).map { Self.outcome(of: $0).map { "\($0.code)" } ?? "decoded" }
            }
        }
        // 64 levels of arrays are not a configuration (a dictionary), but only the decoder can say so.
        #expect(codes == ["typeMismatch", "typeMismatch", "typeMismatch", "malformedFile", "malformedFile", "malformedFile"])
    }

    @Test func aLargeShallowFileIsMeasuredAndDecoded() async {
        // 10 MB: refused for what it says, not for its size. Built and decoded on a
        // thread of its own, so as not to hold up the test runner's threads.
        let failure = await onSmallStack { () -> [String] in
            let json = #"{"api": {"baseURLs": {}}, "padding": ""# + String(repeating: "[{", count: 5_000_000) + #""}"#
            return Self.outcome(of: Data(json.utf8)).map { [$0.code.description, $0.keyPath] } ?? []
        }
        #expect(failure == [ConfigurationError.Code.unknownKey.description, "padding"])
    }

    @Test(arguments: [
        (#"{"api": {"baseURLs": {}}, "api": {"baseURLs": {"production": "https://x.example"}}}"#, "api"),
        (#"{"api": {"baseURLs": {}}, "\u0061pi": {"baseURLs": {}}}"#, "api"),
        (#"{"api": {"baseURLs": {"test": "http://a", "t\u0065st": "http://b"}}}"#, "api.baseURLs.test"),
        (
            #"{"api": {"baseURLs": {}}, "log": {"destinations": [{"kind": "memory", "level": "debug", "level": "info"}]}}"#,
            "log.destinations[0].level"
        ),
    ])
    func aKeyThatAppearsTwiceIsRefusedWithItsPath(json: String, keyPath: String) throws {
        expectError(json, .duplicateKey, at: keyPath)
        let error = try #require(throws: ConfigurationError.self) { try load(json) }
        #expect(error.description == "\(keyPath): the key appears twice")
    }

    @Test func aKeyThatAppearsTwiceInAPropertyListIsRefusedWithItsPath() throws {
        // Foundation's property-list decoders keep one of the two values without a word.
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
              <key>api</key><dict><key>baseURLs</key><dict><key>test</key><string>http://a</string></dict></dict>
              <key>log</key><dict><key>destinations</key><array>
                <dict><key>kind</key><string>memory</string><key>level</key><string>debug</string><key>&#108;evel</key><string>info</string></dict>
              </array></dict>
            </dict></plist>
            """
        let error = try #require(throws: ConfigurationError.self) { try AppConfiguration(data: Data(xml.utf8)) }
        #expect(error.code == .duplicateKey)
        #expect(error.description == "log.destinations[0].level: the key appears twice")
        // The same in binary: `api` twice, as two string objects.
        let binary = PropertyListStructureTests.binary([
            .dictionary([(1, 3), (2, 4)]), .ascii("api"), .utf16("api"), .dictionary([(5, 6)]), .dictionary([(5, 6)]),
            .ascii("baseURLs"), .dictionary([]),
        ])
        let binaryError = try #require(throws: ConfigurationError.self) { try AppConfiguration(data: binary) }
        #expect(binaryError.code == .duplicateKey)
        #expect(binaryError.description == "api: the key appears twice")
        // Without the second key, the same files decode.
        #expect(
            try AppConfiguration(data: Data(xml.replacingOccurrences(of: "<key>&#108;evel</key><string>info</string>", with: "").utf8))
                .log.destinations.count == 1)
        let single = PropertyListStructureTests.binary([
            .dictionary([(1, 2)]), .ascii("api"), .dictionary([(3, 4)]), .ascii("baseURLs"), .dictionary([]),
        ])
        #expect(try AppConfiguration(data: single).api.baseURLs.isEmpty)
    }

    @Test func aDuplicateAmongAHundredThousandKeysIsFoundOnASmallStack() async {
        let keys = (0..<100_000).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let json = #"{"api": {"baseURLs": {}}, \#(keys), "k0": 1}"#
        let description = await onSmallStack { () -> String in
            do throws(ConfigurationError) {
                _ = try AppConfiguration(data: Data(json.utf8))
                return "decoded"
            } catch {
                return "\(error.code): \(error)"
            }
        }
        #expect(description == "duplicateKey: k0: the key appears twice")
    }

    @Test func anEnvironmentWithoutABaseURLIsNamed() throws {
        let configuration = try load(Self.full)
        #expect {
            try configuration.api.baseURL(for: "qa")
        } throws: { error in
            (error as? ConfigurationError)?.code == .unknownEnvironment
                && (error as? ConfigurationError)?.description
                    == "api.baseURLs.qa: no base URL for environment qa; the configuration has production, staging, test"
        }
    }
}

/// A configuration bootstrapping a MetaController whose API controller talks to a mock server.
@Suite struct MetaControllerConfigurationTests {
    @Test func theTestEnvironmentTalksToAMockServer() async throws {
        let server = MockAPIServer()
        server.route(.get, "/ping", response: .text("pong"))
        try server.start()
        defer { server.stop() }
        let configuration = try AppConfiguration(
            data: Data(
                """
                {"api": {"baseURLs": {"production": "https://api.example.com", "test": "http://127.0.0.1:1"}},
                 "log": {"level": "debug", "destinations": [{"kind": "memory", "capacity": 50}]}}
                """.utf8))
        let metaController = try MetaController(configuration: configuration, environment: .test, baseURL: server.baseURL)
        let api = try #require(metaController.apiController as? URLSessionApiController)
        #expect(api.baseURL == server.baseURL)
        let response = try await api.send(ApiRequest(.get, "/ping"))
        #expect(response.body == Data("pong".utf8))
        let log = try #require(metaController.logController as? StandardLogController)
        let memory = try #require(log.destinations.first as? MemoryLogDestination)
        #expect(memory.entries.map(\.message).contains { $0.hasPrefix("GET /ping -> 200") })
    }

    @Test func anUnknownEnvironmentIsAnError() throws {
        let configuration = try AppConfiguration(data: Data(#"{"api": {"baseURLs": {"production": "https://a.example"}}}"#.utf8))
        #expect(throws: ConfigurationError.self) { try MetaController(configuration: configuration, environment: .staging) }
        let production = try MetaController(configuration: configuration, environment: .production)
        #expect((production.apiController as? URLSessionApiController)?.baseURL.absoluteString == "https://a.example")
    }
}
