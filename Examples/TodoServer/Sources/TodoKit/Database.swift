import Logging
import SQLiteNIO

/// The SQLite database, opened once with its schema: the app registers it as an async singleton.
public final class TodoDatabase: Sendable {
    let connection: SQLiteConnection

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Opens the database at `path` (in memory when nil) and creates the schema if it is missing.
    public static func open(path: String?, logger: Logger = Logger(label: "TodoDatabase")) async throws -> TodoDatabase
    {
        let connection = try await SQLiteConnection.open(
            storage: path.map { .file(path: $0) } ?? .memory, logger: logger)
        do {
            _ = try await connection.query("PRAGMA journal_mode = WAL", [])
            _ = try await connection.query("PRAGMA synchronous = NORMAL", [])
            _ = try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS todos (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    owner TEXT NOT NULL,
                    title TEXT NOT NULL,
                    completed INTEGER NOT NULL DEFAULT 0
                )
                """, [])
            _ = try await connection.query("CREATE INDEX IF NOT EXISTS todos_owner ON todos (owner)", [])
        } catch {
            try? await connection.close()
            throw error
        }
        return TodoDatabase(connection: connection)
    }

    /// Closes the connection; nothing may use the database afterwards.
    public func close() async throws {
        try await connection.close()
    }
}

/// The repository over the database. An actor: one operation at a time, in order.
public actor SQLiteTodoRepository: TodoRepository {
    private let database: TodoDatabase

    public init(database: TodoDatabase) {
        self.database = database
    }

    private static let columns = "id, owner, title, completed"

    public func create(owner: String, title: String) async throws -> Todo {
        let rows = try await database.connection.query(
            "INSERT INTO todos (owner, title) VALUES (?, ?) RETURNING \(Self.columns)", [.text(owner), .text(title)])
        guard let todo = rows.first.flatMap(Todo.init(row:)) else { throw TodoDatabaseError.malformedRow }
        return todo
    }

    public func list(owner: String) async throws -> [Todo] {
        try await database.connection.query(
            "SELECT \(Self.columns) FROM todos WHERE owner = ? ORDER BY id", [.text(owner)]
        ).compactMap(Todo.init(row:))
    }

    public func find(id: Int, owner: String) async throws -> Todo? {
        try await database.connection.query(
            "SELECT \(Self.columns) FROM todos WHERE id = ? AND owner = ?", [.integer(id), .text(owner)]
        ).first.flatMap(Todo.init(row:))
    }

    public func complete(id: Int, owner: String) async throws -> Todo? {
        try await database.connection.query(
            "UPDATE todos SET completed = 1 WHERE id = ? AND owner = ? RETURNING \(Self.columns)",
            [.integer(id), .text(owner)]
        ).first.flatMap(Todo.init(row:))
    }
}

/// A row the database gave back without the columns it was asked for.
public enum TodoDatabaseError: Error {
    case malformedRow
}

extension Todo {
    init?(row: SQLiteRow) {
        guard let id = row.column("id")?.integer, let owner = row.column("owner")?.string,
            let title = row.column("title")?.string, let completed = row.column("completed")?.bool
        else { return nil }
        self.init(id: id, owner: owner, title: title, completed: completed)
    }
}
