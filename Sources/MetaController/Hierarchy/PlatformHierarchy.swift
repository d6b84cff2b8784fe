/// Children of platform objects that do not adopt ``MetaControllerContainer``.
///
/// On platforms without a UI framework there are none; the UIKit variant is in
/// `PlatformHierarchy+UIKit.swift`.
enum PlatformHierarchy {
    #if !canImport(UIKit)
    static func children(of object: AnyObject) -> [AnyObject] { [] }
    #endif

    /// The children a walk visits after `object`.
    static func childrenToVisit(of object: AnyObject) -> [AnyObject] {
        if let container = object as? any MetaControllerContainer {
            return container.metaControllerChildren
        }
        return children(of: object)
    }
}
