import Foundation
@testable import MetaController
import Testing

/// The depth measures that run before Foundation's recursive parsers.
@Suite struct NestingDepthTests {
    @Test(arguments: [
        ("<plist><dict><key>a</key><array><dict/><array/></array></dict></plist>", 2),
        ("<plist><!-- <dict><dict><dict> --><array></array></plist>", 1),
        ("<plist><array><string><![CDATA[<array><array><array>]]></string></array></plist>", 1),
        ("<?xml version=\"1.0\"?><!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"x\"><plist><array ></array></plist>", 1),
        ("<plist><dictionary><arrays><dict\n><array\t/></dict></plist>", 1),
        ("<plist><array><array><array", 2),
        ("<", 0),
    ])
    func xmlPropertyListsCountContainerTags(xml: String, depth: Int) {
        #expect(!NestingDepth.xmlPropertyList(Data(xml.utf8), exceeds: depth))
        #expect(depth == 0 || NestingDepth.xmlPropertyList(Data(xml.utf8), exceeds: depth - 1))
    }

    @Test func binaryPropertyListsFromTheEncoderAreMeasured() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let value: [String: [[Int]]] = ["a": [[1, 2], [3]], "b": []]
        let data = try encoder.encode(value)
        #expect(!NestingDepth.binaryPropertyList(data, exceeds: 3))
        #expect(NestingDepth.binaryPropertyList(data, exceeds: 2))
        #expect(!NestingDepth.binaryPropertyList(try encoder.encode([Int]()), exceeds: 1))
    }

    /// A `bplist00` of `objects`, each a list of references (`nil` for an integer), with 1-byte references.
    private func binaryPropertyList(_ objects: [[UInt8]?], top: UInt64 = 0) -> Data {
        var bytes = Array("bplist00".utf8), offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            if let references = object {
                bytes.append(0xA0 | UInt8(references.count))
                bytes += references
            } else {
                bytes += [0x10, 7]
            }
        }
        let table = bytes.count
        bytes += offsets + [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [UInt64(objects.count), top, UInt64(table)] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        return Data(bytes)
    }

    @Test func sharedObjectsAreMeasuredOnceAndCyclesRefused() {
        // 14 levels, each array holding the next one twice: 2^14 paths, 15 objects.
        var diamond: [[UInt8]?] = (0..<14).map { [UInt8($0 + 1), UInt8($0 + 1)] }
        diamond.append(nil)
        #expect(!NestingDepth.binaryPropertyList(binaryPropertyList(diamond), exceeds: 14))
        #expect(NestingDepth.binaryPropertyList(binaryPropertyList(diamond), exceeds: 13))
        #expect(NestingDepth.binaryPropertyList(binaryPropertyList([[1], [0]]), exceeds: 64))
        #expect(NestingDepth.binaryPropertyList(binaryPropertyList([[0]]), exceeds: 64))
    }

    @Test func binaryPropertyListsThatCannotBeFollowedAreRefused() {
        #expect(NestingDepth.binaryPropertyList(binaryPropertyList([[5]]), exceeds: 64))             // reference out of range
        #expect(NestingDepth.binaryPropertyList(binaryPropertyList([nil], top: 1), exceeds: 64))     // top object out of range
        #expect(NestingDepth.binaryPropertyList(Data("bplist00".utf8), exceeds: 64))
        var truncated = binaryPropertyList([[1], nil])
        truncated.removeFirst(9)
        #expect(NestingDepth.binaryPropertyList(Data("bplist00".utf8) + truncated, exceeds: 64))
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<5_000 {
            var bytes = [UInt8](binaryPropertyList([[1, 2], [2], nil]))
            for _ in 0..<3 { bytes[Int.random(in: 8..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = NestingDepth.binaryPropertyList(Data(bytes), exceeds: 64)   // must not trap
        }
    }

    @Test func objectsCountDictionariesAndArraysOfEitherKind() {
        let value: [String: Any] = ["a": [["b": 1] as [String: Any]] as [Any], "c": NSArray(array: [NSDictionary()])]
        #expect(!NestingDepth.object(value, exceeds: 3))
        #expect(NestingDepth.object(value, exceeds: 2))
        #expect(!NestingDepth.object("text", exceeds: 0))
    }

    /// Built and measured on a thread of its own, so as not to hold up the test runner's threads.
    @Test func tenMegabytesOfShallowInputPass() async {
        let results = await onSmallStack { () -> [Bool] in
            let xml = Data(("<plist><array>" + String(repeating: "<array/><dict></dict>", count: 500_000) + "</array></plist>").utf8)
            return [xml.count > 10_000_000, !NestingDepth.xmlPropertyList(xml, exceeds: 2)]
        }
        #expect(results == [true, true])
    }
}
