import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct MemoryLogDestinationTests {
    private func entry(_ message: String, _ level: LogLevel = .info) -> LogEntry {
        LogEntry(level: level, message: message, file: "F.swift", function: "f()", line: 1)
    }

    @Test func keepsTheLatestEntriesDroppingTheOldest() {
        let memory = MemoryLogDestination(capacity: 3)
        for index in 1...5 { memory.write(entry("\(index)"), revealingPrivateValues: false) }
        #expect(memory.entries.map(\.message) == ["3", "4", "5"])
        #expect(memory.lines == ["F.swift (line 1): f(): 3", "F.swift (line 1): f(): 4", "F.swift (line 1): f(): 5"])
        memory.removeAll()
        #expect(memory.entries.isEmpty)
    }

    @Test func aCapacityBelowOneKeepsOne() {
        let memory = MemoryLogDestination(capacity: 0)
        memory.write(entry("a"), revealingPrivateValues: false)
        memory.write(entry("b"), revealingPrivateValues: false)
        #expect(memory.entries.map(\.message) == ["b"])
    }

    @Test func keepsEveryEntryFromManyTasksUpToItsCapacity() async {
        let memory = MemoryLogDestination(capacity: 10_000)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { for index in 0..<500 { memory.write(entry("\(task)-\(index)"), revealingPrivateValues: false) } }
            }
        }
        #expect(memory.entries.count == 4000)
        #expect(Set(memory.entries.map(\.message)).count == 4000)
    }
}
