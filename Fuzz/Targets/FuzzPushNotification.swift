// libFuzzer target: APNs payloads, regular and VoIP limits.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = try? PushNotification(payload: data)
    _ = try? PushNotification(payload: data, kind: .voip)
    return 0
}
