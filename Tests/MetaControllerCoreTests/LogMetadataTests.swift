import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

struct LogMetadataTests {
    /// 100,000 pairs, half of them repeating a key: first place, last value, in linear time
    /// (a scan per pair would take minutes here).
    @Test func oneHundredThousandPairsKeepFirstPlaceAndLastValue() {
        let pairs = (0..<100_000).map { ("k\($0 % 50_000)", "v\($0)") }
        let metadata = LogMetadata(pairs)
        #expect(metadata.pairs.count == 50_000)
        #expect(metadata.pairs.first! == (key: "k0", value: "v50000"))
        #expect(metadata.pairs.last! == (key: "k49999", value: "v99999"))
        let merged = metadata.merging(LogMetadata((25_000..<125_000).map { ("k\($0)", "w\($0)") }))
        #expect(merged.pairs.count == 125_000)
        #expect(merged["k0"] == "v50000")
        #expect(merged["k25000"] == "w25000")
        #expect(merged.pairs.last! == (key: "k124999", value: "w124999"))
    }

    /// The sequence initializer follows the literal's rule, pair for pair.
    @Test func aSequenceOfPairsIsReadAsALiteralIs() {
        let literal: LogMetadata = ["req": "72b5", "user": "ada", "req": "9f00"]
        #expect(LogMetadata([("req", "72b5"), ("user", "ada"), ("req", "9f00")]) == literal)
    }

    @Test func keepsTheLiteralsOrderAndReplacesInPlace() {
        var metadata: LogMetadata = ["req": "72b5", "user": "ada", "req": "9f00"]
        #expect(metadata.pairs.map(\.key) == ["req", "user"])
        #expect(metadata["req"] == "9f00")
        metadata["req"] = "1"
        metadata["path"] = "/notes"
        #expect(metadata.description == "req=1 user=ada path=/notes")
        metadata["user"] = nil
        #expect(metadata.description == "req=1 path=/notes")
        #expect(!metadata.isEmpty && LogMetadata().isEmpty)
    }

    @Test func mergingAppendsAndTheOthersValueWins() {
        let merged = (["a": "1", "b": "2"] as LogMetadata).merging(["b": "3", "c": "4"])
        #expect(merged == ["a": "1", "b": "3", "c": "4"])
        #expect(merged != ["b": "3", "a": "1", "c": "4"])
    }

    @Test func descriptionQuotesWhatCouldBeMisread() {
        let metadata: LogMetadata = [
            "note": "two words", "empty": "", "fake": "x] [y=z", "line": "a\nb", "quote": "say \"hi\"", "plain": "ok-1/2",
        ]
        #expect(
            metadata.description
                == #"note="two words" empty="" fake="x] [y=z" line="a\nb" quote="say \"hi\"" plain=ok-1/2"#)
    }

    /// Quoted, and the separators and C1 controls written as JSON escapes, which no line splitter
    /// takes for a line end.
    @Test func unicodeSpacesAndControlsAreQuotedToo() {
        let metadata: LogMetadata = ["nbsp": "a\u{00A0}b", "separator": "a\u{2028}b", "c1": "a\u{0085}b", "accent": "café"]
        #expect(metadata.description == "nbsp=\"a\u{00A0}b\" separator=\"a\\u2028b\" c1=\"a\\u0085b\" accent=café")
    }

    @Test func anEntryTakesTheScopesMetadataThenItsOwn() {
        let entry = LogMetadata.withValues(["req": "72b5", "user": "ada"]) {
            LogMetadata.withValues(["user": "bob", "step": "1"]) {
                LogEntry(level: .info, message: "m", file: "A/B.swift", function: "f()", line: 1, metadata: ["step": "2"])
            }
        }
        #expect(entry.metadata == ["req": "72b5", "user": "bob", "step": "2"])
        #expect(LogMetadata.current.isEmpty)
        #expect(LogEntry(level: .info, message: "m", file: "", function: "", line: 1).metadata.isEmpty)
    }

    @Test func theAsyncScopeReachesChildTasksAndEnds() async {
        let seen = await LogMetadata.withValues(["req": "7"]) {
            async let child = LogMetadata.current
            let grandchild = await Task { LogMetadata.current }.value
            return await [child, grandchild]
        }
        #expect(seen == [["req": "7"], ["req": "7"]])
        #expect(LogMetadata.current.isEmpty)
    }

    @Test func taskGroupsInheritTheScopeAndDetachedTasksDoNot() async {
        let (grouped, detached) = await LogMetadata.withValues(["req": "8"]) {
            let grouped = await withTaskGroup(of: LogMetadata.self) { group in
                group.addTask { LogMetadata.current }
                return await group.next() ?? [:]
            }
            let detached = await Task.detached { LogMetadata.current }.value
            return (grouped, detached)
        }
        #expect(grouped == ["req": "8"])
        #expect(detached.isEmpty)
    }

    @Test func workHandedToAQueueCarriesTheMetadataTakenAlongByHand() async {
        let log = FakeLogController()
        let metaController = MetaController()
        metaController.logController = log
        let reader = SendableReader(metaController: metaController)
        await LogMetadata.withValues(["req": "9"]) {
            let metadata = LogMetadata.current
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    reader.infoLog("lost")
                    LogMetadata.withValues(metadata) { reader.infoLog("kept") }
                    continuation.resume()
                }
            }
        }
        #expect(log.entries.map(\.metadata) == [[:], ["req": "9"]])
    }

    @Test func theShortcutsPassMetadataAndTheFakeRecordsIt() {
        let log = FakeLogController()
        let screen = Screen()
        screen.metaController = MetaController()
        screen.metaController?.logController = log
        LogMetadata.withValues(["req": "72b5"]) {
            screen.debugLog("d", metadata: ["n": "1"])
            screen.infoLog("i", metadata: ["req": "mine"])
            screen.warningLog("w")
            screen.errorLog("e", metadata: ["n": "4"])
        }
        #expect(log.entries.map(\.metadata) == [["req": "72b5", "n": "1"], ["req": "mine"], ["req": "72b5"], ["req": "72b5", "n": "4"]])
    }

    @Test func metadataIsNotEvaluatedForALevelNotKept() {
        let log = FakeLogController()
        log.minimumLevel = .info
        let screen = Screen()
        screen.metaController = MetaController()
        screen.metaController?.logController = log
        let evaluations = Counter()
        func counted() -> LogMetadata {
            evaluations.increment()
            return ["k": "v"]
        }
        screen.debugLog("hidden", metadata: counted())
        #expect(evaluations.value == 0)
        screen.infoLog("shown", metadata: counted())
        #expect(evaluations.value == 1)
    }

    @Test func aControllerWritingOnAnotherThreadWritesTheMetadataOfTheLoggingTask() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try FileLogDestination(directory: directory, format: .jsonLines)
        let log = StandardLogController(minimumLevel: .trace, destinations: [file])
        let screen = Screen()
        screen.metaController = MetaController()
        screen.metaController?.logController = log
        LogMetadata.withValues(["req": "72b5"]) { screen.infoLog("listed") }
        log.flush()
        let text = try String(contentsOf: directory.appendingPathComponent("app.log"), encoding: .utf8)
        #expect(text.contains(#""message":"listed","req":"72b5"}"#))
    }
}

private struct SendableReader: MetaControllerReader, Sendable {
    let metaController: MetaController?
}
