import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Syringe
import TodoKit

/// The app's services in the test's container, the repository swapped for one in memory.
func installInMemoryServices() {
    Resolver.install(TodoServices(databasePath: nil))
    Resolver.register(lifetime: .singleton) { InMemoryTodoRepository() as any TodoRepository }
}

extension TestClientProtocol {
    /// Sends `method path` for `user`, with `body` as JSON, and returns the response.
    func send(
        _ method: HTTPRequest.Method, _ path: String, user: String?, requestID: String? = nil, body: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let user { headers[.user] = user }
        if let requestID { headers[.requestID] = requestID }
        return try await executeRequest(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    func decoded<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }
}
