import Foundation
import MetaController
import Testing
import MetaControllerTestSupport

/// Faults: a store or log directory that has become read-only.
@Suite(.serialized) struct ReadOnlyDirectoryFaultTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("readonly-\(UUID().uuidString)")
    }

    @Test func aReadOnlyStoreRefusesSavesClearlyAndLosesNothing() throws {
        let directory = temporaryDirectory()
        let store = try FileDataController(directory: directory)
        try store.save(["version": 1], forKey: "settings")
        try #require(ReadOnlyDirectory.make(directory), "cannot make a directory read-only here")
        defer {
            ReadOnlyDirectory.undo(directory)
            try? FileManager.default.removeItem(at: directory)
        }
        #expect {
            try store.save(["version": 2], forKey: "settings")
        } throws: { error in
            let error = error as? DataStoreError
            return error?.code == .unwritable && error?.key == "settings"
                && error?.description.hasPrefix("cannot save \"settings\": ") == true
        }
        #expect(try store.fetch([String: Int].self, forKey: "settings") == ["version": 1])   // the old value stays
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["settings.entry"])   // no temporary file left
    }

    @Test func aReadOnlyLogDirectoryIsASetupErrorAndFallsBack() throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try #require(ReadOnlyDirectory.make(directory), "cannot make a directory read-only here")
        defer {
            ReadOnlyDirectory.undo(directory)
            try? FileManager.default.removeItem(at: directory)
        }
        #expect {
            try FileLogDestination(directory: directory)
        } throws: { error in
            (error as? LogSetupError)?.action == "open the log file"
        }
        let standardError = try CapturedStream()
        let log = standardError.asStandardError {
            StandardLogController(
                configuration: LogConfiguration(destinations: [LogDestinationConfiguration(kind: .file, directory: directory.path)]),
                relativeTo: directory)
        }
        #expect(log.setupErrors.count == 1)
        #expect(log.destinations.first is StreamLogDestination)
        log.flush()
        let written = try standardError.lines
        #expect(written.count == 1)
        #expect(written.first?.contains("cannot open the log file \(directory.path)/app.log: ") == true)
        #expect(written.first?.hasSuffix("; logging to standard error instead") == true)
    }
}
