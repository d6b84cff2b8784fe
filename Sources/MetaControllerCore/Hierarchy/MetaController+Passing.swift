extension MetaController {
    /// Hands this MetaController to `target` when it is a consumer, and on to
    /// the children of `target` when it is a container.
    ///
    /// The caller never needs the target's class: anything that is not a
    /// ``MetaControllerConsumer`` is skipped, and `nil` does nothing. When the
    /// target is a ``MetaControllerContainer`` (or, on UIKit, a view controller
    /// with children) the MetaController travels on down the tree, depth first.
    ///
    /// ```swift
    /// // In the app delegate:
    /// metaController.passMetaController(to: window.rootViewController)
    /// ```
    ///
    /// ## Write-once
    ///
    /// Passing never silently replaces a *different* MetaController that a
    /// consumer already holds (one a scoped override gave it, say): the consumer
    /// keeps its own, the pass does not go on to its children, and a warning is
    /// logged through this MetaController's log controller (standard error when
    /// there is none). Pass `replacingExisting: true` to replace it on purpose.
    /// Passing the MetaController a consumer already holds changes nothing and
    /// goes on to its children, which may be new.
    ///
    /// ## Reused objects
    ///
    /// An object reused from one scope to the next (a pooled request handler, a
    /// recycled cell) keeps the first scope it was passed unless each later pass
    /// says `replacingExisting: true`. When the MetaController a consumer keeps
    /// is not a scope of this one (neither this one nor a child of it, at any
    /// depth), the warning says the object looks reused, and a strict
    /// MetaController of MetaControllerTesting reports it, so the test fails.
    ///
    /// ## Requirements
    ///
    /// In debug builds, a consumer whose
    /// ``MetaControllerConsumer/requiredControllers`` this MetaController lacks
    /// gets it all the same, and a warning names the consumer's type and the
    /// missing slots, once: when the consumer receives this MetaController.
    /// ``audit(_:)`` reports the same in any build.
    ///
    /// - Parameters:
    ///   - target: Any object, or `nil`.
    ///   - replacingExisting: Whether to replace a different MetaController a consumer already holds.
    ///   - file: The caller's file, for warnings; leave the default.
    ///   - function: The caller's function, for warnings; leave the default.
    ///   - line: The caller's line, for warnings; leave the default.
    public func passMetaController(
        to target: AnyObject?,
        replacingExisting: Bool = false,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        guard let target else { return }
        walk(from: target) { consumer in
            deliver(
                to: consumer, replacingExisting: replacingExisting, checkRequirements: true, isPass: true,
                file: file, function: function, line: line)
        }
    }

    /// Gives one consumer this MetaController under the write-once policy.
    ///
    /// A pass (`isPass`) that leaves the consumer with the MetaController of
    /// another scope says so and tells the strict handler; a push on set only warns.
    ///
    /// - Returns: Whether the consumer now holds this MetaController (and a walk should go on to its children).
    @discardableResult
    func deliver(
        to consumer: any MetaControllerConsumer,
        replacingExisting: Bool,
        checkRequirements: Bool,
        isPass: Bool = false,
        file: String, function: String, line: UInt
    ) -> Bool {
        // One thread at a time reads and sets what the consumer holds, so that of several
        // threads passing to it at once one gives it the MetaController and runs its hook,
        // and the others find it given (see DeliveryClaims). The claim comes before the read:
        // a read before it would be read again after it, and a getter costs about what the
        // claim does.
        let claim = DeliveryClaims.claim(consumer)
        let owned: Bool
        if case .owned = claim { owned = true } else { owned = false }
        let existing = consumer.metaController
        guard existing !== self else {
            if owned { DeliveryClaims.release(consumer) }
            return true
        }
        if case .owned(let seams?) = claim { seams.claimed() }
        if let existing, !replacingExisting {
            if owned { DeliveryClaims.release(consumer) }
            let name = typeName(of: consumer)
            // Keeping a scope of this MetaController is what protects a subtree's scoped
            // override; keeping any other (a sibling request's, a parent's) is a reused
            // object that missed its re-scoping, and serves this scope with another's controllers.
            if !isPass || existing.isScope(of: self) {
                warn(
                    "\(name) already holds a different MetaController and keeps it; pass replacingExisting: true to replace it",
                    file: file, function: function, line: line)
            } else {
                warn(
                    "\(name) already holds the MetaController of another scope and keeps it; "
                        + "an object reused across scopes (a pooled handler, say) needs replacingExisting: true to take this one",
                    file: file, function: function, line: line)
                refusedPassHandler?(name, file, line)
            }
            return false
        }
        consumer.metaController = self
        if owned { DeliveryClaims.release(consumer) }
        defer { consumer.metaControllerDidArrive() }
        #if DEBUG
        if checkRequirements {
            let missing = missingControllers(for: consumer)
            // A verification reports it instead (``verify(consumers:samples:)``).
            if !missing.isEmpty, !FactoryConstruction.isVerifying {
                warn(
                    "\(typeName(of: consumer)) requires \(missing.map(\.name).joined(separator: ", ")), "
                        + "which this MetaController lacks",
                    file: file, function: function, line: line)
            }
        }
        #endif
        return true
    }

    /// Visits the consumers among `root` and, depth first, its descendants.
    ///
    /// The walk goes on to the children of every consumer for which `visit`
    /// returns `true`, and of every object that is not a consumer. It goes on
    /// to an object's children only once, so a hierarchy that lists an ancestor
    /// as a child does not loop; an object listed twice is visited twice, and
    /// `visit` decides what that means (passing is idempotent, an audit counts
    /// each consumer once).
    func walk(from root: AnyObject, _ visit: (any MetaControllerConsumer) -> Bool) {
        var kinds = NodeKind.Cache()
        // Only objects with children are remembered: they are the ones that
        // can lead a walk back where it has been, and in a tree they are few,
        // which keeps this set small enough to stay in cache (remembering every
        // object made passing grow faster than the tree, see CHANGELOG.md, "Performance history").
        var expanded: Set<ObjectIdentifier> = []
        // The children lists stay referenced until the walk ends, so an object
        // a container made on the fly cannot be freed mid-walk and its
        // identifier reused by another. (The caller holds the root.)
        var childLists: [[AnyObject]] = []
        var pending: [AnyObject] = [root]
        while let node = pending.popLast() {
            let kind = kinds.kind(of: node)
            if let consumer = kind.consumer(node), !visit(consumer) { continue }
            let children = kind.children(of: node)
            guard !children.isEmpty, expanded.insert(ObjectIdentifier(node)).inserted else { continue }
            childLists.append(children)
            pending.append(contentsOf: children.reversed())
        }
    }

    /// Whether this MetaController is `ancestor` or a child of it, at any depth.
    func isScope(of ancestor: MetaController) -> Bool {
        var scope: MetaController? = self
        while let current = scope {
            if current === ancestor { return true }
            scope = current.parent
        }
        return false
    }

    /// The slots `consumer` requires that this MetaController (with its parents) lacks.
    func missingControllers(for consumer: any MetaControllerConsumer) -> [MetaControllerSlot] {
        type(of: consumer).requiredControllers.filter { !contains($0) }
    }

    /// Logs a warning through the log controller, or to standard error when there is none.
    ///
    /// The entry is marked as the package's own (`isDiagnostic`), so
    /// that MetaControllerTesting's `FakeLogController` keeps it apart from the
    /// app's entries.
    func warn(_ message: String, file: String, function: String, line: UInt) {
        var entry = LogEntry(level: .warning, message: message, file: file, function: function, line: line)
        entry.isDiagnostic = true
        if let logController {
            if logController.isLogging(.warning) { logController.log(entry) }
        } else {
            POSIXFile.write(Array("warning: \(entry)\n".utf8), to: POSIXFile.standardError)
        }
    }
}

func typeName(of object: AnyObject) -> String {
    String(describing: type(of: object))
}
