import Foundation
import MetaController
import MetaControllerTesting
import Testing
import MetaControllerTestSupport

@Suite struct MemoryDataControllerTests {
    @Test func savesFetchesListsAndDestroys() throws {
        let store = MemoryDataController()
        try store.save(["a": 1], forKey: "dict")
        #expect(try store.fetch([String: Int].self, forKey: "dict") == ["a": 1])
        #expect(try store.keys() == ["dict"])
        #expect(try store.destroy("dict"))
        #expect(try store.fetchData(forKey: "dict") == nil)
    }

    @Test func dispatchesChangesOnTheMetaControllersBus() throws {
        let metaController = MetaController()
        let store = MemoryDataController()
        metaController.dataController = store
        let changes = metaController.signals.record(DataChange.signal)
        try store.save(Data(), forKey: "k")
        try store.destroy("k")
        #expect(changes.values.map(\.kind) == [.saved, .destroyed])
    }

    @Test func aValueThatDoesNotEncodeIsAnEncodingError() {
        #expect {
            try MemoryDataController().save([Double.nan], forKey: "numbers")
        } throws: { error in
            (error as? DataStoreError)?.code == .encoding && (error as? DataStoreError)?.keyPath == "[0]"
        }
    }
}

extension MemoryDataControllerTests {
    @Test func theAsyncVariantsFallBackOnTheSynchronousOnes() async throws {
        let store = MemoryDataController()
        try await store.save(["a": 1], forKey: "dict")
        #expect(try await store.fetch([String: Int].self, forKey: "dict") == ["a": 1])
        func fetchSynchronously() throws(DataStoreError) -> [String: Int]? { try store.fetch([String: Int].self, forKey: "dict") }
        #expect(try fetchSynchronously() == ["a": 1])
        #expect(try await store.keys() == ["dict"])
        #expect(try await store.destroy("dict"))
        #expect(try await store.fetchData(forKey: "dict") == nil)
    }
}

@Suite struct FakeDataControllerTests {
    @Test func recordsOperationsAndStores() throws {
        let fake = FakeDataController()
        try fake.save("hello", forKey: "greeting")
        #expect(try fake.fetch(String.self, forKey: "greeting") == "hello")
        _ = try fake.keys()
        try fake.destroy("greeting")
        #expect(fake.operations == [.save("greeting"), .fetch("greeting"), .keys, .destroy("greeting")])
    }

    @Test func failsSavesOfAKeyWhenTold() throws {
        let fake = FakeDataController()
        fake.failSaves(forKey: "draft")
        #expect {
            try fake.save("x", forKey: "draft")
        } throws: { error in
            (error as? DataStoreError)?.code == .unwritable && (error as? DataStoreError)?.key == "draft"
        }
        #expect(try fake.fetchData(forKey: "draft") == nil)
        try fake.save("y", forKey: "other")
    }

    @Test func recordsTheAsyncCallsTooAndTellsThemApart() async throws {
        let fake = FakeDataController()
        func saveSynchronously() throws(DataStoreError) { try fake.save("sync", forKey: "a") }
        try saveSynchronously()
        try await fake.save("async", forKey: "b")
        #expect(try await fake.fetch(String.self, forKey: "b") == "async")
        _ = try await fake.keys()
        try await fake.destroy("b")
        #expect(fake.operations == [.save("a"), .save("b"), .fetch("b"), .keys, .destroy("b")])
        #expect(fake.asyncOperations == [.save("b"), .fetch("b"), .keys, .destroy("b")])
        fake.failSaves(forKey: "draft")
        await #expect(throws: DataStoreError.simulatedFailure(forKey: "draft")) {
            try await fake.save("x", forKey: "draft")
        }
    }

    @Test func dispatchesChangesThroughItsMetaController() throws {
        let metaController = MetaController.withFakes()
        let changes = metaController.signals.record(DataChange.signal)
        try metaController.fakeDataController?.save("x", forKey: "k")
        #expect(changes.values == [DataChange(key: "k", kind: .saved)])
    }
}
