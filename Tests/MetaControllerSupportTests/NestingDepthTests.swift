import Foundation
import MetaController
@testable import MetaControllerSupport
import Testing
import MetaControllerTestSupport
import MetaControllerSupport

/// The depth measure of decoded objects (a `userInfo` dictionary) before they reach a recursive serializer.
@Suite struct NestingDepthTests {
    @Test func objectsCountDictionariesAndArraysOfEitherKind() {
        let value: [String: Any] = ["a": [["b": 1] as [String: Any]] as [Any], "c": NSArray(array: [NSDictionary()])]
        #expect(!NestingDepth.object(value, exceeds: 3))
        #expect(NestingDepth.object(value, exceeds: 2))
        #expect(!NestingDepth.object("text", exceeds: 0))
    }
}
