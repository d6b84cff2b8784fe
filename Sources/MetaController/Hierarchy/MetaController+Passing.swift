import Foundation

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
    /// ## Requirements
    ///
    /// In debug builds, a consumer whose
    /// ``MetaControllerConsumer/requiredControllers`` this MetaController lacks
    /// gets it all the same, and a warning names the consumer's type and the
    /// missing slots. ``audit(_:)`` reports the same in any build.
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
        walk(from: target) { node in
            guard let consumer = node as? any MetaControllerConsumer else { return true }
            return deliver(
                to: consumer, replacingExisting: replacingExisting, checkRequirements: true,
                file: file, function: function, line: line)
        }
    }

    /// Gives one consumer this MetaController under the write-once policy.
    ///
    /// - Returns: Whether the consumer now holds this MetaController (and a walk should go on to its children).
    @discardableResult
    func deliver(
        to consumer: any MetaControllerConsumer,
        replacingExisting: Bool,
        checkRequirements: Bool,
        file: String, function: String, line: UInt
    ) -> Bool {
        let existing = consumer.metaController
        if existing !== self {
            if existing != nil, !replacingExisting {
                warn(
                    "\(typeName(of: consumer)) already holds a different MetaController and keeps it; "
                        + "pass replacingExisting: true to replace it",
                    file: file, function: function, line: line)
                return false
            }
            consumer.metaController = self
        }
        #if DEBUG
        if checkRequirements {
            let missing = missingControllers(for: consumer)
            if !missing.isEmpty {
                warn(
                    "\(typeName(of: consumer)) requires \(missing.map(\.name).joined(separator: ", ")), "
                        + "which this MetaController lacks",
                    file: file, function: function, line: line)
            }
        }
        #endif
        return true
    }

    /// Visits `root` and, depth first, the children of every node for which
    /// `visit` returns `true`. Each object is visited once, so a hierarchy that
    /// lists an ancestor as a child does not loop.
    func walk(from root: AnyObject, _ visit: (AnyObject) -> Bool) {
        guard visit(root) else { return }
        var pending = Array(PlatformHierarchy.childrenToVisit(of: root).reversed())
        guard !pending.isEmpty else { return }
        // Visited objects stay referenced until the walk ends, so a freed
        // object's identifier cannot be reused by a new child mid-walk.
        var visited: [ObjectIdentifier: AnyObject] = [ObjectIdentifier(root): root]
        while let node = pending.popLast() {
            guard visited.updateValue(node, forKey: ObjectIdentifier(node)) == nil else { continue }
            guard visit(node) else { continue }
            pending.append(contentsOf: PlatformHierarchy.childrenToVisit(of: node).reversed())
        }
    }

    /// The slots `consumer` requires that this MetaController (with its parents) lacks.
    func missingControllers(for consumer: any MetaControllerConsumer) -> [MetaControllerSlot] {
        type(of: consumer).requiredControllers.filter { !contains($0) }
    }

    /// Logs a warning through the log controller, or to standard error when there is none.
    func warn(_ message: String, file: String, function: String, line: UInt) {
        let entry = LogEntry(level: .warning, message: message, file: file, function: function, line: line)
        if let logController {
            if logController.isLogging(.warning) { logController.log(entry) }
        } else {
            FileHandle.standardError.write(Data("warning: \(entry)\n".utf8))
        }
    }
}

func typeName(of object: AnyObject) -> String {
    String(describing: type(of: object))
}
