// Built by .ci/release-privacy-check with -O and without DEBUG, as an app's
// release build is: private and sensitive log values must reach no destination
// unredacted, even when the log controller asks to reveal them.
import Foundation

@main
struct ReleasePrivacyCheck {
    static func main() {
        let memory = MemoryLogDestination()
        let log = StandardLogController(minimumLevel: .trace, destinations: [memory], revealsPrivateValues: true)
        let email = "ada@example.com", token = "s3cr3t-token"
        log.log(
            LogEntry(
                level: .info, message: "user \(email, privacy: .private) token \(token, privacy: .sensitive)",
                file: #fileID, function: #function, line: #line))
        var failures: [String] = []
        if log.revealsPrivateValues { failures.append("revealsPrivateValues is true in a release build") }
        for format in [LogFormat.line, .detailedLine, .jsonLines] {
            for entry in memory.entries {
                let text = format.format(entry, revealingPrivateValues: true)
                if text.contains(email) || text.contains(token) { failures.append("\(format) shows a private value: \(text)") }
            }
        }
        if memory.entries.first?.message(revealingPrivateValues: true) != "user <private> token <private>" {
            failures.append("the entry keeps revealed text: \(memory.entries.first.map { $0.message(revealingPrivateValues: true) } ?? "none")")
        }
        if var tagged = memory.entries.first {
            tagged.transformMessage { "[tag] " + $0 }
            if tagged.message(revealingPrivateValues: true) != "[tag] user <private> token <private>" {
                failures.append("a transformed entry shows: \(tagged.message(revealingPrivateValues: true))")
            }
        }
        if failures.isEmpty {
            print("release build: private and sensitive values are redacted in every format")
        } else {
            failures.forEach { print("FAIL: \($0)") }
            exit(1)
        }
    }
}
