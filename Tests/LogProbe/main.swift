// A child process for the acceptance tests: each scenario does to this process what a test must not
// do to its own (point standard error at a pipe, close the pipe's reader, measure memory alone, run
// code that may crash or hang) and prints one JSON line on standard output with what it saw.
import Foundation
import MetaController

#if canImport(Glibc)
import Glibc
#endif

func answer(_ object: [String: Any]) -> Never {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    // Written with write(2) to the saved descriptor, so that a redirected standard output still answers.
    let text = String(decoding: data, as: UTF8.self) + "\n"
    _ = text.withCString { write(answerDescriptor, $0, strlen($0)) }
    exit(0)
}

let answerDescriptor: Int32 = dup(1)

func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

#if os(Linux)
@_silgen_name("malloc_trim") func mallocTrim(_ pad: Int) -> Int32
#endif

/// Gives freed memory back to the system, so that the resident size counts what is still kept.
/// (Linux only: elsewhere the resident size is not read, and the tests of memory skip.)
func trimMemory() {
    #if os(Linux)
    _ = mallocTrim(0)
    #endif
}

// Unchecked because its one field sits behind the lock beside it: the reader thread appends, the
// scenario reads once the thread has signalled that it is done.
final class ByteSink: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [UInt8] = []
    func append(_ more: ArraySlice<UInt8>) { lock.withLock { collected.append(contentsOf: more) } }
    var bytes: [UInt8] { lock.withLock { collected } }
}

final class Box: Sendable {}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let scenario = arguments.first else { answer(["error": "no scenario"]) }

// MARK: - Graph scenarios (main.swift's top level runs on the main actor)

@MainActor func graphScenario(_ variant: String) -> Never {
    final class SelfRequester: Sendable {}
    final class Orders: Sendable {}
    let metaController = MetaController()
    switch variant {
    case "self":
        metaController.register(SelfRequester.self) { m in
            _ = try m.make(SelfRequester.self); return SelfRequester()
        }
    case "self-caught":
        metaController.register(SelfRequester.self) { m in
            _ = try? m.make(SelfRequester.self); return SelfRequester()
        }
    case "self-reached":
        metaController.register(Orders.self) { m in
            _ = try m.make(SelfRequester.self); return Orders()
        }
        metaController.register(SelfRequester.self) { m in
            _ = try m.make(SelfRequester.self); return SelfRequester()
        }
    default:
        answer(["error": "unknown variant"])
    }
    let graph = metaController.graph()
    let chain = graph.longestChain.map(\.name)
    answer(["longestChain": chain, "edges": graph.edges.count])
}

// MARK: - Signals keyed at run time

func signalsScenario(_ mode: String, count: Int) -> Never {
    let signals = Signals()
    let keeper = Box()
    var rss: [Int] = []
    var leftListening = 0
    for round in 0..<3 {
        for index in 0..<count {
            let signal = Signal<Int>("user-\(round)-\(index)")
            switch mode {
            case "token":
                let token = signals.listen(to: signal) { _ in }
                signals.dispatch(signal, index)
                withExtendedLifetime(token) {}
            case "object-dispatched":
                let box = Box()
                try? signals.add(box, to: signal) { _, _ in }
                signals.dispatch(signal, index)
                withExtendedLifetime(box) {}
            case "object-gone":
                do {
                    let box = Box()
                    try? signals.add(box, to: signal) { _, _ in }
                }
            case "object-gone-then-dispatched":
                do {
                    let box = Box()
                    try? signals.add(box, to: signal) { _, _ in }
                }
                signals.dispatch(signal, index)
            case "once":
                try? signals.add(keeper, to: signal, once: true) { _, _ in }
                signals.dispatch(signal, index)
            case "removed":
                try? signals.add(keeper, to: signal) { _, _ in }
                signals.dispatch(signal, index)
                signals.remove(keeper, from: signal)
            case "sequence":
                let values = signals.values(of: signal)
                signals.dispatch(signal, index)
                withExtendedLifetime(values) {}
            case "replay-removed":
                let replayed = Signal<Int>("user-\(round)-\(index)", replaysLast: true)
                signals.dispatch(replayed, index)
                signals.removeSignal(replayed)
            case "dispatch-only":
                signals.dispatch(signal, index)
            default:
                answer(["error": "unknown mode"])
            }
        }
        for index in stride(from: 0, to: count, by: max(1, count / 100)) {
            leftListening += signals.listenerCount(for: Signal<Int>("user-\(round)-\(index)"))
        }
        trimMemory()
        rss.append(residentBytes())
    }
    answer(["rss": rss, "leftListening": leftListening])
}

// MARK: - Stream destinations

func logLines(_ stream: StreamLogDestination.Stream, count: Int) -> Never {
    let destination = StreamLogDestination(stream, format: .line)
    let log = StandardLogController(minimumLevel: .trace, destinations: [destination])
    for index in 0..<count {
        log.log(LogEntry(level: .info, message: "entry \(index)", file: "Probe/main.swift", function: "run()", line: 1))
    }
    log.flush()
    answer(["dropped": destination.droppedEntries])
}

/// Points standard error at a pipe whose reader is closed, and logs.
func closedPipe(count: Int) -> Never {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { answer(["error": "pipe"]) }
    close(fds[0])
    dup2(fds[1], 2)
    close(fds[1])
    let destination = StreamLogDestination(.standardError, format: .line)
    let log = StandardLogController(minimumLevel: .trace, destinations: [destination])
    for index in 0..<count {
        log.log(LogEntry(level: index % 2 == 0 ? .info : .error, message: "entry \(index)", file: "Probe/main.swift", function: "run()", line: 1))
    }
    log.flush()
    answer(["dropped": destination.droppedEntries, "survived": true])
}

