import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Synchronization
import Syringe
import SyringeTesting
import Testing
import TodoKit

/// The API through the router, one container per test: these run in parallel, each with its own
/// in-memory repository (every test's first todo is number 1).
@Suite(.isolatedResolver) struct RouterTests {
    @Test func createsListsGetsAndCompletesAUsersTodos() async throws {
        installInMemoryServices()
        let app = try await buildApplication(services: .current)
        try await app.test(.router) { client in
            let created = try await client.send(.post, "/todos", user: "alice", body: #"{"title": "Buy milk"}"#)
            #expect(created.status == .created)
            #expect(try created.decoded() == Todo(id: 1, owner: "alice", title: "Buy milk"))

            _ = try await client.send(.post, "/todos", user: "alice", body: #"{"title": "Walk"}"#)
            let list = try await client.send(.get, "/todos", user: "alice")
            #expect(try list.decoded(as: [Todo].self).map(\.title) == ["Buy milk", "Walk"])

            let done = try await client.send(.post, "/todos/1/complete", user: "alice")
            #expect(try done.decoded(as: Todo.self).completed)
            let fetched = try await client.send(.get, "/todos/1", user: "alice")
            #expect(try fetched.decoded() == Todo(id: 1, owner: "alice", title: "Buy milk", completed: true))
        }
    }

    @Test func aUserSeesOnlyTheirOwnTodos() async throws {
        installInMemoryServices()
        let app = try await buildApplication(services: .current)
        try await app.test(.router) { client in
            _ = try await client.send(.post, "/todos", user: "alice", body: #"{"title": "Secret"}"#)
            #expect(try await client.send(.get, "/todos/1", user: "bob").status == .notFound)
            #expect(try await client.send(.post, "/todos/1/complete", user: "bob").status == .notFound)
            #expect(try await client.send(.get, "/todos", user: "bob").decoded(as: [Todo].self).isEmpty)
        }
    }

    @Test func aRequestWithoutAUserIsRefused() async throws {
        installInMemoryServices()
        let app = try await buildApplication(services: .current)
        try await app.test(.router) { client in
            let refused = try await client.send(.get, "/todos", user: nil)
            #expect(refused.status == .unauthorized)
            #expect(try await client.send(.get, "/health", user: nil).status == .ok)
        }
    }

    @Test func theResponseCarriesTheRequestsID() async throws {
        installInMemoryServices()
        let app = try await buildApplication(services: .current)
        try await app.test(.router) { client in
            let given = try await client.send(.get, "/todos", user: "alice", requestID: "req-42")
            #expect(given.headers[.requestID] == "req-42")
            let made = try await client.send(.get, "/todos", user: "alice")
            #expect(made.headers[.requestID].map { UUID(uuidString: $0) != nil } == true)
        }
    }

    @Test func theRealDatabaseKeepsTodos() async throws {
        Resolver.install(TodoServices(databasePath: nil))  // SQLite, in memory
        let app = try await buildApplication(services: .current)
        try await app.test(.router) { client in
            let created = try await client.send(.post, "/todos", user: "carol", body: #"{"title": "Plant"}"#)
            let todo: Todo = try created.decoded()
            #expect(todo.owner == "carol" && todo.title == "Plant" && !todo.completed)
            #expect(try await client.send(.post, "/todos/\(todo.id)/complete", user: "carol").status == .ok)
            #expect(
                try await client.send(.get, "/todos", user: "carol").decoded(as: [Todo].self).map(\.completed) == [true]
            )
            #expect(try await client.send(.get, "/todos/\(todo.id)", user: "dave").status == .notFound)
        }
    }

    @Test func theDatabaseIsOpenedOnceBeforeTheFirstRequest() async throws {
        let opened = Counter()
        Resolver.install(TodoServices(databasePath: nil))
        Resolver.register(lifetime: .singleton) { () async throws -> TodoDatabase in
            opened.increment()
            return try await TodoDatabase.open(path: nil)
        }
        let app = try await buildApplication(services: .current)
        #expect(opened.value == 1)
        try await app.test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<20 {
                    group.addTask {
                        _ = try await client.send(.post, "/todos", user: "u\(n)", body: #"{"title": "t"}"#)
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(opened.value == 1)
    }

    @Test func theAppsContainerVerifiesWithTheRequestScopeProvided() async throws {
        Resolver.install(TodoServices(databasePath: nil))
        let report = await Resolver.current.verifyAsync(providing: { scope in
            scope.register { RequestIdentifier("verify") }
            scope.register { CurrentUser(name: "verify") }
            scope.register { Logger(label: "verify") }
        })
        #expect(report.isValid, "\(report)")
    }
}

/// A thread-safe count, for factories run from many tasks.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
