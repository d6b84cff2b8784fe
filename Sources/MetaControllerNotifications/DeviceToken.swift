public import Foundation

extension Data {
    /// The bytes as lower-case hexadecimal, two digits each: how APNs device tokens are sent to servers.
    ///
    /// ```swift
    /// Data([0x0a, 0xff]).hexString   // "0aff"
    /// ```
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
