@testable import MetaController
import Testing

struct TypeKeyTests {
    /// 400 distinct types: `Int`, `[Int]`, `[[Int]]`, ... 200 deep, and an optional of each.
    private static let types: [Any.Type] = {
        var types: [Any.Type] = []
        func nest<T>(_: T.Type, _ left: Int) {
            types.append(T.self)
            types.append(T?.self)
            if left > 0 { nest([T].self, left - 1) }
        }
        nest(Int.self, 199)
        return types
    }()

    @Test func keysAreEqualExactlyWhenTheirTypesAre() {
        let keys = Self.types.map(TypeKey.init)
        #expect(Set(keys).count == Self.types.count)
        for (index, type) in Self.types.enumerated() {
            #expect(TypeKey(type) == keys[index])
            #expect(TypeKey(ObjectIdentifier(type)) == keys[index])
            #expect(TypeKey(type)._rawHashValue(seed: index) == keys[index]._rawHashValue(seed: index))
        }
        #expect(TypeKey([Int].self) != TypeKey([Int?].self))
    }

    @Test func aDictionaryFindsEveryTypeAsItGrowsAndShrinks() {
        var numbers: [TypeKey: Int] = [:]
        for (index, type) in Self.types.enumerated() {
            numbers[TypeKey(type)] = index
            #expect(numbers.count == index + 1)
        }
        for (index, type) in Self.types.enumerated() { #expect(numbers[TypeKey(type)] == index) }
        for (index, type) in Self.types.enumerated() where index.isMultiple(of: 2) {
            numbers[TypeKey(type)] = nil
        }
        for (index, type) in Self.types.enumerated() {
            #expect(numbers[TypeKey(type)] == (index.isMultiple(of: 2) ? nil : index))
        }
    }

    /// Metadata addresses share their low bits (alignment) and often their high ones (one
    /// image); a hash that kept either would put most of these types in a few buckets.
    @Test func theTypesSpreadOverTheBucketsOfATable() {
        for seed in [0, 1, -1, 0x5DEE_CE66, Int.max] {
            let buckets = Set(Self.types.map { TypeKey($0)._rawHashValue(seed: seed) & 511 })
            // 400 keys thrown at random into 512 buckets fill about 277 of them.
            #expect(buckets.count > 230, "seed \(seed): \(buckets.count) buckets of 512")
        }
    }
}
