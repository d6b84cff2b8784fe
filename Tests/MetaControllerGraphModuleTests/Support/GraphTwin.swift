import MetaController

/// A private type named as one in MetaControllerGraphTests.swift: two types whose qualified names
/// differ only in the file that holds them, for the graph's last resort, ` #2`.
private final class Twin: Sendable {}

/// Registers this file's `Twin`.
func registerTheOtherFilesTwin(in metaController: MetaController) {
    metaController.register(Twin.self) { _ in Twin() }
}
