// A child process for the crash-safety test: saves values again and again
// until it is killed. Usage: DataCrashWriter <directory> <keys>
//
// Each value says which generation it belongs to and carries a payload whose
// length and contents follow from that generation, so a torn write shows.
//
// With `--open <directory> <seconds>` it instead opens a store on the directory
// again and again, for at most that many seconds or until it is killed, and
// prints "opened <count>" after the first open and after every 20th, for the test
// of opening a store beside another process's saves. With `--open-once <directory>`
// it opens a store there once and prints "opened". With `--log ...` (below) it logs into a
// rotating file, for the log destination's test of two processes.
import Foundation
import MetaController

struct Record: Codable {
    let key: String
    let generation: Int
    let payload: String
}

let arguments = CommandLine.arguments
// `--log <directory> <prefix> <count> <maximumFileBytes> <keptFiles>`: logs `count` warnings
// "<prefix>-<n>" into a rotating FileLogDestination there, flushes, and exits 0 when none was
// dropped or failed; for the test of two processes rotating one file. With the environment's
// DATACRASHWRITER_CLOSE_STANDARD_INPUT=1 it closes descriptor 0 once the destination is open, as a
// daemon may, and removes the file, so the file the destination opens in its place is given descriptor 0.
if arguments.count == 7, arguments[1] == "--log", let count = Int(arguments[4]), let maximumFileBytes = Int(arguments[5]),
    let keptFiles = Int(arguments[6])
{
    do {
        let file = try FileLogDestination(
            directory: URL(fileURLWithPath: arguments[2]), maximumFileBytes: maximumFileBytes, keptFiles: keptFiles,
            format: .line)
        if ProcessInfo.processInfo.environment["DATACRASHWRITER_CLOSE_STANDARD_INPUT"] == "1" {
            close(0)
            unlink(file.path(ofFile: 0))
        }
        for index in 0..<count {
            // Warnings: never dropped from the queue, so every entry must reach a file.
            file.write(
                LogEntry(level: .warning, message: "\(arguments[3])-\(index)", file: "W.swift", function: "w()", line: 1),
                revealingPrivateValues: false)
        }
        file.flush()
        if file.droppedEntries != 0 || file.lastFailure != nil {
            FileHandle.standardError.write(Data("dropped \(file.droppedEntries): \(file.lastFailure ?? "")\n".utf8))
            exit(1)
        }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}
// `--open-once <directory>`: opens a store on the directory once, then prints "opened".
if arguments.count == 3, arguments[1] == "--open-once" {
    do {
        _ = try FileDataController(directory: URL(fileURLWithPath: arguments[2]))
        FileHandle.standardOutput.write(Data("opened\n".utf8))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}
if arguments.count == 4, arguments[1] == "--open", let seconds = Double(arguments[3]) {
    let end = Date().addingTimeInterval(seconds)
    var count = 0
    do {
        while Date() < end {
            _ = try FileDataController(directory: URL(fileURLWithPath: arguments[2]))
            count += 1
            if count == 1 || count % 20 == 0 { FileHandle.standardOutput.write(Data("opened \(count)\n".utf8)) }
        }
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
guard arguments.count == 3, let keyCount = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: DataCrashWriter <directory> <keys>\n".utf8))
    exit(2)
}
do {
    let store = try FileDataController(directory: URL(fileURLWithPath: arguments[1]))
    var generation = 0
    while true {
        for index in 0..<keyCount {
            let key = "key-\(index)"
            let digit = Character(String(generation % 10))
            let payload = String(repeating: digit, count: 2048 + (generation * 37) % 4096)
            try store.save(Record(key: key, generation: generation, payload: payload), forKey: key)
        }
        // Straight to the pipe, unbuffered, so the parent hears of each round at once.
        FileHandle.standardOutput.write(Data("round \(generation)\n".utf8))
        generation += 1
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
