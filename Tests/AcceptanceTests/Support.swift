import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Waiting on conditions

/// Polls `condition` until it holds or `seconds` pass; never sleeps to make timing work, only to
/// give the condition's producers the core while it waits.
func waitUntil(_ seconds: Double = 60, isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

/// The synchronous form, for code that must not suspend.
func waitUntilBlocking(_ seconds: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(2000)
    }
    return condition()
}

/// A value that threads may read and change, behind a lock.
// Unchecked because the value is only reached through `withLock`.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
    var get: Value { withLock { $0 } }
}

// MARK: - Threads

// Memory is never measured in this process: other tests run beside each one and its resident size
// counts theirs too. A test of memory runs the LogProbe child, which measures itself alone.

func thisThreadID() -> UInt64 {
    #if canImport(Darwin)
    UInt64(pthread_mach_thread_np(pthread_self()))
    #else
    UInt64(pthread_self())
    #endif
}

// MARK: - Temporary directories

/// A new directory under the system's temporary directory, removed by `remove()`.
struct TempDir {
    let url: URL
    init(_ label: String = "acc") {
        let base = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("mc-acceptance-\(label)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        url = base
    }
    var path: String { url.path }
    func sub(_ name: String) -> URL { url.appendingPathComponent(name) }
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

func fileMode(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

func readText(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

func readBytes(_ path: String) -> Data {
    (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
}

/// The lines of a file, without empty trailing ones.
func lines(_ path: String) -> [String] {
    readText(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
}

// MARK: - Running tools and the probe

struct RunResult {
    var status: Int32
    var reason: Process.TerminationReason
    var stdout: Data
    var stderr: Data
    var timedOut: Bool
    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// A child process started with its standard streams in files of a scratch directory, so that
/// a child that writes much never blocks on a pipe nobody reads yet.
struct StartedProcess {
    let process = Process()
    let scratch = TempDir("run")
    private let handles: [FileHandle]

    init(_ executable: String, _ arguments: [String], input: Data?) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: scratch.sub("out").path, contents: nil)
        _ = FileManager.default.createFile(atPath: scratch.sub("err").path, contents: nil)
        _ = FileManager.default.createFile(atPath: scratch.sub("in").path, contents: input ?? Data())
        handles = [
            try FileHandle(forWritingTo: scratch.sub("out")), try FileHandle(forWritingTo: scratch.sub("err")),
            try FileHandle(forReadingFrom: scratch.sub("in")),
        ]
        process.standardOutput = handles[0]
        process.standardError = handles[1]
        process.standardInput = handles[2]
        do { try process.run() } catch {
            finish()
            throw error
        }
    }

    /// Kills the child unless it `finished`, then collects what it wrote and removes the scratch directory.
    @discardableResult
    func result(finished: Bool) -> RunResult {
        if !finished {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let result = RunResult(
            status: process.terminationStatus, reason: process.terminationReason,
            stdout: readBytes(scratch.sub("out").path), stderr: readBytes(scratch.sub("err").path), timedOut: !finished)
        finish()
        return result
    }

    private func finish() {
        for handle in handles { try? handle.close() }
        try? FileManager.default.removeItem(at: scratch.url)
    }
}

/// Runs `executable` (suspending, so that no thread of the pool or the main actor is held), feeding `input`, and waits for it at most `timeout` seconds (then kills it).
@discardableResult
func run(_ executable: String, _ arguments: [String], input: Data? = nil, timeout: Double = 120) async throws -> RunResult {
    let started = try StartedProcess(executable, arguments, input: input)
    let finished = await waitUntil(timeout) { !started.process.isRunning }
    return started.result(finished: finished)
}

/// The blocking form, for static set-up.
@discardableResult
func runSync(_ executable: String, _ arguments: [String], input: Data? = nil, timeout: Double = 120) throws -> RunResult {
    let started = try StartedProcess(executable, arguments, input: input)
    let finished = waitUntilBlocking(timeout) { !started.process.isRunning }
    return started.result(finished: finished)
}

enum Tools {
    static func which(_ name: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] {
            let path = dir + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
    static let dot = which("dot")
    static let node = which("node")
    static let pythonCandidates: [String] = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let dirs = path.split(separator: ":").map(String.init) + ["/root/.pyenv/shims", "/usr/local/bin", "/usr/bin"]
        var seen = Set<String>()
        return dirs.map { $0 + "/python3" }.filter { FileManager.default.isExecutableFile(atPath: $0) && seen.insert($0).inserted }
    }()
    static let python3: String? = pythonCandidates.first
    static let isRoot = getuid() == 0
    static let chattr = which("chattr")
    static let mount = which("mount")
    static let umount = which("umount")

    // What a test that needs root does is tried once first, so that a machine where it is not
    // allowed (no root, a container without the capability, a file system without the
    // attribute) skips the test instead of failing it.

    /// Whether this process may mount a small tmpfs and unmount it.
    static let canMountTmpfs: Bool = {
        guard isRoot, let mount, let umount else { return false }
        let directory = TempDir("mount-probe")
        defer { directory.remove() }
        guard (try? runSync(mount, ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory.path], timeout: 30))?.status == 0 else { return false }
        return (try? runSync(umount, [directory.path], timeout: 30))?.status == 0
    }()

    /// Whether `chattr +i` makes a file in the temporary directory immutable here (root, and a file system that has the attribute).
    static let canMakeFilesImmutable: Bool = {
        guard isRoot, let chattr else { return false }
        let directory = TempDir("chattr-probe")
        defer { directory.remove() }
        let file = directory.sub("probe").path
        guard FileManager.default.createFile(atPath: file, contents: Data()),
            (try? runSync(chattr, ["+i", file], timeout: 30))?.status == 0
        else { return false }
        return (try? runSync(chattr, ["-i", file], timeout: 30))?.status == 0
    }()

    /// Whether this process may give a directory to another user (`nobody`, 65534).
    static let canGiveFilesAway: Bool = {
        guard isRoot else { return false }
        let directory = TempDir("chown-probe")
        defer { directory.remove() }
        return chown(directory.path, 65534, 65534) == 0
    }()

    /// Whether this process may make a device node (`/dev/null`'s numbers) in the temporary directory.
    static let canMakeDevices: Bool = {
        guard isRoot else { return false }
        let directory = TempDir("mknod-probe")
        defer { directory.remove() }
        return mknod(directory.sub("null").path, S_IFCHR | 0o600, dev_t((1 << 8) | 3)) == 0
    }()

    /// Whether the LogProbe child can measure its own memory (`/proc/self/statm`, Linux).
    static let measuresMemory = FileManager.default.fileExists(atPath: "/proc/self/statm")

    /// Mermaid's own parser, as mermaid-parser-py ships it (a CommonJS bundle of mermaid).
    static let mermaidBundle: String? = {
        for python in pythonCandidates {
            let result = try? runSync(
                python,
                [
                    "-c",
                    "import importlib.util,os;s=importlib.util.find_spec('mermaid_parser');print(os.path.join(os.path.dirname(s.origin),'js','parser.bundle.js') if s else '')",
                ], timeout: 60)
            let path = result?.out.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if !path.isEmpty && FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }()
    /// The package's demo, when built beside the tests (`swift build --product metacontroller-demo`).
    static let demo: String? = {
        let path = probe.map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("metacontroller-demo").path }
        return path.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    }()
    /// The documentation these tests were written from: the repository's Docs/.
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs")

    static var hasMermaid: Bool { node != nil && mermaidBundle != nil }
    static var hasDot: Bool { dot != nil && python3 != nil }

    /// The probe executable built beside the test bundle.
    static let probe: String? = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var candidates = [exe.deletingLastPathComponent().appendingPathComponent("LogProbe").path]
        if let first = CommandLine.arguments.first {
            var url = URL(fileURLWithPath: first)
            while url.path != "/" {
                url = url.deletingLastPathComponent()
                candidates.append(url.appendingPathComponent("LogProbe").path)
                if url.lastPathComponent == "debug" { break }
            }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}

/// What Mermaid's parser made of a text: `nil` when it refused it, with the error.
struct MermaidParse {
    var ok: Bool
    var error: String?
    var vertices: Int
    var edges: Int
    var ids: [String]
    var labels: [String]
}

func parseMermaid(_ text: String) async throws -> MermaidParse {
    let scratch = TempDir("mmd")
    defer { scratch.remove() }
    let script = """
        const fs = require('fs');
        const p = require(process.argv[2]);
        const text = fs.readFileSync(process.argv[3], 'utf8');
        p(text).then(s => { const r = JSON.parse(s);
          const v = r.graph_data.vertices || {}; const e = r.graph_data.edges || [];
          console.log(JSON.stringify({ok:true, vertices:Object.keys(v).length, edges:e.length,
            ids:Object.keys(v), labels:Object.values(v).map(x => String(x.text))}));
        }).catch(err => { console.log(JSON.stringify({ok:false, error:String(err && err.message || err)})); });
        """
    try script.write(to: scratch.sub("check.js"), atomically: true, encoding: .utf8)
    try text.write(to: scratch.sub("graph.mmd"), atomically: true, encoding: .utf8)
    let result = try await run(Tools.node!, [scratch.sub("check.js").path, Tools.mermaidBundle!, scratch.sub("graph.mmd").path], timeout: 300)
    let line = result.out.split(separator: "\n").last.map(String.init) ?? ""
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        return MermaidParse(ok: false, error: "no answer: \(result.err.prefix(500))", vertices: 0, edges: 0, ids: [], labels: [])
    }
    return MermaidParse(
        ok: object["ok"] as? Bool ?? false, error: object["error"] as? String,
        vertices: object["vertices"] as? Int ?? 0, edges: object["edges"] as? Int ?? 0,
        ids: object["ids"] as? [String] ?? [], labels: object["labels"] as? [String] ?? [])
}

/// What GraphViz made of a DOT text: whether `dot -Tsvg` accepted it, whether the SVG is
/// well-formed XML, and the SVG's node and edge groups and texts.
struct DotRender {
    var accepted: Bool
    var dotError: String
    var wellFormed: Bool
    var xmlError: String
    var nodeCount: Int
    var edgeCount: Int
    var titles: [String]
    var texts: [String]
}

func renderDot(_ text: String) async throws -> DotRender {
    let scratch = TempDir("dot")
    defer { scratch.remove() }
    try text.write(to: scratch.sub("graph.dot"), atomically: true, encoding: .utf8)
    let svgPath = scratch.sub("graph.svg").path
    let dot = try await run(Tools.dot!, ["-Tsvg", "-o", svgPath, scratch.sub("graph.dot").path], timeout: 600)
    guard dot.status == 0, !dot.timedOut else {
        return DotRender(accepted: false, dotError: dot.err, wellFormed: false, xmlError: "", nodeCount: 0, edgeCount: 0, titles: [], texts: [])
    }
    let python = """
        import sys, json, xml.etree.ElementTree as ET
        try:
            root = ET.parse(sys.argv[1]).getroot()
        except Exception as e:
            print(json.dumps({"ok": False, "error": str(e)})); sys.exit(0)
        ns = '{http://www.w3.org/2000/svg}'
        nodes = [g for g in root.iter(ns + 'g') if g.get('class') == 'node']
        edges = [g for g in root.iter(ns + 'g') if g.get('class') == 'edge']
        titles = [''.join(t.itertext()) for g in nodes for t in g.findall(ns + 'title')]
        texts = [''.join(t.itertext()) for t in root.iter(ns + 'text')]
        print(json.dumps({"ok": True, "nodes": len(nodes), "edges": len(edges), "titles": titles, "texts": texts}))
        """
    try python.write(to: scratch.sub("check.py"), atomically: true, encoding: .utf8)
    let check = try await run(Tools.python3!, [scratch.sub("check.py").path, svgPath], timeout: 300)
    let object = (try? JSONSerialization.jsonObject(with: check.stdout) as? [String: Any]) ?? [:]
    return DotRender(
        accepted: true, dotError: dot.err, wellFormed: object["ok"] as? Bool ?? false,
        xmlError: (object["error"] as? String) ?? check.err,
        nodeCount: object["nodes"] as? Int ?? 0, edgeCount: object["edges"] as? Int ?? 0,
        titles: object["titles"] as? [String] ?? [], texts: object["texts"] as? [String] ?? [])
}

/// Runs the probe with a scenario and returns its JSON answer (its last line of standard output).
/// LogProbe is a dependency of the test target, so it is always built beside the tests: its absence fails the test.
func runProbe(_ arguments: [String], timeout: Double = 120) async throws -> (result: RunResult, answer: [String: Any]) {
    let probe = try #require(Tools.probe, "LogProbe was not built beside the tests")
    let result = try await run(probe, arguments, timeout: timeout)
    let line = result.out.split(separator: "\n").last.map(String.init) ?? ""
    let answer = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    return (result, answer)
}

/// Strings a name can hold that mean something to Mermaid, DOT, a terminal or a line-based reader.
let hostileNames: [String] = [
    "per%cent", "amp&ersand", "less<than", "greater>than", "quote\"d", "hash#tag", "back`tick", "pi|pe",
    "line\nbreak", "nul\u{0}byte", "esc\u{1B}[2Kape", "carriage\rreturn", "sep\u{2028}arator", "para\u{2029}graph",
    "tab\there", "back\\slash", "back\\lslash-l", "semi;colon", "brace{s}", "bracket[s]", "paren(s)",
    "arrow-->head", "dotted-.->arrow", "%% comment", "end", "subgraph", "classDef", "click", "style",
    "#quot;", "&quot;", "&#35;", "<br/>", "<script>alert(1)</script>", "Пример", "例子", "مثال", "😀 emoji",
    "a b", "a_b", "a-b", "a.b", "a/b", "a:b", "", " ", "__", "\u{7F}del", "\u{85}nel", "\u{202E}rtl",
    String(repeating: "long", count: 2_500),
]
