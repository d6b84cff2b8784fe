public import MetaControllerCore

extension MetaController {
    /// An empty MetaController that reports every read of a slot the test did
    /// not fill, and every pass that leaves a consumer with another scope's MetaController.
    ///
    /// A plain MetaController answers `nil` for an empty slot, so code under
    /// test that needs a controller the test forgot quietly does nothing. A
    /// strict one calls `report` with an ``UnfilledSlotRead`` whenever a consumer
    /// or a reader (`MetaControllerReader`) reads an empty slot through its
    /// accessors (`apiController`, `logController`, ... and
    /// `MetaControllerReader.subscript(_:)` for custom slots); the accessor still
    /// answers `nil`. It calls `report` with a ``RefusedPass`` when it, or a
    /// child of it, passes itself to a consumer that keeps a MetaController of
    /// another scope (an object reused without `replacingExisting: true`); the
    /// consumer still keeps it. It calls `report` with each
    /// `MetaControllerVerification.Problem` that `verify(consumers:samples:)`
    /// finds, so one line checks the whole graph. Pass the test framework's failure:
    ///
    /// ```swift
    /// // Swift Testing
    /// let metaController = MetaController.strict { Issue.record("\($0)") }
    /// // XCTest
    /// let metaController = MetaController.strict { XCTFail("\($0)") }
    ///
    /// metaController.apiController = FakeApiController()
    /// metaController.passMetaController(to: screen)
    /// screen.refresh()   // reads dataController: "FeedScreen read dataController, which the test did not fill"
    /// ```
    ///
    /// An empty slot whose key declares a `MetaControllerKey.testValue` is
    /// filled with it on its first read, as in ``withFakes()``, and the read is
    /// not reported; a read of a slot that is empty and whose key declares none is.
    /// What such a value listens to when it arrives it hears from this MetaController's first
    /// line (its bus keeps the last 10,000 dispatches); `report` gets a ``MissedDispatches``
    /// when a listener's signal had older ones, which it did not hear.
    ///
    /// Children made with `MetaController.init(parent:)` are strict too, with
    /// the same `report`. Reads made on the MetaController itself are not
    /// reported, for every slot: the built-in accessors
    /// (`metaController.apiController`), an app's accessors declared on
    /// `MetaControllerReader` (`metaController.favoritesController`) and the
    /// subscripts. Nor are the logging shortcuts, audits and the requirement
    /// check on passing.
    ///
    /// - Parameter report: Called on the reading or passing thread, once per read of an empty slot,
    ///   once per consumer that keeps another scope's MetaController and once per listener
    ///   that caught up without payloads that fell out of the bus's record; on
    ///   the main actor once per problem a verification finds.
    public static func strict(reporting report: @escaping @Sendable (any StrictReport) -> Void) -> MetaController {
        MetaController(
            declaredValues: .test,
            unfilledReadHandler: { consumer, slot in report(UnfilledSlotRead(consumer: consumer, slot: slot)) },
            refusedPassHandler: { consumer, file, line in report(RefusedPass(consumer: consumer, file: file, line: line)) },
            verificationProblemHandler: { problem in report(problem) },
            missedDispatchesHandler: { signal, listener, missed in
                report(MissedDispatches(signal: signal, listener: listener, missed: missed))
            })
    }
}
