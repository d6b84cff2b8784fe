import MetaControllerCore
import MetaControllerTesting
import ProfileInterface
import ProfileLive
import ProfileTesting
import Testing

@Suite struct ProfileTests {
    @Test func theLiveControllerKeepsTheAddressInTheDataController() throws {
        let metaController = MetaController.withFakes()
        metaController.install(ProfileAssembly())
        let profile = try #require(metaController.profileController as? LiveProfileController)
        #expect(profile.metaController === metaController)   // handed over when the assembly set the slot

        #expect(try profile.shippingAddress() == nil)
        try profile.setShippingAddress(.sample)
        #expect(try profile.shippingAddress() == .sample)
        let key = "profile.shippingAddress"
        #expect(metaController.fakeDataController?.operations == [.fetch(key), .save(key), .fetch(key)])
    }

    @Test func theLiveControllerAnswersNilWithoutADataController() throws {
        let metaController = MetaController()
        metaController.install(ProfileAssembly())
        try metaController.profileController?.setShippingAddress(.sample)
        #expect(try metaController.profileController?.shippingAddress() == nil)
    }

    @Test func theFakeAnswersItsAddressAndRecordsEveryCall() throws {
        let metaController = MetaController.withProfileFakes(FakeProfileController(address: nil))
        let profile = try #require(metaController.profileController)
        #expect(try profile.shippingAddress() == nil)
        let moved = ShippingAddress(name: "Ada Lovelace", street: "Ockham Park", city: "Surrey")
        try profile.setShippingAddress(moved)
        #expect(try profile.shippingAddress() == moved)
        #expect(metaController.fakeProfileController?.calls == [.shippingAddress, .setShippingAddress(moved), .shippingAddress])
        #expect(metaController.fakeLogController != nil)   // the built-in slots hold fakes too
    }
}
