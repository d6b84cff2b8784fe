// libFuzzer target: configuration files, JSON or property lists.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? AppConfiguration(data: Data(bytes: start, count: count))
    return 0
}
