// libFuzzer target: the mock server's HTTP request parser. The bytes are fed
// whole and in two pieces; when neither refuses them, both must give the same requests.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let limits = HTTPRequestParser.Limits(maximumHeaderBytes: 4096, maximumBodyBytes: 4096)
    var whole = HTTPRequestParser(limits: limits)
    whole.append(bytes)
    guard let requests = drain(&whole) else { return 0 }
    var pieces = HTTPRequestParser(limits: limits)
    let middle = bytes.count / 2
    pieces.append(bytes[..<middle])
    guard let first = drain(&pieces) else { return 0 }
    pieces.append(bytes[middle...])
    guard let second = drain(&pieces) else { return 0 }
    precondition(first + second == requests, "split input parsed differently")
    return 0
}

/// Every whole request, or `nil` when the parser refuses the input.
private func drain(_ parser: inout HTTPRequestParser) -> [HTTPRequestParser.Request]? {
    var requests: [HTTPRequestParser.Request] = []
    do {
        while let request = try parser.next() { requests.append(request) }
    } catch {
        return nil
    }
    return requests
}
