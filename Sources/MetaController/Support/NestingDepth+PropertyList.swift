import Foundation

extension NestingDepth {
    /// Whether the `<dict>` and `<array>` elements of an XML property list nest
    /// more than `limit` deep, counted with a scan of the tags: comments,
    /// `CDATA` sections, processing instructions and the `DOCTYPE` are skipped,
    /// `<dict/>` and `<array/>` open nothing.
    static func xmlPropertyList(_ data: Data, exceeds limit: Int) -> Bool {
        data.withUnsafeBytes { bytes in
            let count = bytes.count
            var depth = 0, index = 0
            func matches(_ text: StaticString, at start: Int) -> Bool {
                guard start + text.utf8CodeUnitCount <= count else { return false }
                for offset in 0..<text.utf8CodeUnitCount where bytes[start + offset] != text.utf8Start[offset] {
                    return false
                }
                return true
            }
            /// The index just past the first `terminator` at or after `start`, or the end.
            func skip(past terminator: StaticString, from start: Int) -> Int {
                var position = start
                while position < count, !matches(terminator, at: position) { position += 1 }
                return min(count, position + terminator.utf8CodeUnitCount)
            }
            /// Whether a container's name (`dict` or `array`) starts at `start` and ends there.
            func container(at start: Int) -> Int? {
                for name: StaticString in ["dict", "array"] where matches(name, at: start) {
                    let end = start + name.utf8CodeUnitCount
                    guard end < count else { return nil }
                    switch bytes[end] {
                    case UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: " "), UInt8(ascii: "\t"),
                        UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                        return end
                    default: return nil
                    }
                }
                return nil
            }
            while index < count {
                guard bytes[index] == UInt8(ascii: "<") else {
                    index += 1
                    continue
                }
                if matches("<!--", at: index) {
                    index = skip(past: "-->", from: index + 4)
                } else if matches("<![CDATA[", at: index) {
                    index = skip(past: "]]>", from: index + 9)
                } else if matches("<?", at: index) {
                    index = skip(past: "?>", from: index + 2)
                } else if matches("<!", at: index) {
                    index = skip(past: ">", from: index + 2)
                } else if matches("</", at: index) {
                    if container(at: index + 2) != nil { depth = max(0, depth - 1) }
                    index = skip(past: ">", from: index + 2)
                } else if let nameEnd = container(at: index + 1) {
                    let tagEnd = skip(past: ">", from: nameEnd)
                    if !(tagEnd >= 2 && bytes[tagEnd - 1] == UInt8(ascii: ">") && bytes[tagEnd - 2] == UInt8(ascii: "/")) {
                        depth += 1
                        if depth > limit { return true }
                    }
                    index = tagEnd
                } else {
                    index += 1
                }
            }
            return false
        }
    }

    /// Whether the arrays, sets and dictionaries of a binary property list
    /// (`bplist00`) nest more than `limit` deep, or its structure cannot be
    /// followed: an offset, a count or a reference out of bounds, or a cycle.
    ///
    /// Objects may be shared, so each one's height is computed once, walking
    /// the references with an explicit stack no deeper than `limit`.
    static func binaryPropertyList(_ data: Data, exceeds limit: Int) -> Bool {
        data.withUnsafeBytes { bytes in
            BinaryPropertyList(bytes: bytes)?.nests(deeperThan: limit) ?? true
        }
    }
}

/// The layout of a binary property list, enough to follow its references.
///
/// The last 32 bytes are the trailer: 6 unused bytes, the byte width of an
/// offset and of an object reference, then three big-endian 8-byte numbers:
/// the number of objects, the top object's number and where the offset table
/// starts. The offset table gives each object's position. An object starts
/// with a marker byte whose high nibble is its type (`0xA` array, `0xB`
/// ordered set, `0xC` set, `0xD` dictionary) and low nibble its count, or
/// `0xF` when an integer object with the count follows.
private struct BinaryPropertyList {
    let bytes: UnsafeRawBufferPointer
    let offsetWidth: Int
    let referenceWidth: Int
    let objectCount: Int
    let topObject: Int
    let offsetTable: Int
    /// Where the objects end: the offset table, or the trailer when that comes first.
    let objectsEnd: Int

