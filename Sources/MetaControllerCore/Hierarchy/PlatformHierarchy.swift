/// Children of platform objects that do not adopt ``MetaControllerContainer``.
///
/// Where UIKit has view controllers (iOS, iPadOS, Mac Catalyst, tvOS,
/// visionOS) they are in `PlatformHierarchy+UIKit.swift`; elsewhere (macOS
/// with AppKit, watchOS, Linux) there are none.
enum PlatformHierarchy {
    #if !canImport(UIKit) || os(watchOS)
    static func children(of object: AnyObject) -> [AnyObject] { [] }
    #endif
}
