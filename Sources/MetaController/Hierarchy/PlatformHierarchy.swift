/// Children of platform objects that do not adopt ``MetaControllerContainer``.
///
/// On platforms without a UI framework there are none; the UIKit variant is in
/// `PlatformHierarchy+UIKit.swift`.
enum PlatformHierarchy {
    #if !canImport(UIKit)
    static func children(of object: AnyObject) -> [AnyObject] { [] }
    #endif
}
