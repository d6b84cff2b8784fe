import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

struct MetaControllerAuditTests {
    @Test func namesTheConsumerTypeAndTheMissingSlot() throws {
        let metaController = MetaController()
        metaController.apiController = FakeApiController()
        let audit = metaController.audit(SettingsScreen())
        #expect(!audit.isSatisfied)
        let report = try #require(audit.unsatisfied.first)
        #expect(report.typeName == "SettingsScreen")
        #expect(report.missingControllers == [.notification])
        #expect(report.holdsThisMetaController == false)
        #expect(report.description == "SettingsScreen requires notificationController, which this MetaController lacks (does not hold this MetaController)")
    }

    @Test func auditsAWholeHierarchy() {
        let metaController = MetaController()
        metaController.logController = FakeLogController()
        let root = TabsScreen([Stack([Screen(), SettingsScreen()]), ProfileScreen()])
        metaController.passMetaController(to: root)
        let audit = metaController.audit(root)
        #expect(audit.consumers.map(\.typeName) == ["TabsScreen", "Screen", "SettingsScreen", "ProfileScreen"])
        #expect(audit.consumers.allSatisfy { $0.holdsThisMetaController })
        #expect(audit.unsatisfied.map(\.typeName) == ["SettingsScreen", "ProfileScreen"])
        #expect(audit.unsatisfied.map(\.missingControllers) == [[.api, .notification], [.custom(UserControllerKey.self)]])
        #expect(
            audit.description == """
                TabsScreen: ok
                Screen: ok
                SettingsScreen requires apiController, notificationController, which this MetaController lacks
                ProfileScreen requires userController, which this MetaController lacks
                """)
    }

    @Test func satisfiedOnceTheSlotsAreFilled() {
        let metaController = MetaController.withFakes()
        metaController.userController = TestUserController()
        let root = TabsScreen([SettingsScreen(), ProfileScreen()])
        #expect(metaController.audit(root).isSatisfied)
        #expect(metaController.audit(root).unsatisfied.isEmpty)
    }

    @Test func aChildsAuditCountsItsParentsSlots() {
        let parent = MetaController.withFakes()
        let child = MetaController(parent: parent)
        #expect(child.audit(SettingsScreen()).isSatisfied)
    }

    @Test func aConsumerHoldingAnotherMetaControllerDoesNotHoldThisOne() {
        let metaController = MetaController.withFakes()
        let child = MetaController(parent: metaController)
        let stranger = MetaController.withFakes()
        let screenOfTheChild = Screen()
        let screenOfAStranger = Screen()
        let screenOfThisOne = Screen()
        child.passMetaController(to: screenOfTheChild)
        stranger.passMetaController(to: screenOfAStranger)
        metaController.passMetaController(to: screenOfThisOne)
        let audit = metaController.audit(Stack([screenOfTheChild, screenOfAStranger, screenOfThisOne]))
        #expect(audit.consumers.map(\.holdsThisMetaController) == [false, false, true])
        #expect(
            audit.description == """
                Screen: ok (does not hold this MetaController)
                Screen: ok (does not hold this MetaController)
                Screen: ok
                """)
        #expect(child.audit(screenOfTheChild).consumers.map(\.holdsThisMetaController) == [true])
    }

    @Test func auditChangesNothing() {
        let metaController = MetaController()
        let screen = SettingsScreen()
        _ = metaController.audit(screen)
        #expect(screen.metaController == nil)
    }

    @Test func emptyAuditOfNilOrNonConsumers() {
        let metaController = MetaController()
        #expect(metaController.audit(nil).consumers.isEmpty)
        #expect(metaController.audit(PlainObject()).isSatisfied)
        #expect(metaController.audit(nil).description == "no consumers")
    }
}
