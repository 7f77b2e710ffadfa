import Syringe

extension Resolver {
    /// Runs `body` against a fresh test container: a child of `Resolver.current` that keeps
    /// its own instances of everything it resolves, so registrations, overrides and singletons
    /// made inside never reach another test, while the parent's registrations stay visible.
    ///
    /// ```swift
    /// func testFetchAssets() {
    ///     Resolver.withTestContainer {
    ///         Resolver.register { MockNetworkService() }.implements(NetworkServiceProtocol.self)
    ///         let service: AssetService = Resolver.resolve()
    ///         …
    ///     }
    /// }
    /// ```
    ///
    /// The container is bound task-locally: work started on a new `Thread` or in a detached
    /// task does not see it; capture `Resolver.current` and use `Resolver.withContainer(_:_:)` there.
    @discardableResult
    public static func withTestContainer<R>(_ body: () throws -> R) rethrows -> R {
        try withContainer(makeTestContainer(), body)
    }

    /// Runs the asynchronous `body` against a fresh test container.
    ///
    /// ```swift
    /// func testLoadsAssets() async {
    ///     await Resolver.withTestContainer {
    ///         Resolver.register { MockNetworkService() }.implements(NetworkServiceProtocol.self)
    ///         let model: AssetListViewModel = Resolver.resolve()
    ///         await model.load()
    ///     }
    /// }
    /// ```
    ///
    /// Child tasks started inside inherit the container; the binding ends when `body` returns.
    @discardableResult
    public static func withTestContainer<R>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        try await withContainer(makeTestContainer(), isolation: isolation, body)
    }

    /// A new test container, child of the current one, for code that binds it itself.
    ///
    /// ```swift
    /// let container = Resolver.makeTestContainer()
    /// container.register { MockNetworkService() }.implements(NetworkServiceProtocol.self)
    /// let service: AssetService = container.resolve()
    /// ```
    ///
    /// Like ``withTestContainer(_:)``'s, it sees the current container's registrations and keeps
    /// its own instance of everything it resolves, singletons included.
    public static func makeTestContainer() -> Resolver {
        TestContainerCounter.next(parent: current)
    }
}

enum TestContainerCounter {
    private static let lock = Lock()
    nonisolated(unsafe) private static var count = 0

    static func next(parent: Resolver) -> Resolver {
        let number = lock.withLock {
            count += 1
            return count
        }
        return Resolver(isolatedChildOf: parent, name: "test container \(number) (child of \(parent.name))")
    }
}
