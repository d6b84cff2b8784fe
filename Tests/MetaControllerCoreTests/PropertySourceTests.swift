import MetaController
@testable import MetaControllerCore
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

extension MetaController {
    /// A property every MetaController has, for a key path that needs no optional chaining.
    fileprivate var alwaysThere: Property<Int> { Self.alwaysThereProperty }
    fileprivate static let alwaysThereProperty = Property(5)
}

/// Where a SwiftUI wrapper finds its property: a key path into the MetaController, or the property itself.
@Suite struct PropertySourceTests {
    @Test func anOptionalKeyPathFindsThePropertyInTheMetaController() throws {
        let metaController = MetaController.withFakes()
        let source = PropertySource(\.locationController?.currentLocation, default: nil)
        let location = try #require(metaController.fakeLocationController?.currentLocation)
        #expect(source.resolve(in: metaController) === location)
        #expect(source.defaultValue == nil)
    }

    @Test func anOptionalKeyPathFindsNothingWithoutAMetaControllerOrWithAnEmptySlot() {
        let source = PropertySource(\.locationController?.currentLocation, default: nil)
        #expect(source.resolve(in: nil) == nil)
        #expect(source.resolve(in: MetaController()) == nil)
    }

    @Test func aKeyPathToAPropertyFindsItInAnyMetaController() {
        let source = PropertySource(\.alwaysThere, default: 0)
        #expect(source.resolve(in: MetaController()) === MetaController.alwaysThereProperty)
        #expect(source.resolve(in: nil) == nil)
        #expect(source.defaultValue == 0)
    }

    @Test func aPropertyGivenOutrightIsFoundWithOrWithoutAMetaController() {
        let property = Property("first")
        let source = PropertySource(property)
        property.value = "second"
        #expect(source.resolve(in: nil) === property)
        #expect(source.resolve(in: MetaController.withFakes()) === property)
        #expect(source.defaultValue == "first")
    }
}
