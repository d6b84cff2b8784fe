import MetaControllerSupport
import Foundation

/// What a scan of a property list finds wrong with its structure before
/// Foundation decodes it (a ``StructureProblem``): dictionaries and arrays
/// nested deep enough to overflow Foundation's recursive parsers, a key that
/// appears twice in one dictionary (which the decoders silently resolve), or,
/// in a binary property list, references that cannot be followed.
///
/// Nothing here recurses, and each scan takes time in proportion to its input:
/// every open dictionary keeps a set of its keys.
enum PropertyListStructure {
    /// The first problem in an XML property list, or `nil`.
    ///
    /// The scan follows tags without parsing: comments, `CDATA` sections,
    /// processing instructions and the `DOCTYPE` are skipped, and `<dict/>` and
    /// `<array/>` open nothing. A key's text is compared after its entities
    /// (`&amp;`, `&#97;`, ...) are replaced and its `CDATA` sections joined in,
    /// as Swift strings, as the decoder's dictionaries compare them. A key
    /// whose text is not UTF-8, or holds an element, is left to the decoder.
    static func problem(inXML data: Data, depthLimit: Int) -> StructureProblem? {
        data.withUnsafeBytes { bytes in
            var scanner = XMLPropertyListScan(bytes: bytes, depthLimit: depthLimit)
            return scanner.run()
        }
    }

    /// The first problem in a binary property list (`bplist00`), or `nil`.
    ///
    /// Objects may be shared, so each collection is checked once, walking the
    /// references with an explicit stack no deeper than `depthLimit`, and each
    /// key string is decoded once. Keys that are not strings are left to the decoder.
    static func problem(inBinary data: Data, depthLimit: Int) -> StructureProblem? {
        data.withUnsafeBytes { bytes in
            guard var list = BinaryPropertyList(bytes: bytes) else { return .unfollowable }
            return list.problem(depthLimit: depthLimit)
        }
    }
}

/// One pass over the bytes of an XML property list.
private struct XMLPropertyListScan {
    let bytes: UnsafeRawBufferPointer
    let depthLimit: Int
    var index = 0

    /// An open `<dict>` or `<array>`.
    struct Frame {
        let isDictionary: Bool
        var keys: Set<String> = []
        /// The dictionary's latest key.
        var key = ""
        /// The array's latest element number.
        var index = -1
        /// How many other elements are open inside it (a `<string>`, or what a malformed file nests there).
        var openElements = 0
    }

    var frames: [Frame] = []

    init(bytes: UnsafeRawBufferPointer, depthLimit: Int) {
        self.bytes = bytes
        self.depthLimit = depthLimit
    }

    func matches(_ text: StaticString, at start: Int) -> Bool {
        guard start + text.utf8CodeUnitCount <= bytes.count else { return false }
        for offset in 0..<text.utf8CodeUnitCount where bytes[start + offset] != text.utf8Start[offset] {
            return false
        }
        return true
    }

    /// The index just past the first `terminator` at or after `start`, or the end.
    func skip(past terminator: StaticString, from start: Int) -> Int {
        var position = start
        while position < bytes.count, !matches(terminator, at: position) { position += 1 }
        return min(bytes.count, position + terminator.utf8CodeUnitCount)
    }

    /// The element name that starts at `start`, and where it ends.
    func name(at start: Int) -> (name: Name, end: Int) {
        var end = start
        while end < bytes.count, !Self.endsName(bytes[end]) { end += 1 }
        // A name the input ends in is not yet a name.
        guard end < bytes.count else { return (.other, end) }
        let name: Name =
            switch end - start {
            case 4 where matches("dict", at: start): .dictionary
            case 5 where matches("array", at: start): .array
            case 3 where matches("key", at: start): .key
            default: .other
            }
        return (name, end)
    }

    enum Name { case dictionary, array, key, other }

