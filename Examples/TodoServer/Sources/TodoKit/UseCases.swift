import Logging
import Syringe

// The use cases: transient, one per request. Each takes its dependencies as initializer arguments
// whose defaults resolve them from the request's container, so the registration is `{ EditTodos() }`
// and a test (or code without a container) passes them by hand. They are `Sendable` structs, where
// `@Inject` properties (mutable storage) cannot go.

/// Changes the current user's todos: creates them and marks them done.
public struct EditTodos: Sendable {
    let repository: any TodoRepository
    let user: CurrentUser
    let logger: Logger

    public init(
        repository: any TodoRepository = Resolver.resolve(),
        user: CurrentUser = Resolver.resolve(),
        logger: Logger = Resolver.resolve()
    ) {
        self.repository = repository
        self.user = user
        self.logger = logger
    }

    public func create(title: String) async throws -> Todo {
        let todo = try await repository.create(owner: user.name, title: title)
        logger.debug("created todo \(todo.id) for \(user.name)")
        return todo
    }

    /// Nil when the user has no todo `id` (another user's todo included).
    public func complete(id: Int) async throws -> Todo? {
        let todo = try await repository.complete(id: id, owner: user.name)
        if todo != nil { logger.debug("completed todo \(id) for \(user.name)") }
        return todo
    }
}

/// The current user's todos: all of them, or one.
public struct FindTodos: Sendable {
    let repository: any TodoRepository
    let user: CurrentUser

    public init(repository: any TodoRepository = Resolver.resolve(), user: CurrentUser = Resolver.resolve()) {
        self.repository = repository
        self.user = user
    }

    public func all() async throws -> [Todo] {
        try await repository.list(owner: user.name)
    }

    /// Nil when the user has no todo `id` (another user's todo included).
    public func one(id: Int) async throws -> Todo? {
        try await repository.find(id: id, owner: user.name)
    }
}
