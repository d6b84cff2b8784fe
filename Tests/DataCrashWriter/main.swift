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
// it opens a store there once and prints "opened".
import Foundation
import MetaController

struct Record: Codable {
    let key: String
    let generation: Int
    let payload: String
}

let arguments = CommandLine.arguments
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
