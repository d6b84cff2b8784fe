// libFuzzer target: GPX files. Any input must parse or throw LocationError, never crash.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? GPXRoute(data: Data(bytes: start, count: count))
    return 0
}