    /// Whether `byte` ends a tag's name: `>`, `/` or white space.
    static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ">"), UInt8(ascii: "/"), 0x20, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }

    mutating func run() -> StructureProblem? {
        while index < bytes.count {
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
                let (name, end) = name(at: index + 2)
                if let last = frames.indices.last {
                    if frames[last].openElements > 0 {
                        frames[last].openElements -= 1
                    } else if name == .dictionary || name == .array {
                        frames.removeLast()
                    }
                }
                index = skip(past: ">", from: end)
            } else if let problem = startTag() {
                return problem
            }
        }
        return nil
    }

    /// Reads the start tag at `index`, and a key's text after it.
    mutating func startTag() -> StructureProblem? {
        let (name, end) = name(at: index + 1)
        index = skip(past: ">", from: end)
        let closes = index >= 2 && bytes[index - 1] == UInt8(ascii: ">") && bytes[index - 2] == UInt8(ascii: "/")
        if let last = frames.indices.last, frames[last].openElements == 0 {
            if frames[last].isDictionary, name == .key {
                guard let key = closes ? "" : readKey() else { return nil }
                guard frames[last].keys.insert(key).inserted else { return .duplicateKey(path: path(key)) }
                frames[last].key = key
                return nil
            }
            if !frames[last].isDictionary { frames[last].index += 1 }
        }
        guard !closes else { return nil }
        if name == .dictionary || name == .array {
            frames.append(Frame(isDictionary: name == .dictionary))
            if frames.count > depthLimit { return .tooDeep }
        } else if let last = frames.indices.last {
            frames[last].openElements += 1
        }
        return nil
    }

    /// The text of the key whose start tag ends at `index`, read through its
    /// end tag; `nil` when it is not UTF-8, holds an element or an entity the
    /// decoder does not know, or does not end.
    mutating func readKey() -> String? {
        var text: [UInt8] = []
        var known = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") {
                guard let next = readEntity(into: &text) else {
                    known = false
                    index += 1
                    continue
                }
                index = next
            } else if byte != UInt8(ascii: "<") {
                text.append(byte)
                index += 1
            } else if matches("</key", at: index) {
                index = skip(past: ">", from: index + 5)
                return known ? String(bytes: text, encoding: .utf8) : nil
            } else if matches("<![CDATA[", at: index) {
                let end = skip(past: "]]>", from: index + 9)
                guard matches("]]>", at: end - 3) else { return nil }
                text += bytes[(index + 9)..<(end - 3)]
                index = end
            } else if matches("<!--", at: index) {
                index = skip(past: "-->", from: index + 4)
            } else if matches("<?", at: index) {
                index = skip(past: "?>", from: index + 2)
            } else {
                // An element inside a key: the scan goes on from its tag, and the decoder refuses the file.
                frames[frames.count - 1].openElements += 1
                return nil
            }
        }
        return nil
    }

    /// Appends the character the entity at `index` stands for and returns where
    /// the text goes on; `nil` when it is not an entity the decoder knows.
    func readEntity(into text: inout [UInt8]) -> Int? {
        var end = index + 1
        while end < bytes.count, end - index <= 10, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { return nil }
        let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        guard let scalar = XMLEntity.scalar(named: body) else { return nil }
        text += String(scalar).utf8
        return end + 1
    }

    /// `key`'s path below the open frames.
    func path(_ key: String) -> String {
        StructureProblem.path(
            frames.indices.map { number in
                guard frames[number].isDictionary else { return .index(frames[number].index) }
                return .key(number == frames.count - 1 ? key : frames[number].key)
            })
    }
}

