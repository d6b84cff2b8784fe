import Foundation
import MetaController

/// A push the demo "receives", as APNs would deliver it.
enum SamplePush {
    static let newItem = Data(
        """
        {"aps": {"alert": {"title": "New in your feed", "body": "Property wrappers, explained"},
                 "badge": 4, "sound": "default", "category": "NEW_ITEM", "thread-id": "feed"},
         "itemID": 4}
        """.utf8)

    /// A payload a buggy server might send: the badge is text.
    static let broken = Data(#"{"aps": {"badge": "four"}}"#.utf8)
}
