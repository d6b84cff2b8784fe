import MetaControllerSupport
import Foundation

extension DataStoreError {
    /// `value` encoded as JSON for the entry `key`, after checking the key.
    ///
    /// - Throws: ``DataStoreError/Code/invalidKey``, or ``DataStoreError/Code/encoding`` naming the key path.
    static func encode(_ value: some Encodable, forKey key: String, encoder: JSONEncoder) throws(DataStoreError) -> Data {
        _ = try validate(key)   // a bad key is refused before encoding
        do {
            return try encoder.encode(value)
        } catch {
            let path = (error as? EncodingError).map { error -> String in
                guard case .invalidValue(_, let context) = error else { return "" }
                return DecodingError.render(context.codingPath)
            }
            throw DataStoreError(
                .encoding, key: key, "the value for \"\(key)\" does not encode as JSON: \(error)", keyPath: path)
        }
    }

    /// The entry `key`'s bytes decoded from JSON as `type`.
    ///
    /// - Throws: ``DataStoreError/Code/corrupt`` naming the key and the key path.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, forKey key: String, decoder: JSONDecoder
    ) throws(DataStoreError) -> Value {
        do {
            return try decoder.decode(type, from: data)
        } catch {
            let decoding = error as? DecodingError
            let path = decoding?.keyPath ?? ""
            let place = path.isEmpty ? "" : " at \(path)"
            throw DataStoreError(
                .corrupt, key: key,
                "the entry \"\(key)\" does not decode as \(type)\(place): \(decoding?.reason ?? "\(error)")", keyPath: path)
        }
    }
}
