// What the fragments of Docs/Configuration.md take from the app around them.
import Foundation
import MetaController

let cachesURL = FileManager.default.temporaryDirectory
let configuration = try! AppConfiguration(data: Data("{}".utf8))
