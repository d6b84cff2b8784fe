/// What a scan of JSON or a property list finds wrong with its structure
/// before Foundation decodes it; ``JSONStructure`` and
/// ``PropertyListStructure`` do the scans.
package enum StructureProblem: Equatable {
    /// Containers nest deeper than the limit.
    case tooDeep
    /// A key appears twice in one object or dictionary; `path` names it, such as `log.destinations[0].level`.
    case duplicateKey(path: String)
    /// A binary property list whose offsets, counts or references point out of bounds, or form a cycle.
    case unfollowable

    /// A step on the way to a value: a key of an object or an element number of an array.
    package enum Step {
        case key(String)
        case index(Int)
    }

    /// `steps` written as a key path: `log.destinations[0].level`.
    package static func path(_ steps: some Sequence<Step>) -> String {
        var rendered = ""
        for step in steps {
            switch step {
            case .key(let name): rendered += rendered.isEmpty ? name : ".\(name)"
            case .index(let number): rendered += "[\(number)]"
            }
        }
        return rendered
    }
}
