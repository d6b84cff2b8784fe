/// `swift run metacontroller-demo`: what an iOS app does at launch, on the command line.
///
/// An app-delegate-like object builds the MetaController, hands it to the
/// root screen, and the screens pass it down through a tab bar, a navigation
/// stack, a segue-like transition and a screen made at run time by a factory.
/// The API controller is the real one, talking HTTP to a mock server the demo
/// starts on 127.0.0.1; one request fails and the typed error reaches the log.
/// Every screen logs through the shortcuts; one screen listens to a signal
/// another dispatches, and the tab bar observes a controller's `Property`. The
/// demo ends with a summary of who received the MetaController and what the
/// audit found.
@main
struct MetaControllerDemo {
    @MainActor
    static func main() async throws {
        let app = AppDelegate()
        try app.didFinishLaunching()
        await app.simulateUserSession()
        app.willTerminate()
        app.printSummary()
    }
}