/// Points standard error at a pipe filled first that nobody reads, logs a burst, then starts
/// reading, logs warnings, flushes and checks what came out.
func fullPipe(nonBlocking: Bool, count: Int, bound: Int) -> Never {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { answer(["error": "pipe"]) }
    let (reader, writer) = (fds[0], fds[1])
    let flags = fcntl(writer, F_GETFL)
    _ = fcntl(writer, F_SETFL, flags | O_NONBLOCK)
    let filler = [UInt8](repeating: UInt8(ascii: "#"), count: 4095) + [UInt8(ascii: "\n")]
    while filler.withUnsafeBytes({ write(writer, $0.baseAddress, $0.count) }) > 0 {}
    if !nonBlocking { _ = fcntl(writer, F_SETFL, flags) }
    dup2(writer, 2)
    close(writer)

    let destination = StreamLogDestination(.standardError, format: .line, maximumQueuedBytes: bound)
    let log = StandardLogController(minimumLevel: .trace, destinations: [destination])
    let padding = String(repeating: "p", count: 1_000)
    trimMemory()
    let before = residentBytes()
    var peak = before
    for index in 0..<count {
        log.log(LogEntry(level: .info, message: "info \(index) \(padding)", file: "Probe/main.swift", function: "run()", line: 1))
        if index % 1_000 == 0 { peak = max(peak, residentBytes()) }
    }
    peak = max(peak, residentBytes())
    let droppedBeforeReading = destination.droppedEntries

    // Read everything from now on, on a thread of its own.
    let collected = ByteSink()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            collected.append(buffer[0..<n])
        }
        done.signal()
    }
    thread.start()
    for index in 0..<5 {
        log.log(LogEntry(level: .warning, message: "warning \(index)", file: "Probe/main.swift", function: "run()", line: 1))
    }
    log.flush()
    let dropped = destination.droppedEntries
    // Close every writer so that the reader sees the end.
    let null = open("/dev/null", O_WRONLY)
    dup2(null, 2)
    close(null)
    done.wait()
    let text = String(decoding: collected.bytes, as: UTF8.self)
    let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    var infos: [Int] = []
    var warnings: [Int] = []
    var noticeSum = 0
    var other: [String] = []
    let noticePattern = try! NSRegularExpression(pattern: "([0-9]+) entr(y|ies) (dropped|not written)")
    for line in lines {
        if let range = line.range(of: "): info ") {
            infos.append(Int(line[range.upperBound...].split(separator: " ").first ?? "") ?? -1)
        } else if let range = line.range(of: "): warning ") {
            warnings.append(Int(line[range.upperBound...]) ?? -1)
        } else if let match = noticePattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
            let range = Range(match.range(at: 1), in: line)
        {
            noticeSum += Int(line[range]) ?? 0
        } else {
            other.append(String(line.prefix(200)))
        }
    }
    answer([
        "total": count, "droppedBeforeReading": droppedBeforeReading, "dropped": dropped,
        "infosKept": infos.count, "infosInOrder": infos == infos.sorted() && Set(infos).count == infos.count,
        "warnings": warnings, "noticeSum": noticeSum, "other": Array(other.prefix(5)),
        "rssGrowth": peak - before, "bound": bound,
    ])
}

// MARK: - File destinations

func fifoAtLogFile(_ directory: String) -> Never {
    mkdir(directory, 0o700)
    guard mkfifo(directory + "/app.log", 0o600) == 0 else { answer(["error": "mkfifo"]) }
    do {
        let destination = try FileLogDestination(directory: URL(fileURLWithPath: directory))
        answer(["threw": false, "file": destination.fileName])
    } catch {
        answer(["threw": true, "error": error.description])
    }
}

func twoProcessWriter(_ directory: String, id: String, count: Int) -> Never {
    do {
        let destination = try FileLogDestination(
            directory: URL(fileURLWithPath: directory), maximumFileBytes: 1024, keptFiles: 1000, format: .line)
        let log = StandardLogController(minimumLevel: .trace, destinations: [destination])
        for index in 0..<count {
            log.log(LogEntry(level: .warning, message: "p\(id)-\(index)", file: "Probe/main.swift", function: "run()", line: 1))
        }
        log.flush()
        answer(["dropped": destination.droppedEntries, "lastFailure": destination.lastFailure ?? ""])
    } catch {
        answer(["error": error.description])
    }
}

// MARK: - Dispatch

switch scenario {
case "graph":
    MainActor.assumeIsolated { graphScenario(arguments[1]) }
case "signals":
    signalsScenario(arguments[1], count: Int(arguments[2]) ?? 100_000)
case "stream-lines":
    logLines(arguments[1] == "stdout" ? .standardOutput : .standardError, count: Int(arguments[2]) ?? 10)
case "stream-closed-pipe":
    closedPipe(count: Int(arguments[1]) ?? 100)
case "stream-full-pipe":
    fullPipe(nonBlocking: arguments[1] == "nonblocking", count: Int(arguments[2]) ?? 20_000, bound: Int(arguments[3]) ?? 65_536)
case "file-fifo":
    fifoAtLogFile(arguments[1])
case "file-writer":
    twoProcessWriter(arguments[1], id: arguments[2], count: Int(arguments[3]) ?? 2_000)
default:
    answer(["error": "unknown scenario \(scenario)"])
}
