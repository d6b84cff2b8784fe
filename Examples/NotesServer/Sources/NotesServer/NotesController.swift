import Foundation
public import MetaController

/// A note as the service stores and serves it.
public struct Note: Codable, Equatable, Sendable {
    /// The note's text.
    public var text: String

    /// Creates a note.
    /// - Parameter text: The note's text.
    public init(text: String) { self.text = text }
}

// docs:begin notes-controller
/// The app's own controller: the notes of each user, kept in the data controller.
public protocol NotesController: AnyObject, Sendable {
    /// The notes of `user`, oldest first.
    func notes(of user: String) async throws -> [Note]
    /// Adds a note to the notes of `user`.
    func add(_ note: Note, for user: String) async throws
}

/// The custom slot that holds the notes controller.
public enum NotesControllerKey: MetaControllerKey {
    public typealias Value = any NotesController
}

/// The notes controller of the whole app, set once on the app-wide MetaController.
public final class StoredNotesController: NotesController, MetaControllerConsumer {
    private let reference = WeakMetaControllerReference()
    /// The app-wide MetaController, handed over when the controller is put in its slot.
    public var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }

    /// Creates the controller; it stores through its MetaController's data controller.
    public init() {}

    public func notes(of user: String) async throws -> [Note] {
        guard let store = dataController else { return [] }
        let prefix = "note.\(user)."
        // `await`: the store reads on its own queues, not on the cooperative pool.
        var notes: [Note] = []
        for key in try await store.keys() where key.hasPrefix(prefix) {
            if let note = try await store.fetch(Note.self, forKey: key) { notes.append(note) }
        }
        infoLog("listed \(notes.count) notes")   // carries the request's metadata: see the middleware
        return notes
    }

    public func add(_ note: Note, for user: String) async throws {
        // One entry a note, so concurrent adds never overwrite each other; the keys sort by time.
        let nanoseconds = UInt64(Date().timeIntervalSince1970 * 1e9)
        let key = "note.\(user).\(String(nanoseconds).leftPadding(to: 20)).\(UUID().uuidString)"
        try await dataController?.save(note, forKey: key)   // the fsyncs run off the cooperative pool
        infoLog("saved a note")
    }
}
// docs:end notes-controller

extension String {
    fileprivate func leftPadding(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
