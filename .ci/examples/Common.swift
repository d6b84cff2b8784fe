// Scaffolding for .ci/check-examples: a fragment of the docs becomes the body of a method of
// Example, so it runs as it would in a screen of an app.
import MetaController

@MainActor
final class Example: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
}
