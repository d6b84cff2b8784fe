public import Foundation

extension ApiController {
    /// Sends `request` and decodes the response's body as JSON.
    ///
    /// Adds `Accept: application/json` unless the request sets `Accept`.
    ///
    /// ```swift
    /// let items = try await apiController.send(ApiRequest(.get, "/feed"), decoding: [FeedItem].self)
    /// ```
    ///
    /// - Throws: What ``send(_:)`` throws, or ``ApiError/Code/decoding`` naming the key path that failed.
    public func send<Value: Decodable>(
        _ request: ApiRequest, decoding type: Value.Type, decoder: JSONDecoder = JSONDecoder()
    ) async throws(ApiError) -> Value {
        var request = request
        if request.header("Accept") == nil { request.headers["Accept"] = "application/json" }
        return try await send(request).decode(type, decoder: decoder)
    }

    /// Sends a `GET` for `path` and decodes the response's body as JSON.
    ///
    /// ```swift
    /// let user = try await apiController.get("/users/7", decoding: User.self)
    /// ```
    ///
    /// - Throws: What ``send(_:decoding:decoder:)`` throws.
    public func get<Value: Decodable>(
        _ path: String, query: [URLQueryItem] = [], decoding type: Value.Type, decoder: JSONDecoder = JSONDecoder()
    ) async throws(ApiError) -> Value {
        try await send(ApiRequest(.get, path, query: query), decoding: type, decoder: decoder)
    }

    /// Sends `body` as JSON with `method` (a `POST` by default) and decodes the answer as JSON.
    ///
    /// ```swift
    /// let saved = try await apiController.send(.post, "/items", json: NewItem(title: "Hi"), decoding: Item.self)
    /// ```
    ///
    /// - Throws: ``ApiError/Code/encoding`` when `body` does not encode, or what
    ///   ``send(_:decoding:decoder:)`` throws.
    public func send<Body: Encodable, Value: Decodable>(
        _ method: HTTPMethod = .post, _ path: String, json body: Body, decoding type: Value.Type,
        encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder = JSONDecoder()
    ) async throws(ApiError) -> Value {
        let request = try ApiRequest(method, path, json: body, encoder: encoder)
        return try await send(request, decoding: type, decoder: decoder)
    }
}
