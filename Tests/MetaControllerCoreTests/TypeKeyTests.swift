import MetaController
@testable import MetaControllerCore
import Testing
import MetaControllerTestSupport

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

    /// Metadata made at run time lies at a regular stride that depends on what
    /// else was allocated, so the spread must hold for every stride, not only
    /// for where this process put the 400 types above. A seeded sweep of
    /// strides, bases and seeds, over synthetic addresses.
    @Test func addressesAtAnyRegularStrideSpreadOverTheBuckets() {
        var random = SeededGenerator(seed: 27)
        for _ in 0..<300 {
            let base = UInt.random(in: 1...(1 << 40), using: &random) << 4
            let stride = UInt.random(in: 1...512, using: &random) << 4
            let seed = Int.random(in: .min ... .max, using: &random)
            let buckets = Set(
                (0..<400 as Range<UInt>).map { index in
                    let key = TypeKey(unsafeBitCast(base &+ index &* stride, to: ObjectIdentifier.self))
                    return key._rawHashValue(seed: seed) & 511
                })
            #expect(buckets.count > 230, "stride \(stride), seed \(seed): \(buckets.count) buckets of 512")
        }
    }
}
