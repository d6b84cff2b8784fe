/// The names a graph gives the types it shows: a type's own name
/// (`String(describing:)`, `ViewModel`) where no other type in the graph has
/// it, and otherwise just enough of its qualified name to tell it from the
/// others (`FeedScreen.ViewModel`, `ProfileScreen.ViewModel`; `FeatureA.ViewModel`
/// for the same name in two modules).
///
/// The qualified name is `String(reflecting:)`'s, less the module-private
/// contexts Swift writes with an address (`(unknown context at $10a4c8f20)`),
/// which would change from run to run. Two types whose qualified names are
/// then still equal (private types of one name in two files of a module) get
/// ` #2`, ` #3` after it, in the order of their full qualified names.
///
/// The work is linear in the number of types: a dictionary of names, and
/// the qualified names of the types that share one.
struct GraphTypeNames {
    private var names: [ObjectIdentifier: String] = [:]

    /// The names of `types`, each told from the others.
    init(_ types: [any Any.Type]) {
        var byName: [String: [any Any.Type]] = [:]
        var seen: Set<ObjectIdentifier> = []
        for type in types where seen.insert(ObjectIdentifier(type)).inserted {
            byName[String(describing: type), default: []].append(type)
        }
        names.reserveCapacity(seen.count)
        for (name, group) in byName {
            if group.count == 1 {
                names[ObjectIdentifier(group[0])] = name
            } else {
                for (type, shown) in Self.distinguished(group) { names[ObjectIdentifier(type)] = shown }
            }
        }
    }

    /// The name shown for `type`: its own where no other type of the graph has it.
    func name(of type: any Any.Type) -> String {
        names[ObjectIdentifier(type)] ?? String(describing: type)
    }

    /// Types of one name, each named by the shortest end of its qualified
    /// name (whole components: `ProfileScreen.ViewModel`) that no other type
    /// of the group ends with.
    private static func distinguished(_ group: [any Any.Type]) -> [(any Any.Type, String)] {
        let qualified = group.map { String(reflecting: $0) }
        let components = qualified.map { Self.components(of: Self.withoutPrivateContexts($0)) }
        // Each round looks one component further back, for the types not told
        // apart yet: a dictionary per round, a few rounds (the depth of nesting).
        var shown = [String](repeating: "", count: group.count)
        var open = Array(group.indices)
        var length = 1
        while !open.isEmpty {
            func end(_ index: Int) -> String { components[index].suffix(length).joined(separator: ".") }
            var counts: [String: Int] = [:]
            for index in group.indices { counts[end(index), default: 0] += 1 }
            open.removeAll { index in
                let name = end(index)
                guard counts[name] == 1 || length >= components[index].count else { return false }
                shown[index] = name
                return true
            }
            length += 1
        }
        // Equal to the end: private types of one name in two files. Numbered in
        // the order of their full qualified names, which their addresses decide.
        var byShown: [String: [Int]] = [:]
        for index in shown.indices { byShown[shown[index], default: []].append(index) }
        for (name, indices) in byShown where indices.count > 1 {
            let ordered = indices.sorted { qualified[$0] < qualified[$1] }
            for (position, index) in ordered.enumerated() where position > 0 {
                shown[index] = name + " #\(position + 1)"
            }
        }
        return Array(zip(group, shown))
    }

    /// `name` without the `(unknown context at $…).` parts Swift writes for
    /// a private or local context.
    static func withoutPrivateContexts(_ name: String) -> String {
        let marker = Array("(unknown context at $".utf8)
        let bytes = Array(name.utf8)
        guard bytes.count >= marker.count else { return name }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == marker[0], bytes[index...].starts(with: marker),
                let close = bytes[index...].firstIndex(of: UInt8(ascii: ")"))
            else {
                kept.append(bytes[index])
                index += 1
                continue
            }
            index = close + 1
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") { index += 1 }
        }
        return kept.count == bytes.count ? name : String(decoding: kept, as: UTF8.self)
    }

    /// The dot-separated components of a qualified name, a dot inside `<>`,
    /// `()` or `[]` (a generic argument, a tuple, a function's parameters) not
    /// separating.
    static func components(of name: String) -> [Substring] {
        var components: [Substring] = []
        var depth = 0
        var start = name.startIndex
        for index in name.indices {
            switch name[index] {
            case "<", "(", "[": depth += 1
            case ">", ")", "]": depth = max(0, depth - 1)
            case "." where depth == 0:
                components.append(name[start..<index])
                start = name.index(after: index)
            default: break
            }
        }
        components.append(name[start...])
        return components
    }
}
