import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

struct MetaControllerAssemblyTests {
    struct ProfileAssembly: MetaControllerAssembly {
        func assemble(into metaController: MetaController) {
            metaController.userController = TestUserController(userName: "grace")
            metaController.register(ProfileScreen.self) { _ in ProfileScreen() }
        }
    }

    /// Keeps the factory of `Item` private: the app can make a `DetailScreen`, never an `Item`.
    struct CatalogAssembly: MetaControllerAssembly {
        func assemble(into metaController: MetaController) {
            let privateFactories = MetaController()
            privateFactories.register(Item.self, argument: MetaController.self) { _, _ in Item(id: 99) }
            metaController.register(DetailScreen.self) { metaController in
                DetailScreen(item: try privateFactories.make(Item.self, argument: metaController))
            }
        }
    }

    @Test func installSetsControllersAndRegistersFactoriesInOneCall() throws {
        let metaController = MetaController.withFakes()
        metaController.install(ProfileAssembly(), CatalogAssembly())
        #expect(metaController.userController?.userName == "grace")
        let profile = try metaController.make(ProfileScreen.self)
        #expect(profile.metaController === metaController)
        #expect(metaController.audit(profile).isSatisfied)
        #expect(try metaController.make(DetailScreen.self).item == Item(id: 99))
    }

    @Test func privateRegistrationsStayPrivate() {
        let metaController = MetaController()
        metaController.install(CatalogAssembly())
        #expect(throws: MetaControllerError.self) {
            try metaController.make(Item.self, argument: metaController)
        }
        #expect(throws: MetaControllerError.self) { try metaController.make(Item.self) }
    }

    @Test func laterAssembliesWin() throws {
        struct Variant: MetaControllerAssembly {
            let name: String
            func assemble(into metaController: MetaController) {
                metaController.register(DetailScreen.self) { _ in DetailScreen(variant: name) }
            }
        }
        let metaController = MetaController()
        metaController.install(Variant(name: "first"), Variant(name: "second"))
        #expect(try metaController.make(DetailScreen.self).variant == "second")
    }
}
