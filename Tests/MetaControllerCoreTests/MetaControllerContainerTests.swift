import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

// The main-actor container of Docs/PassingDownTheHierarchy.md, as written there.

@MainActor
final class MessageRow: @MainActor MetaControllerConsumer {
    var metaController: MetaController?
    let text: String

    init(text: String) { self.text = text }
}

@MainActor
final class InboxScreen: @MainActor MetaControllerConsumer, @MainActor MetaControllerContainer {
    var metaController: MetaController?
    private(set) var rows: [MessageRow] = [MessageRow(text: "Welcome")]

    var metaControllerChildren: [AnyObject] { rows }

    func show(_ text: String) {
        let row = MessageRow(text: text)
        rows.append(row)
        passMetaController(to: row)
    }
}

@MainActor
func showInbox(with metaController: MetaController) -> InboxScreen {
    let inbox = InboxScreen()
    metaController.passMetaController(to: inbox)   // the inbox and its row
    inbox.show("New message")   // the new row, from the inbox
    return inbox
}

@Suite struct MetaControllerContainerTests {
    @Test @MainActor func aMainActorContainerPassesOnToItsChildren() {
        let metaController = MetaController.withFakes()
        let inbox = showInbox(with: metaController)
        #expect(inbox.metaController === metaController)
        #expect(inbox.rows.map(\.text) == ["Welcome", "New message"])
        #expect(inbox.rows.allSatisfy { $0.metaController === metaController })
        let audit = metaController.audit(inbox)
        #expect(audit.consumers.map(\.typeName) == ["InboxScreen", "MessageRow", "MessageRow"])
        #expect(audit.consumers.allSatisfy { $0.holdsThisMetaController })
        #expect(metaController.fakeLogController?.entries.isEmpty == true)
    }
}
