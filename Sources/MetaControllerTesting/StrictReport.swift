public import MetaControllerCore

/// A mistake in a test's setup that a strict MetaController reports and a
/// plain one lets pass with at most a warning.
///
/// A strict MetaController (``MetaControllerCore/MetaController/strict(reporting:)``)
/// hands its reporter an ``UnfilledSlotRead`` when a consumer reads a slot the
/// test did not fill, a ``RefusedPass`` when a pass leaves a consumer with
/// the MetaController of another scope, a ``MissedDispatches`` when a key's test value caught up
/// with the bus without payloads that fell out of its record, and a
/// `MetaControllerVerification.Problem` for each problem
/// `verify(consumers:samples:)` finds.
/// Print it for a sentence that says what happened; cast it to tell them apart:
///
/// ```swift
/// let metaController = MetaController.strict { Issue.record("\($0)") }
/// ```
public protocol StrictReport: Sendable, CustomStringConvertible {}

extension UnfilledSlotRead: StrictReport {}

extension MetaControllerVerification.Problem: StrictReport {}
