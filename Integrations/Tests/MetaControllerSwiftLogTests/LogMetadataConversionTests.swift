import Foundation
import Logging
import MetaController
import MetaControllerSwiftLog
import Testing

struct LogMetadataConversionTests {
    /// 100,000 swift-log keys convert in linear time, sorted by key, non-strings described.
    @Test func oneHundredThousandKeysConvertSortedByKey() {
        var metadata = Logger.Metadata()
        for index in 0..<100_000 { metadata[String(format: "k%06d", index)] = .string("v\(index)") }
        metadata["k000001"] = .stringConvertible(42)
        let converted = LogMetadata(metadata)
        #expect(converted.pairs.count == 100_000)
        #expect(converted.pairs.first! == (key: "k000000", value: "v0"))
        #expect(converted["k000001"] == "42")
        #expect(converted.pairs.last! == (key: "k099999", value: "v99999"))
    }
}
