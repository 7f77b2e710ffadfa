import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Syringe
import SyringeTesting
import Testing
import TodoKit

/// What a request's container holds stays in that request: concurrent requests never see each
/// other's values, and nothing a request registers or builds outlives its response.
@Suite(.isolatedResolver) struct RequestScopeTests {
    /// Many requests at once on a real port, each with its own user and id: every response carries
    /// its own request's values, resolved from its container.
    @Test func concurrentRequestsNeverSeeEachOthersValues() async throws {
        installInMemoryServices()
        let app = try await buildApplication(services: .current)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        try await TestClient.withClient(host: "127.0.0.1", port: port) { connection in
                            var mismatches = 0
                            for n in 0..<25 {
                                let user = "user-\(worker)-\(n % 3)"
                                let requestID = "w\(worker)-r\(n)"
                                let response = try await connection.post(
                                    "/todos", headers: [.user: user, .requestID: requestID],
                                    body: ByteBuffer(string: #"{"title": "\#(requestID)"}"#))
                                let todo = try JSONDecoder().decode(
                                    Todo.self, from: Data(buffer: response.body ?? .init()))
                                if response.headers[.requestID] != requestID || todo.owner != user
                                    || todo.title != requestID
                                {
                                    mismatches += 1
                                }
                            }
                            return mismatches
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(mismatches == 0)
        }
    }

    /// A route that registers a value of its own in the request's container, waits while other
    /// requests do the same, then reads it back.
    @Test func aRegistrationInOneRequestIsNotSeenByAnother() async throws {
        let services = Resolver.current
        let router = Router()
        router.add(middleware: RequestScopeMiddleware(services: services))
        router.get("note") { _, _ in
            let requestID: RequestIdentifier = Resolver.resolve()
            Resolver.register(name: "note") { "note of \(requestID)" }
            try await Task.sleep(for: .milliseconds(5))
            let note: String = Resolver.resolve(name: "note")
            return note == "note of \(requestID)" ? "ok" : "saw \(note)"
        }
        try await Application(router: router).test(.router) { client in
            let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                for n in 0..<50 {
                    group.addTask {
                        String(buffer: try await client.send(.get, "/note", user: "u", requestID: "r\(n)").body)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bodies == Array(repeating: "ok", count: 50))
        }
        #expect(services.optional(String.self, name: "note") == nil)
    }

    /// Everything a request's container holds is released once its response is sent.
    @Test func aRequestsContainerIsReleasedWithItsResponse() async throws {
        let alive = Mutex(0)
        final class Scratch: Sendable {
            let alive: @Sendable (Int) -> Void
            init(alive: @escaping @Sendable (Int) -> Void) {
                self.alive = alive
                alive(1)
            }
            deinit { alive(-1) }
        }
        let count: @Sendable (Int) -> Void = { delta in alive.withLock { $0 += delta } }
        let router = Router()
        router.add(middleware: RequestScopeMiddleware(services: Resolver.current))
        router.get("scratch") { _, _ in
            Resolver.register(lifetime: .singleton) { Scratch(alive: count) }
            let scratch: Scratch = Resolver.resolve()
            _ = scratch
            return HTTPResponse.Status.ok
        }
        try await Application(router: router).test(.router) { client in
            for n in 0..<20 {
                let response = try await client.send(.get, "/scratch", user: "u", requestID: "r\(n)")
                #expect(response.status == .ok)
            }
        }
        #expect(alive.withLock { $0 } == 0)
    }
}
