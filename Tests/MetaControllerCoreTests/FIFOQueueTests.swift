import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

struct FIFOQueueTests {
    /// A seeded random sweep of appends, removals and changes against an array as
    /// the oracle: the same elements in the same order, every step; and the
    /// array under the queue never holds more spent slots than 64 or its live
    /// elements, so a queue that is never empty does not keep its spent prefix.
    @Test(arguments: [1, 2, 3, 27] as [UInt64])
    func behavesAsAnArrayAndKeepsItsStorageBounded(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var queue = FIFOQueue<Int>()
        var oracle: [Int] = []
        var next = 0
        for _ in 0..<20_000 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                next += 1
                queue.append(next)
                oracle.append(next)
            case 5..<9 where !oracle.isEmpty:
                #expect(queue.removeFirst() == oracle.removeFirst())
            case 9 where !oracle.isEmpty:
                let target = oracle[Int.random(in: 0..<oracle.count, using: &random)]
                let changed = queue.changeFirst(where: { $0 == target }) { element -> Int in
                    element = -element
                    return element
                }
                #expect(changed == -target)
                oracle[oracle.firstIndex(of: target)!] = -target
            default:
                #expect(queue.first == oracle.first)
            }
            #expect(queue.count == oracle.count)
            #expect(queue.isEmpty == oracle.isEmpty)
            #expect(queue.slotCount <= queue.count + max(64, queue.count))   // spent slots: at most 64, or as many as live ones
        }
        while !oracle.isEmpty { #expect(queue.removeFirst() == oracle.removeFirst()) }
        #expect(queue.first == nil)
    }

    /// A producer that keeps one element waiting while another is taken (the
    /// property's queue under a steady producer): the queue never empties, and
    /// its storage stays small.
    @Test func aQueueThatNeverEmptiesKeepsItsStorageSmall() {
        var queue = FIFOQueue<Int>()
        queue.append(0)
        for value in 1...100_000 {
            queue.append(value)
            #expect(queue.removeFirst() == value - 1)
            #expect(queue.slotCount <= 130)
        }
    }

    @Test func changeFirstFindsNothingInAnEmptyOrUnmatchedQueue() {
        var queue = FIFOQueue<Int>()
        #expect(queue.changeFirst(where: { _ in true }) { _ in 1 } == nil)
        queue.append(1)
        #expect(queue.changeFirst(where: { $0 == 2 }) { _ in 1 } == nil)
        #expect(queue.first == 1)
    }
}
