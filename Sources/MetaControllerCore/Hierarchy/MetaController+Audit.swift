extension MetaController {
    /// Whether this MetaController, or one of its parents, fills `slot`.
    ///
    /// ```swift
    /// metaController.contains(.api)   // false until apiController is set
    /// ```
    ///
    /// In a test or preview MetaController of MetaControllerTesting, an empty slot
    /// whose key declares a value for it (``MetaControllerKey/testValue``) is
    /// filled with that value here, as a read fills it, and counts as filled; so
    /// do audits, verifications and the check on passing, which ask this.
    public func contains(_ slot: MetaControllerSlot) -> Bool {
        // `nil` rather than `false` when one lacks it, so that the parents are
        // asked, one after the other (``firstInChain(_:)``).
        let key = TypeKey(slot.id)
        let found: Bool? = firstInChain { scope in scope.state.withLock { state -> Bool?? in state.custom[key] != nil ? true : nil } }
        if let found { return found }
        return declaredValues != nil && slot.fillWithDeclaredValue(self)
    }

    /// Checks what the consumers under `root` require against what this
    /// MetaController provides.
    ///
    /// Walks `root` and its children as
    /// ``passMetaController(to:replacingExisting:file:function:line:)`` does
    /// (a single consumer is a hierarchy of one) and reports every consumer
    /// found: its type, whether it holds this MetaController, and which of its
    /// ``MetaControllerConsumer/requiredControllers`` this MetaController lacks.
    /// The audit changes nothing and never crashes on a missing controller.
    ///
    /// ```swift
    /// let audit = metaController.audit(rootScreen)
    /// if !audit.isSatisfied { print(audit) }
    /// // CheckoutScreen requires apiController, which this MetaController lacks
    /// ```
    ///
    /// - Parameter root: The object to start from; `nil` gives an empty audit.
    /// - Returns: One report per consumer, in the order the walk met them.
    public func audit(_ root: AnyObject?) -> MetaControllerAudit {
        var consumers: [MetaControllerAudit.ConsumerReport] = []
        if let root {
            var seen: Set<ObjectIdentifier> = []
            walk(from: root) { consumer in
                // An object a hierarchy lists twice is one consumer.
                guard seen.insert(ObjectIdentifier(consumer)).inserted else { return true }
                consumers.append(
                    MetaControllerAudit.ConsumerReport(
                        typeName: typeName(of: consumer),
                        holdsThisMetaController: consumer.metaController === self,
                        missingControllers: missingControllers(for: consumer)))
                return true
            }
        }
        return MetaControllerAudit(consumers: consumers)
    }
}
