import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Syringe

/// The app's registrations: the database (an async singleton), the repository over it, and the
/// use cases. A module, so that the closures are not bound to the main actor when `main.swift`
/// (main-actor code) installs it: requests run off the main actor.
public struct TodoServices: ResolverModule {
    /// The SQLite file; nil keeps the database in memory.
    public var databasePath: String?

    public init(databasePath: String?) {
        self.databasePath = databasePath
    }

    public func register(in resolver: Resolver) {
        let path = databasePath
        resolver.register(lifetime: .singleton) { () async throws -> TodoDatabase in
            try await TodoDatabase.open(path: path)
        }
        resolver.register(lifetime: .singleton) { (r: Resolver) async throws -> any TodoRepository in
            SQLiteTodoRepository(database: try await r.tryResolveAsync())
        }
        resolver.register { EditTodos() }
        resolver.register { FindTodos() }
    }
}

/// The body of `POST /todos`.
public struct NewTodo: Codable, Sendable {
    public var title: String

    public init(title: String) { self.title = title }
}

/// The routes: `/health`, and under `/todos` (for the user named by `x-user`) create, list, get
/// and complete. Each `/todos` request runs in a container of its own, a child of `services`.
public func buildRouter(services: Resolver) -> Router<BasicRequestContext> {
    let router = Router()
    router.get("health") { _, _ in HTTPResponse.Status.ok }

    let todos = router.group("todos").add(middleware: RequestScopeMiddleware(services: services))
    todos.post { request, context in
        let input = try await request.decode(as: NewTodo.self, context: context)
        let todos: EditTodos = Resolver.resolve()
        return Reply(try await todos.create(title: input.title), status: .created)
    }
    todos.get { _, _ in
        let find: FindTodos = Resolver.resolve()
        return Reply(try await find.all())
    }
    todos.get(":id") { _, context in
        let find: FindTodos = Resolver.resolve()
        guard let todo = try await find.one(id: try context.parameters.require("id", as: Int.self)) else {
            throw HTTPError(.notFound)
        }
        return Reply(todo)
    }
    todos.post(":id/complete") { _, context in
        let todos: EditTodos = Resolver.resolve()
        guard let todo = try await todos.complete(id: try context.parameters.require("id", as: Int.self)) else {
            throw HTTPError(.notFound)
        }
        return Reply(todo)
    }
    return router
}

/// The server: opens the database (the async singleton's one build, before the first request, so
/// that requests resolve the repository synchronously), then serves the routes.
public func buildApplication(
    services: Resolver,
    configuration: ApplicationConfiguration = ApplicationConfiguration(),
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in },
    logger: Logger? = nil
) async throws -> some ApplicationProtocol {
    _ = try await services.tryResolveAsync((any TodoRepository).self)
    return Application(
        router: buildRouter(services: services), configuration: configuration,
        onServerRunning: onServerRunning, logger: logger)
}