/// The layout of a binary property list, enough to follow its references.
///
/// The last 32 bytes are the trailer: 6 unused bytes, the byte width of an
/// offset and of an object reference, then three big-endian 8-byte numbers:
/// the number of objects, the top object's number and where the offset table
/// starts. The offset table gives each object's position. An object starts
/// with a marker byte whose high nibble is its type (`0x5` ASCII string, `0x6`
/// UTF-16 string, `0xA` array, `0xB` ordered set, `0xC` set, `0xD` dictionary:
/// its keys' references, then its values') and low nibble its count, or `0xF`
/// when an integer object with the count follows.
private struct BinaryPropertyList {
    let bytes: UnsafeRawBufferPointer
    let offsetWidth: Int
    let referenceWidth: Int
    let objectCount: Int
    let topObject: Int
    let offsetTable: Int
    /// Where the objects end: the offset table.
    let objectsEnd: Int
    /// Each string object's key number, the same for equal strings; `nil` before it is read.
    private var keyNumbers: [Int?]
    private var keyNumbersByText: [String: Int] = [:]
    private var keyTexts: [String] = []
    /// A key number for what is not a string.
    private static let notAString = -1

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
        keyNumbers = Array(repeating: nil, count: objects)
    }

    /// The big-endian unsigned integer of `width` bytes at `start`, if it is in bounds and below `Int.max / 16`.
    static func integer(_ bytes: UnsafeRawBufferPointer, at start: Int, width: Int) -> Int? {
        guard start >= 0, width >= 1, width <= 8, start <= bytes.count - width else { return nil }
        var value: UInt64 = 0
        for offset in 0..<width { value = value << 8 | UInt64(bytes[start + offset]) }
        guard value < UInt64(Int.max / 16) else { return nil }
        return Int(value)
    }

    struct BoundsError: Error {}

    /// Object `number`'s type, where its contents start and their count, read from its marker.
    func object(_ number: Int) -> Result<(type: UInt8, start: Int, count: Int), BoundsError> {
        guard let position = Self.integer(bytes, at: offsetTable + number * offsetWidth, width: offsetWidth),
            position >= 8, position < objectsEnd
        else { return .failure(BoundsError()) }
        let marker = bytes[position]
        var start = position + 1
        var count = Int(marker & 0x0F)
        if count == 0x0F, [0x5, 0x6, 0xA, 0xB, 0xC, 0xD].contains(marker >> 4) {
            guard start < objectsEnd, bytes[start] >> 4 == 0x1 else { return .failure(BoundsError()) }
            let width = 1 << Int(bytes[start] & 0x0F)
            guard let length = Self.integer(bytes, at: start + 1, width: width) else { return .failure(BoundsError()) }
            count = length
            start += 1 + width
        }
        return .success((marker >> 4, start, count))
    }

    /// Where object `number`'s references start and how many it has, or `nil`
    /// for what is not a collection; `.failure` when it points out of bounds.
    func references(of number: Int) -> Result<(start: Int, count: Int, isDictionary: Bool)?, BoundsError> {
        object(number).flatMap { type, start, count in
            guard [0xA, 0xB, 0xC, 0xD].contains(type) else { return .success(nil) }
            let total = type == 0xD ? count * 2 : count
            guard start <= objectsEnd, total <= (objectsEnd - start) / referenceWidth else { return .failure(BoundsError()) }
            return .success((start, total, type == 0xD))
        }
    }

    /// The number shared by every string object equal to object `number`, or
    /// ``notAString``; `nil` when it points out of bounds.
    mutating func keyNumber(of number: Int) -> Int? {
        if let known = keyNumbers[number] { return known }
        guard case .success(let (type, start, count)) = object(number) else { return nil }
        let text: String?
        switch type {
        case 0x5:
            guard count <= objectsEnd - start else { return nil }
            let characters = bytes[start..<(start + count)]
            // Bytes above 0x7F are not ASCII; what they mean is left to the decoder.
            text = characters.allSatisfy { $0 < 0x80 } ? String(decoding: characters, as: Unicode.ASCII.self) : nil
        case 0x6:
            guard count <= (objectsEnd - start) / 2 else { return nil }
            let units = (0..<count).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
            text = String(decoding: units, as: UTF16.self)
        default:
            text = nil
        }
        var key = Self.notAString
        if let text {
            key = keyNumbersByText[text] ?? keyTexts.count
            if key == keyTexts.count {
                keyNumbersByText[text] = key
                keyTexts.append(text)
            }
        }
        keyNumbers[number] = key
        return key
    }

    /// An open collection on the way down.
    private struct Frame {
        let number: Int
        let start: Int
        let count: Int
        let isDictionary: Bool
        var next = 0
        var tallest = 0
    }

    /// The first problem, or `nil`.
    mutating func problem(depthLimit: Int) -> StructureProblem? {
        // Each object's height: 0 for a leaf, 1 + its tallest child's for a collection;
        // -1 before it is measured, -2 while it is (met again then, it is a cycle).
        var heights = [Int](repeating: -1, count: objectCount)
        var path: [Frame] = []
        func reference(_ frame: Frame, _ offset: Int) -> Int? {
            guard let child = Self.integer(bytes, at: frame.start + offset * referenceWidth, width: referenceWidth),
                child < objectCount
            else { return nil }
            return child
        }
        /// Opens object `number`, checking a dictionary's keys first.
        func enter(_ number: Int) -> StructureProblem? {
            switch references(of: number) {
            case .failure: return .unfollowable
            case .success(nil): heights[number] = 0
            case .success(let collection?):
                heights[number] = -2
                let frame = Frame(number: number, start: collection.start, count: collection.count, isDictionary: collection.isDictionary)
                path.append(frame)
                guard frame.isDictionary else { return nil }
                var seen: Set<Int> = []
                for offset in 0..<(frame.count / 2) {
                    guard let child = reference(frame, offset), let key = keyNumber(of: child) else { return .unfollowable }
                    if key != Self.notAString, !seen.insert(key).inserted {
                        return .duplicateKey(path: StructureProblem.path(steps(path.dropLast()) + [.key(keyTexts[key])]))
                    }
                }
            }
            return nil
        }
        /// The steps to the children the frames are visiting.
        func steps(_ frames: ArraySlice<Frame>) -> [StructureProblem.Step] {
            frames.map { frame in
                guard frame.isDictionary else { return .index(frame.next - 1) }
                // A dictionary's keys come first; then the value of each key, in the same order.
                let valueNumber = frame.next - 1 - frame.count / 2
                guard valueNumber >= 0, let keyReference = reference(frame, valueNumber),
                    let keyNumber = keyNumbers[keyReference], keyNumber >= 0
                else { return .key("?") }
                return .key(keyTexts[keyNumber])
            }
        }
        if let problem = enter(topObject) { return problem }
        while let last = path.indices.last {
            if path.count > depthLimit { return .tooDeep }
            guard path[last].next < path[last].count else {
                let frame = path.removeLast()
                heights[frame.number] = frame.tallest + 1
                if let parent = path.indices.last { path[parent].tallest = max(path[parent].tallest, frame.tallest + 1) }
                continue
            }
            path[last].next += 1
            guard let child = reference(path[last], path[last].next - 1) else { return .unfollowable }
            switch heights[child] {
            case -2: return .unfollowable
            case -1: if let problem = enter(child) { return problem }
            default: path[last].tallest = max(path[last].tallest, heights[child])
            }
        }
        return nil
    }
}
