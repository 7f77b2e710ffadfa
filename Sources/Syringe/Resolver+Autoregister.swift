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
    /// The dependencies are known without running the initializer, so ``verify(skipping:providing:isolation:)`` and
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
            try initializer(repeat try resolver.tryResolve((each Dependency).self, file: file, line: line))
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
            try callOnMainActor {
                try initializer(repeat try resolver.tryResolve((each Dependency).self, file: file, line: line))
            }
        }
    }

    /// Registers `initializer` for `service` only (SwinjectAutoregistration's shape), each of its
    /// parameters resolved from the container: the implementation type stays unregistered.
    ///
    /// ```swift
    /// resolver.autoregister(NetworkServiceProtocol.self, initializer: NetworkService.init)
    /// resolver.autoregister(User.self, initializer: User.init, scopedTo: RegistrationFlow.self)
    /// ```
    ///
    /// The instance the initializer builds must be a `Service`; one that is not is reported as
    /// the resolution's error. With `scopedTo:` the registration lives in the scope (and takes
    /// no lifetime), as `register(scopedTo:)` does.
    @discardableResult
    public func autoregister<Service, T, each Dependency>(
        _ service: Service.Type,
        initializer: sending @escaping (repeat each Dependency) throws -> T,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        autoregister(
            Service.self, (repeat (each Dependency).self),
            key: Key(Service.self, qualifier: qualifier, scope: scope, name: name),
            scope: scope, lifetime: lifetime, site: SourceLocation(file: file, line: line), isMainActorBound: false
        ) { resolver in
            try initializer(repeat try resolver.tryResolve((each Dependency).self, file: file, line: line))
        }
    }

    /// Registers a `@MainActor` `initializer` for `service` only, each of its parameters resolved
    /// from the container. The registration is main-actor-bound: it resolves from main-actor code,
    /// and gives Syringe's message anywhere else.
    ///
    /// ```swift
    /// resolver.autoregister(ClipboardViewModel.self, initializer: ClipboardViewModelImpl.init)
    /// ```
    @discardableResult
    public func autoregister<Service, T, each Dependency>(
        _ service: Service.Type,
        initializer: @escaping @MainActor (repeat each Dependency) throws -> T,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        autoregister(
            Service.self, (repeat (each Dependency).self),
            key: Key(Service.self, qualifier: qualifier, scope: scope, name: name),
            scope: scope, lifetime: lifetime, site: SourceLocation(file: file, line: line), isMainActorBound: true
        ) { resolver in
            try callOnMainActor {
                try initializer(repeat try resolver.tryResolve((each Dependency).self, file: file, line: line))
            }
        }
    }

    /// Registers a type whose initializer's parameters are each resolved, in a ``Scope``.
    ///
    /// ```swift
    /// resolver.autoregister(User.init, scopedTo: RegistrationFlow.self)
    /// ```
    @discardableResult
    public func autoregister<T, each Dependency>(
        _ initializer: sending @escaping (repeat each Dependency) throws -> T,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        autoregister(
            (repeat (each Dependency).self), key: Key(T.self, qualifier: qualifier, scope: scope, name: name),
            scope: scope, lifetime: nil, site: SourceLocation(file: file, line: line), isMainActorBound: false
        ) { resolver in
            try initializer(repeat try resolver.tryResolve((each Dependency).self, file: file, line: line))
        }
    }

    /// Registers a type whose `@MainActor` initializer's parameters are each resolved, in a
    /// ``Scope``; the registration is main-actor-bound.
    ///
    /// ```swift
    /// resolver.autoregister(SignUpModel.init, scopedTo: RegistrationFlow.self)
    /// ```
    @discardableResult
    public func autoregister<T, each Dependency>(
        _ initializer: @escaping @MainActor (repeat each Dependency) throws -> T,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        autoregister(
            (repeat (each Dependency).self), key: Key(T.self, qualifier: qualifier, scope: scope, name: name),
            scope: scope, lifetime: nil, site: SourceLocation(file: file, line: line), isMainActorBound: true
        ) { resolver in
            try callOnMainActor {
                try initializer(repeat try resolver.tryResolve((each Dependency).self, file: file, line: line))
            }
        }
    }

    /// Registers `make` for `service` under `key`: the instance it builds must be a `Service`, and
    /// one that is not is reported as the resolution's error.
    private func autoregister<Service, T, each Dependency>(
        _: Service.Type, _ dependencies: (repeat (each Dependency).Type), key: Key, scope: (any Scope.Type)?,
        lifetime: Lifetime?, site: SourceLocation, isMainActorBound: Bool, make: @escaping (Resolver) throws -> T
    ) -> Registration<Service> {
        autoregister(
            (repeat each dependencies), key: key, scope: scope, lifetime: lifetime, site: site,
            isMainActorBound: isMainActorBound
        ) { resolver in
            let instance = try make(resolver)
            guard let converted = instance as? Service else {
                throw ResolutionError(
                    .notConvertible(from: type(of: instance as Any)), key: key, path: Resolution.current.path,
                    container: resolver, site: nil)
            }
            return converted
        }
    }

    /// Registers `make`, declaring `dependencies` as what it resolves.
    private func autoregister<T, each Dependency>(
        _ dependencies: (repeat (each Dependency).Type), qualifiedBy qualifier: (any Qualifier.Type)?, name: String?,
        lifetime: Lifetime?, site: SourceLocation, isMainActorBound: Bool, make: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        autoregister(
            (repeat each dependencies), key: Key(T.self, qualifier: qualifier, name: name), scope: nil,
            lifetime: lifetime, site: site, isMainActorBound: isMainActorBound, make: make)
    }

    /// Registers `make` under `key` (in `scope`, if given), declaring `dependencies` as what it resolves.
    private func autoregister<T, each Dependency>(
        _ dependencies: (repeat (each Dependency).Type), key: Key, scope: (any Scope.Type)?, lifetime: Lifetime?,
        site: SourceLocation, isMainActorBound: Bool, make: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        if scope != nil, let lifetime {
            fatalError(Messages.scopedLifetime(key, lifetime: lifetime.description), file: site.file, line: site.line)
        }
        let registration: Registration<T> =
            if let scope {
                addScoped(key, scope: scope, make: .resolver(make), site: site, isMainActorBound: isMainActorBound)
            } else {
                addProvider(
                    key, make: .resolver(make), lifetime: lifetime, site: site, isMainActorBound: isMainActorBound)
            }
        var keys: [Key] = []
        for type in repeat each dependencies { keys.append(Key(type)) }
        registryLock.withWriteLock { _ in registration.provider.declaredDependencies = keys }
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

    /// Registers, in ``current``, `initializer` for `service` only, each of its parameters resolved.
    ///
    /// ```swift
    /// Resolver.autoregister(NetworkServiceProtocol.self, initializer: NetworkService.init)
    /// ```
    @discardableResult
    public static func autoregister<Service, T, each Dependency>(
        _ service: Service.Type,
        initializer: sending @escaping (repeat each Dependency) throws -> T,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        current.autoregister(
            service, initializer: initializer, scopedTo: scope, qualifiedBy: qualifier, name: name, lifetime: lifetime,
            file: file, line: line)
    }

    /// Registers, in ``current``, a type whose initializer's parameters are each resolved, in a
    /// ``Scope``.
    ///
    /// ```swift
    /// Resolver.autoregister(User.init, scopedTo: RegistrationFlow.self)
    /// ```
    @discardableResult
    public static func autoregister<T, each Dependency>(
        _ initializer: sending @escaping (repeat each Dependency) throws -> T,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        current.autoregister(initializer, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line)
    }

    /// Registers, in ``current``, a type whose `@MainActor` initializer's parameters are each
    /// resolved, in a ``Scope``; the registration is main-actor-bound.
    @discardableResult
    public static func autoregister<T, each Dependency>(
        _ initializer: @escaping @MainActor (repeat each Dependency) throws -> T,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        current.autoregister(initializer, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line)
    }

    /// Registers, in ``current``, a `@MainActor` `initializer` for `service` only; the registration
    /// is main-actor-bound.
    @discardableResult
    public static func autoregister<Service, T, each Dependency>(
        _ service: Service.Type,
        initializer: @escaping @MainActor (repeat each Dependency) throws -> T,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        current.autoregister(
            service, initializer: initializer, scopedTo: scope, qualifiedBy: qualifier, name: name, lifetime: lifetime,
            file: file, line: line)
    }
}
