/// A first-in, first-out queue whose appends and removals take constant time
/// (amortised).
///
/// Elements live in an array from `head` on; a removal only moves `head` and
/// empties the slot (so a removed element is released at once). The spent
/// prefix is dropped when the queue empties, or when it is over half the array,
/// which keeps the array at most twice the queue's length and each element
/// moved at most once on average.
struct FIFOQueue<Element> {
    private var slots: [Element?] = []
    private var head = 0

    /// An empty queue.
    init() {}

    var isEmpty: Bool { head == slots.count }

    /// The number of elements.
    var count: Int { slots.count - head }

    /// The number of slots the queue's array holds, spent ones included (for tests of its bound).
    var slotCount: Int { slots.count }

    /// The first element, if any.
    var first: Element? { isEmpty ? nil : slots[head] }

    mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Removes and returns the first element; the queue must not be empty.
    mutating func removeFirst() -> Element {
        precondition(!isEmpty, "FIFOQueue.removeFirst: the queue is empty")
        let element = slots[head].take()!
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: slots.count <= 64)
            head = 0
        } else if head > 64, head * 2 > slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Changes the first element that `matches`, if any, and returns what
    /// `change` returns. Looks at every element up to it.
    mutating func changeFirst<Result>(
        where matches: (Element) -> Bool, _ change: (inout Element) -> Result
    ) -> Result? {
        var index = head
        while index < slots.count {
            if matches(slots[index]!) { return change(&slots[index]!) }
            index += 1
        }
        return nil
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
