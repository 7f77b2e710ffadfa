import Hummingbird

/// A todo, as the API sends it.
public struct Todo: Codable, Equatable, Sendable, ResponseEncodable {
    public var id: Int
    /// The user it belongs to: only their requests see it.
    public var owner: String
    public var title: String
    public var completed: Bool

    public init(id: Int, owner: String, title: String, completed: Bool = false) {
        self.id = id
        self.owner = owner
        self.title = title
        self.completed = completed
    }
}

/// Where todos are kept. Every operation is scoped to one owner.
public protocol TodoRepository: Sendable {
    func create(owner: String, title: String) async throws -> Todo
    func list(owner: String) async throws -> [Todo]
    func find(id: Int, owner: String) async throws -> Todo?
    /// Marks the todo done; nil when `owner` has no todo `id`.
    func complete(id: Int, owner: String) async throws -> Todo?
}

/// A repository in memory: what tests swap in for the database.
public actor InMemoryTodoRepository: TodoRepository {
    private var todos: [Int: Todo] = [:]
    private var lastID = 0

    public init() {}

    public func create(owner: String, title: String) -> Todo {
        lastID += 1
        let todo = Todo(id: lastID, owner: owner, title: title)
        todos[todo.id] = todo
        return todo
    }

    public func list(owner: String) -> [Todo] {
        todos.values.filter { $0.owner == owner }.sorted { $0.id < $1.id }
    }

    public func find(id: Int, owner: String) -> Todo? {
        todos[id].flatMap { $0.owner == owner ? $0 : nil }
    }

    public func complete(id: Int, owner: String) -> Todo? {
        guard var todo = find(id: id, owner: owner) else { return nil }
        todo.completed = true
        todos[id] = todo
        return todo
    }
}
