import Foundation
import MetaController

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
///
/// `swift run metacontroller-demo --graph` prints, instead, the graph of the
/// MetaController built at launch as Mermaid (`--graph dot` as GraphViz DOT,
/// `--graph text` as text), and the log goes to standard error.
@main
struct MetaControllerDemo {
    @MainActor
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let flag = arguments.firstIndex(of: "--graph") {
            let format = arguments.indices.contains(flag + 1) ? arguments[flag + 1] : "mermaid"
            guard ["mermaid", "dot", "text"].contains(format), arguments.count <= 2 else {
                FileHandle.standardError.write(Data("usage: metacontroller-demo [--graph [mermaid|dot|text]]\n".utf8))
                exit(2)
            }
            let app = AppDelegate(logStream: .standardError)
            try app.didFinishLaunching()
            defer { app.willTerminate() }
            await app.dataStoreOpened()   // draw the graph with every slot filled
            guard let graph = app.graph() else { return }
            print(format == "dot" ? graph.dot : format == "text" ? graph.description : graph.mermaid)
            return
        }
        let app = AppDelegate()
        try app.didFinishLaunching()
        await app.simulateUserSession()
        app.willTerminate()
        app.printSummary()
    }
}
