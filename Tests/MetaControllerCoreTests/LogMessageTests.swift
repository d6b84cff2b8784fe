import MetaController
import Testing
import MetaControllerTestSupport

@Suite struct LogMessageTests {
    @Test func publicValuesAreShownAndTheDefault() {
        let count = 3
        let message: LogMessage = "loaded \(count) items, \(count, privacy: .public) again"
        #expect(message.description == "loaded 3 items, 3 again")
        #expect(message.rendered(revealingPrivateValues: true) == "loaded 3 items, 3 again")
    }

    @Test func privateValuesAreRedactedUnlessRevealedInADebugBuild() {
        let email = "ada@example.com"
        let message: LogMessage = "signed in as \(email, privacy: .private) today"
        #expect(message.description == "signed in as <private> today")
        #expect(message.rendered(revealingPrivateValues: false) == "signed in as <private> today")
        #if DEBUG
        #expect(message.rendered(revealingPrivateValues: true) == "signed in as ada@example.com today")
        #else
        #expect(message.rendered(revealingPrivateValues: true) == "signed in as <private> today")
        #endif
    }

    @Test func sensitiveValuesAreNeverShown() {
        let token = "s3cr3t", user = "ada"
        let message: LogMessage = "token \(token, privacy: .sensitive) for \(user, privacy: .private)"
        #expect(message.description == "token <private> for <private>")
        #expect(!message.rendered(revealingPrivateValues: true).contains("s3cr3t"))
    }

    @Test func everyMixOfPublicPrivateAndSensitiveKeepsItsOrder() {
        struct User: CustomStringConvertible {
            var description: String { "User(ada)" }
        }
        let token = "s3cr3t", user = User(), count = 2
        let message: LogMessage = "a \(token, privacy: .sensitive) b \(user, privacy: .private) c \(count) d \(token, privacy: .sensitive) e"
        #expect(message.description == "a <private> b <private> c 2 d <private> e")
        #if DEBUG
        #expect(message.rendered(revealingPrivateValues: true) == "a <private> b User(ada) c 2 d <private> e")
        #else
        #expect(message.rendered(revealingPrivateValues: true) == message.description)
        #endif
    }

    @Test func onlySensitiveValuesRevealNothing() {
        let password = "hunter2"
        let message: LogMessage = "password \(password, privacy: .sensitive) set"
        #expect(message.description == "password <private> set")
        #expect(message.rendered(revealingPrivateValues: true) == "password <private> set")
    }

    @Test func literalsAndPlainTextHaveNothingToHide() {
        let literal: LogMessage = "plain"
        #expect(literal.description == "plain")
        #expect(literal.rendered(revealingPrivateValues: true) == "plain")
        #expect(
            LogMessage("cannot listen: \("EADDRINUSE")").rendered(revealingPrivateValues: true)
                == "cannot listen: EADDRINUSE")
    }

    @Test func entriesCarryTheRedactedMessageAndRevealOnlyWhenAsked() {
        let secret = "hunter2"
        let entry = LogEntry(level: .info, message: "password \(secret, privacy: .private)", file: "A.swift", function: "f()", line: 1)
        #expect(entry.message == "password <private>")
        #expect(entry.description == "A.swift (line 1): f(): password <private>")
        #expect(entry.message(revealingPrivateValues: false) == "password <private>")
        #if DEBUG
        #expect(entry.message(revealingPrivateValues: true) == "password hunter2")
        #endif
    }

    @Test func theShortcutsTakeLogMessages() {
        let metaController = MetaController()
        let log = MemoryLogDestination()
        metaController.logController = StandardLogController(minimumLevel: .trace, destinations: [log])
        let consumer = PlainConsumer()
        consumer.metaController = metaController
        let pin = 1234
        consumer.infoLog("pin \(pin, privacy: .sensitive)")
        #expect(log.entries.map(\.message) == ["pin <private>"])
    }
}

private final class PlainConsumer: MetaControllerConsumer {
    var metaController: MetaController?
}