    init?(bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count >= 8 + 1 + 32, bytes.starts(with: Array("bplist00".utf8)) else { return nil }
        self.bytes = bytes
        let trailer = count - 32
        offsetWidth = Int(bytes[trailer + 6])
        referenceWidth = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetWidth), (1...8).contains(referenceWidth),
            let objects = Self.integer(bytes, at: trailer + 8, width: 8),
            let top = Self.integer(bytes, at: trailer + 16, width: 8),
            let table = Self.integer(bytes, at: trailer + 24, width: 8),
            objects >= 1, objects <= count, top < objects, table >= 8, table <= trailer,
            objects <= (trailer - table) / offsetWidth
        else { return nil }
        objectCount = objects
        topObject = top
        offsetTable = table
        objectsEnd = table
    }

    /// The big-endian unsigned integer of `width` bytes at `start`, if it is in bounds and below `Int.max / 16`.
    static func integer(_ bytes: UnsafeRawBufferPointer, at start: Int, width: Int) -> Int? {
        guard start >= 0, width >= 1, width <= 8, start <= bytes.count - width else { return nil }
        var value: UInt64 = 0
        for offset in 0..<width { value = value << 8 | UInt64(bytes[start + offset]) }
        guard value < UInt64(Int.max / 16) else { return nil }
        return Int(value)
    }

    /// Where object `number`'s references start and how many it has, or `nil`
    /// for what is not a collection; `.failure` when it points out of bounds.
    func references(of number: Int) -> Result<(start: Int, count: Int)?, BoundsError> {
        guard let position = Self.integer(bytes, at: offsetTable + number * offsetWidth, width: offsetWidth),
            position >= 8, position < objectsEnd
        else { return .failure(BoundsError()) }
        let marker = bytes[position]
        let type = marker >> 4
        guard [0xA, 0xB, 0xC, 0xD].contains(type) else { return .success(nil) }
        var start = position + 1
        var count = Int(marker & 0x0F)
        if count == 0x0F {
            guard start < objectsEnd, bytes[start] >> 4 == 0x1 else { return .failure(BoundsError()) }
            let width = 1 << Int(bytes[start] & 0x0F)
            guard let length = Self.integer(bytes, at: start + 1, width: width) else { return .failure(BoundsError()) }
            count = length
            start += 1 + width
        }
        let total = type == 0xD ? count * 2 : count
        guard start <= objectsEnd, total <= (objectsEnd - start) / referenceWidth else { return .failure(BoundsError()) }
        return .success((start, total))
    }

    struct BoundsError: Error {}

    /// Whether collections nest more than `limit` deep, or the structure cannot be followed.
    func nests(deeperThan limit: Int) -> Bool {
        struct Frame {
            let number: Int
            let start: Int
            let count: Int
            var next = 0
            var tallest = 0
        }
        // Each object's height: 0 for a leaf, 1 + its tallest child's for a collection;
        // -1 before it is measured, -2 while it is (met again then, it is a cycle).
        var heights = [Int](repeating: -1, count: objectCount)
        var path: [Frame] = []
        func enter(_ number: Int) -> Bool {
            switch references(of: number) {
            case .failure: return false
            case .success(nil): heights[number] = 0
            case .success(let collection?):
                heights[number] = -2
                path.append(Frame(number: number, start: collection.start, count: collection.count))
            }
            return true
        }
        guard enter(topObject) else { return true }
        while let last = path.indices.last {
            if path.count > limit { return true }
            guard path[last].next < path[last].count else {
                let frame = path.removeLast()
                heights[frame.number] = frame.tallest + 1
                if let parent = path.indices.last { path[parent].tallest = max(path[parent].tallest, frame.tallest + 1) }
                continue
            }
            let position = path[last].start + path[last].next * referenceWidth
            path[last].next += 1
            guard let child = Self.integer(bytes, at: position, width: referenceWidth), child < objectCount else { return true }
            switch heights[child] {
            case -2: return true
            case -1: guard enter(child) else { return true }
            default: path[last].tallest = max(path[last].tallest, heights[child])
            }
        }
        return false
    }
}
