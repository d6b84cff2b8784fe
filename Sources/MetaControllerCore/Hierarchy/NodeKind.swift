/// What a walk down an object tree needs to know about one class: whether its
/// objects are consumers, and how to list their children.
///
/// Asking an `AnyObject` whether it is a ``MetaControllerConsumer`` or a
/// ``MetaControllerContainer`` is a conformance lookup in the runtime's caches,
/// and a walk asked both for every node: about a fifth of passing down a large
/// tree (see CHANGELOG.md, "Performance history"). A tree holds objects of a handful of
/// classes, so a walk asks once per class and keeps the answer as metatypes,
/// which carry the conformances with them.
struct NodeKind {
    /// The class as a consumer; `nil` when it is not one.
    private let consumerType: (any MetaControllerConsumer.Type)?
    /// The class as a container; `nil` when it is not one.
    private let containerType: (any MetaControllerContainer.Type)?

    /// Works out the kind of `node`'s class.
    init(of node: AnyObject) {
        consumerType = (node as? any MetaControllerConsumer).map { type(of: $0) }
        containerType = (node as? any MetaControllerContainer).map { type(of: $0) }
    }

    /// `node` as a consumer, or `nil`; `node` must be of the class this kind was worked out for.
    func consumer(_ node: AnyObject) -> (any MetaControllerConsumer)? {
        consumerType.map { Self.cast(node, to: $0) }
    }

    /// The children a walk visits after `node`, which must be of the class this kind was worked out for.
    func children(of node: AnyObject) -> [AnyObject] {
        guard let containerType else { return PlatformHierarchy.children(of: node) }
        return Self.cast(node, to: containerType).metaControllerChildren
    }

    // Opening the existential metatype binds `Node` to the object's own class:
    // the cast is unchecked (the cache guarantees the class) and the witness
    // table comes with the metatype, so there is no lookup and no retain.

    private static func cast<Node: MetaControllerConsumer>(_ node: AnyObject, to _: Node.Type) -> any MetaControllerConsumer {
        unsafeDowncast(node, to: Node.self)
    }

    private static func cast<Node: MetaControllerContainer>(_ node: AnyObject, to _: Node.Type) -> any MetaControllerContainer {
        unsafeDowncast(node, to: Node.self)
    }

    /// The kinds met during one walk, by class.
    struct Cache {
        private var last: (type: ObjectIdentifier, kind: NodeKind)?
        private var kinds: [ObjectIdentifier: NodeKind] = [:]

        /// The kind of `node`'s class, worked out the first time the class is met.
        mutating func kind(of node: AnyObject) -> NodeKind {
            let type = ObjectIdentifier(Swift.type(of: node))
            // Siblings are often of one class: check the last one before hashing.
            if let last, last.type == type { return last.kind }
            let kind: NodeKind
            if let known = kinds[type] {
                kind = known
            } else {
                kind = NodeKind(of: node)
                kinds[type] = kind
            }
            last = (type, kind)
            return kind
        }
    }
}
