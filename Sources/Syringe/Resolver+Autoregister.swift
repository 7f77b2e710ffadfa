// MARK: - Autowiring

extension Resolver {
    /// Registers a type whose initializer's parameters are each resolved from the container.
    ///
    /// ```swift
    /// final class AssetService {
    ///     init(network: NetworkServiceProtocol, urls: URLComponentsService) { … }
    /// }
    /// resolver.autoregister(AssetService.init)
    /// ```
    ///
    /// The dependencies are known without running the initializer, so ``verify()`` and
    /// ``dependencyGraph()`` see them, and `tryResolve()` reports a missing one as a thrown error.
    @discardableResult
    public func autoregister<T, each Dependency>(
        _ initializer: @escaping (repeat each Dependency) throws -> T,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        let registration = register(
            T.self, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line
        ) { resolver in
            try initializer(repeat try resolver.tryResolve((each Dependency).self))
        }
        var dependencies: [Key] = []
        for type in repeat (each Dependency).self { dependencies.append(Key(type)) }
        registryLock.withWriteLock { registration.provider.declaredDependencies = dependencies }
        return registration
    }

    /// Registers, in ``current``, a type whose initializer's parameters are each resolved.
    ///
    /// ```swift
    /// Resolver.autoregister(AssetService.init)
    /// ```
    @discardableResult
    public static func autoregister<T, each Dependency>(
        _ initializer: @escaping (repeat each Dependency) throws -> T,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        current.autoregister(
            initializer, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line)
    }
}
