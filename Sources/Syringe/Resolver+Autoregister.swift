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
    ///
    /// The initializer's own isolation decides: a `@MainActor` initializer makes the registration
    /// main-actor-bound (the overload below), any other is called wherever it is resolved, even
    /// when registered from main-actor code. The parameter is `sending`, so a closure passed here
    /// does not take the isolation of the code around it (write `{ @MainActor … in … }` for one
    /// that must run on the main actor). An actor's initializer can be passed when its
    /// non-`Sendable` parameters are `sending` (Swift forms no reference to it otherwise).
    @discardableResult
    public func autoregister<T, each Dependency>(
        _ initializer: sending @escaping (repeat each Dependency) throws -> T,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        autoregister(
            (repeat (each Dependency).self), qualifiedBy: qualifier, name: name, lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: false
        ) { resolver in
            try initializer(repeat try resolver.tryResolve((each Dependency).self))
        }
    }

    /// Registers a type whose `@MainActor` initializer's parameters are each resolved from the
    /// container. The registration is main-actor-bound: it resolves from main-actor code, and
    /// gives Syringe's message anywhere else.
    ///
    /// ```swift
    /// @MainActor final class AssetListViewModel {
    ///     init(service: AssetService) { … }
    /// }
    /// resolver.autoregister(AssetListViewModel.init)
    /// ```
    @discardableResult
    public func autoregister<T, each Dependency>(
        _ initializer: @escaping @MainActor (repeat each Dependency) throws -> T,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        autoregister(
            (repeat (each Dependency).self), qualifiedBy: qualifier, name: name, lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: true
        ) { resolver in
            try callOnMainActor { try initializer(repeat try resolver.tryResolve((each Dependency).self)) }
        }
    }

    /// Registers `make`, declaring `dependencies` as what it resolves.
    private func autoregister<T, each Dependency>(
        _ dependencies: (repeat (each Dependency).Type), qualifiedBy qualifier: (any Qualifier.Type)?, name: String?,
        lifetime: Lifetime?, site: SourceLocation, isMainActorBound: Bool, make: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        let registration: Registration<T> = addProvider(
            Key(T.self, qualifier: qualifier, name: name), make: .plain(make), lifetime: lifetime, site: site,
            isMainActorBound: isMainActorBound)
        var keys: [Key] = []
        for type in repeat each dependencies { keys.append(Key(type)) }
        registryLock.withWriteLock { registration.provider.declaredDependencies = keys }
        return registration
    }

    /// Registers, in ``current``, a type whose initializer's parameters are each resolved.
    ///
    /// ```swift
    /// Resolver.autoregister(AssetService.init)
    /// ```
    @discardableResult
    public static func autoregister<T, each Dependency>(
        _ initializer: sending @escaping (repeat each Dependency) throws -> T,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        current.autoregister(
            initializer, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line)
    }

    /// Registers, in ``current``, a type whose `@MainActor` initializer's parameters are each
    /// resolved; the registration is main-actor-bound.
    ///
    /// ```swift
    /// Resolver.autoregister(AssetListViewModel.init)
    /// ```
    @discardableResult
    public static func autoregister<T, each Dependency>(
        _ initializer: @escaping @MainActor (repeat each Dependency) throws -> T,
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
