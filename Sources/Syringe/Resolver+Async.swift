/// Async factories: registrations whose factory is `async`, and the async twins of the resolving
/// verbs, which resolve every registration, async or not.
///
/// ```swift
/// resolver.register(lifetime: .singleton) { (r: Resolver) async throws -> Database in
///     try await Database.open(path: r.resolve(name: "dbPath"))
/// }
/// let db: Database = await resolver.resolveAsync()
/// ```
///
/// An async factory keeps its isolation: one written in `@MainActor` code, or as
/// `{ @MyActor in … }`, runs there, from wherever it is resolved. A shared instance (singleton,
/// `.cached(in:)`, scoped, time to live, weak while held) is built once however many tasks ask for
/// it at a time; the others suspend until it is built, and none blocks a thread. A synchronous
/// `resolve()` (or a property wrapper) returns an async registration's instance once it is built
/// and kept; otherwise it stops with a message that says to resolve it with `resolveAsync()`
/// first. See <doc:AsyncFactories>.
extension Resolver {

    /// Registers an `async` factory for `T`: `resolveAsync()` and its twins run it; a synchronous
    /// `resolve()` returns only an instance it built and kept.
    ///
    /// ```swift
    /// resolver.register { () async -> TokenStore in await TokenStore.load() }
    /// ```
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) () async throws -> sending T
    ) -> Registration<T> {
        addProvider(
            Key(T.self, qualifier: qualifier, name: name),
            make: .async({ _, _ in try await factory() }, isolation: factory.isolation),
            lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: false)
    }

    /// Registers an `async` factory that resolves its dependencies from the container it is
    /// given: `r.resolve()` for synchronous registrations, `await r.resolveAsync()` for async ones.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) (Resolver) async throws -> sending T
    ) -> Registration<T> {
        addProvider(
            Key(T.self, qualifier: qualifier, name: name),
            make: .async({ resolver, _ in try await factory(resolver) }, isolation: factory.isolation),
            lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: false)
    }

    /// Registers an `async` factory whose instance is shared within a scope.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) () async throws -> sending T
    ) -> Registration<T> {
        addScoped(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), scope: scope,
            make: .async({ _, _ in try await factory() }, isolation: factory.isolation),
            site: SourceLocation(file: file, line: line), isMainActorBound: false)
    }

    /// Registers an `async` factory whose instance is shared within a scope.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) (Resolver) async throws -> sending T
    ) -> Registration<T> {
        addScoped(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), scope: scope,
            make: .async({ resolver, _ in try await factory(resolver) }, isolation: factory.isolation),
            site: SourceLocation(file: file, line: line), isMainActorBound: false)
    }

    /// Registers an `async` factory that takes arguments, given at each resolution:
    /// `await resolver.resolveAsync(arguments: …)`. The arguments are `Sendable`: they go to the
    /// factory wherever it is isolated.
    @discardableResult
    public func register<T, First: Sendable, each Rest: Sendable>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        arguments first: First.Type,
        _ rest: repeat (each Rest).Type,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) (First, repeat each Rest) async throws -> sending T
    ) -> Registration<T> {
        let key = Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self)
        return addProvider(
            key,
            make: .async(
                asyncArgumentFactory(factory), isolation: factory.isolation,
                converting: { convertedTuple($0, as: (First, repeat each Rest).self) }),
            lifetime: lifetime, site: SourceLocation(file: file, line: line), isMainActorBound: false)
    }

    /// Resolves `T`, building it with its factory, async or not; stops the program on failure, as
    /// `resolve()` does. A cancelled task still gets the instance: a build in flight is awaited.
    public func resolveAsync<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async -> T {
        await Resolver.resolveAsyncOrTrap(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), from: self,
            arguments: nil, site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// ``resolveAsync(_:scopedTo:qualifiedBy:name:isolation:file:line:)-method`` with arguments for the factory.
    public func resolveAsync<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async -> T {
        await Resolver.resolveAsyncOrTrap(
            Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self),
            from: self,
            arguments: (first, repeat each rest), site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// Resolves `T`, building it with its factory, async or not; throws the ``ResolutionError``, or
    /// `CancellationError` when the task is cancelled while it waits for another task's build.
    public func tryResolveAsync<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async throws -> T {
        try await Resolver.resolveAsyncOrThrow(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), from: self,
            arguments: nil, site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// ``tryResolveAsync(_:scopedTo:qualifiedBy:name:isolation:file:line:)-method`` with arguments for the factory.
    public func tryResolveAsync<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async throws -> T {
        try await Resolver.resolveAsyncOrThrow(
            Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self),
            from: self,
            arguments: (first, repeat each rest), site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// Resolves `T`, or nil when nothing is registered for it; stops on any other failure.
    public func optionalAsync<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async -> T? {
        await Resolver.optionalAsyncOrTrap(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), from: self,
            arguments: nil, site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// ``optionalAsync(_:scopedTo:qualifiedBy:name:isolation:file:line:)-method`` with arguments for the factory.
    public func optionalAsync<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async -> T? {
        await Resolver.optionalAsyncOrTrap(
            Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self),
            from: self,
            arguments: (first, repeat each rest), site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// Resolves every registration of `T` (each name, qualifier and scope, no arguments), async or
    /// not, in the order they were registered; one whose factory may yield no value and yields
    /// none is left out.
    public func resolveAllAsync<T>(
        _ type: T.Type = T.self, isolation: isolated (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) async -> [T] {
        let site = SourceLocation(file: file, line: line)
        bootstrapIfPending(.current, calledAt: site)
        let bindings = withChainReadLock { bindingsServingLocked(T.self) }
        var all: [T] = []
        let depth = Resolver.asyncPath.count
        for binding in bindings {
            do {
                let value = try await binding.provider.resolveErasedAsync(
                    as: binding.key, from: self, arguments: nil, site: site, isolation: isolation)
                guard let converted = value as? T else {
                    throw ResolutionError(
                        .notConvertible(from: Swift.type(of: value)), key: binding.key, path: [], container: self,
                        site: site,
                        suggestions: [Messages.implementsFix(binding.key, instanceType: Swift.type(of: value))])
                }
                all.append(converted)
            } catch let error as ResolutionError where error.yieldsNothing(for: binding.provider.key, atDepth: depth) {
                continue
            } catch {
                Resolver.trapAsync(error, calledAt: site)
            }
        }
        return all
    }

}

// MARK: - The static twins

extension Resolver {
    /// Registers an `async` factory in ``current``.
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) () async throws -> sending T
    ) -> Registration<T> {
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }

    /// Registers an `async` factory in ``current``.
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) (Resolver) async throws -> sending T
    ) -> Registration<T> {
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }

    /// Registers an `async` factory in ``current``.
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) () async throws -> sending T
    ) -> Registration<T> {
        current.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, factory: factory)
    }

    /// Registers an `async` factory in ``current``.
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) (Resolver) async throws -> sending T
    ) -> Registration<T> {
        current.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, factory: factory)
    }

    /// Registers an `async` factory that takes arguments in ``current``.
    @discardableResult
    public static func register<T, First: Sendable, each Rest: Sendable>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        arguments first: First.Type,
        _ rest: repeat (each Rest).Type,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) (First, repeat each Rest) async throws -> sending T
    ) -> Registration<T> {
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, arguments: first, repeat each rest,
            file: file, line: line, factory: factory)
    }

    /// ``resolveAsync(_:scopedTo:qualifiedBy:name:isolation:file:line:)-method`` on ``current``.
    public static func resolveAsync<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async -> T {
        await Resolver.resolveAsyncOrTrap(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), from: nil,
            arguments: nil, site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// ``resolveAsync(_:qualifiedBy:name:arguments:_:isolation:file:line:)-method`` on ``current``.
    public static func resolveAsync<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async -> T {
        await Resolver.resolveAsyncOrTrap(
            Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self),
            from: nil,
            arguments: (first, repeat each rest), site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// ``tryResolveAsync(_:scopedTo:qualifiedBy:name:isolation:file:line:)-method`` on ``current``.
    public static func tryResolveAsync<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async throws -> T {
        try await Resolver.resolveAsyncOrThrow(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), from: nil,
            arguments: nil, site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// ``tryResolveAsync(_:qualifiedBy:name:arguments:_:isolation:file:line:)-method`` on ``current``.
    public static func tryResolveAsync<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async throws -> T {
        try await Resolver.resolveAsyncOrThrow(
            Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self),
            from: nil,
            arguments: (first, repeat each rest), site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// ``optionalAsync(_:scopedTo:qualifiedBy:name:isolation:file:line:)-method`` on ``current``.
    public static func optionalAsync<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async -> T? {
        await Resolver.optionalAsyncOrTrap(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), from: nil,
            arguments: nil, site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// ``optionalAsync(_:qualifiedBy:name:arguments:_:isolation:file:line:)-method`` on ``current``.
    public static func optionalAsync<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) async -> T? {
        await Resolver.optionalAsyncOrTrap(
            Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self),
            from: nil,
            arguments: (first, repeat each rest), site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// ``resolveAllAsync(_:isolation:file:line:)-method`` on ``current``.
    public static func resolveAllAsync<T>(
        _ type: T.Type = T.self, isolation: isolated (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) async -> [T] {
        await current.resolveAllAsync(type, isolation: isolation, file: file, line: line)
    }

}

// MARK: - Chaining

extension Registration {
    /// Registers another `async` factory in the same container (chaining).
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) () async throws -> sending U
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }

    /// Registers another `async` factory in the same container (chaining).
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) (Resolver) async throws -> sending U
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }

    /// Registers another `async` factory in the same container (chaining).
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) () async throws -> sending U
    ) -> Registration<U> {
        resolver.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, factory: factory)
    }

    /// Registers another `async` factory in the same container (chaining).
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) (Resolver) async throws -> sending U
    ) -> Registration<U> {
        resolver.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, factory: factory)
    }

    /// Registers another `async` factory that takes arguments in the same container (chaining).
    @discardableResult
    public func register<U, First: Sendable, each Rest: Sendable>(
        _ type: U.Type = U.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        arguments first: First.Type,
        _ rest: repeat (each Rest).Type,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @isolated(any) (First, repeat each Rest) async throws -> sending U
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, arguments: first, repeat each rest,
            file: file, line: line, factory: factory)
    }

}

// MARK: - The ways in

/// An async factory with arguments, as ``Provider`` calls it: with the arguments' tuple.
private func asyncArgumentFactory<T, each A: Sendable>(
    _ factory: @escaping @isolated(any) (repeat each A) async throws -> sending T
) -> (Resolver, Any?) async throws -> sending T {
    { _, arguments in
        let values = argumentTuple(arguments, as: (repeat each A).self)
        return try await factory(repeat each values)
    }
}

extension Resolver {
    /// Resolves `key` on the async path; a miss throws the missing-registration error.
    @inline(__always)
    static func resolveAsyncOrThrow<T>(
        _ key: Key, from container: Resolver?, arguments: Any?, site: SourceLocation,
        isolation: isolated (any Actor)?
    ) async throws -> T {
        do {
            return try await resolveAsyncConverting(
                key, from: container, arguments: arguments, site: site, cancellable: true, isolation: isolation)
        } catch let error as ResolutionError where error.isNotRegistered {
            throw missingError(for: key, from: container, site: site, as: T.self)
        }
    }

    /// Resolves `key` on the async path, or stops the program with the resolution error.
    @inline(__always)
    static func resolveAsyncOrTrap<T>(
        _ key: Key, from container: Resolver?, arguments: Any?, site: SourceLocation,
        isolation: isolated (any Actor)?
    ) async -> T {
        do {
            return try await resolveAsyncConverting(
                key, from: container, arguments: arguments, site: site, isolation: isolation)
        } catch let error as ResolutionError where error.isNotRegistered {
            trapAsync(missingError(for: key, from: container, site: site, as: T.self), calledAt: site)
        } catch {
            trapAsync(error, calledAt: site)
        }
    }

    /// Resolves `key` on the async path, or nil when nothing is registered for it; stops the
    /// program on any other failure.
    @inline(__always)
    static func optionalAsyncOrTrap<T>(
        _ key: Key, from container: Resolver?, arguments: Any?, site: SourceLocation,
        isolation: isolated (any Actor)?
    ) async -> T? {
        let depth = asyncPath.count
        do {
            let value: T = try await resolveAsyncConverting(
                key, from: container, arguments: arguments, site: site, isolation: isolation)
            return value
        } catch let error as ResolutionError
            where error.isNotRegistered || error.yieldsNothing(for: key, atDepth: depth)
        {
            return nil
        } catch {
            trapAsync(error, calledAt: site)
        }
    }

    /// Resolves `key` on the async path. With runtime arguments, a miss, or a nil for a `T?`, tries
    /// the registrations whose argument types the values convert to, as `resolve(arguments:)` does;
    /// the miss is thrown when none does.
    static func resolveAsyncConverting<T>(
        _ key: Key, from container: Resolver?, arguments: Any?, site: SourceLocation, cancellable: Bool = false,
        isolation: isolated (any Actor)?
    ) async throws -> T {
        let value: T
        do {
            value = try await resolveAsync(
                key, from: container, arguments: arguments, site: site, cancellable: cancellable, isolation: isolation)
        } catch let error as ResolutionError where error.isNotRegistered && arguments != nil {
            guard
                let converted: T = try await resolveConvertingAsync(
                    key, from: container, arguments: arguments, site: site, isolation: isolation)
            else { throw error }
            return converted
        }
        guard arguments != nil, T.self is any OptionalType.Type, (value as? any OptionalType)?.wrappedAny == nil,
            let converted: T = try await resolveConvertingAsync(
                key, from: container, arguments: arguments, site: site, isolation: isolation)
        else { return value }
        return converted
    }

    /// With runtime arguments nothing serves as given, resolves with a registration of `key`'s
    /// type and selectors (or, for a `T?`, of `T`'s) whose argument types the values convert to;
    /// nil if none does, or if a registration for the very argument types answered (with nil).
    private static func resolveConvertingAsync<T>(
        _ key: Key, from container: Resolver?, arguments: Any?, site: SourceLocation,
        isolation: isolated (any Actor)?
    ) async throws -> T? {
        guard let arguments, let argumentTypes = key.arguments else { return nil }
        // Two or more arguments travel as a tuple; one, as itself (a tuple too, if it is one).
        let values =
            argumentTypes is any ArgumentPackType.Type
            ? Mirror(reflecting: arguments).children.map(\.value) : [arguments]
        let resolver = container ?? current
        for binding in resolver.conversionCandidates(for: key, as: T.self) {
            let value = try await binding.provider.resolveConvertingAsync(
                values, from: resolver, site: site, isolation: isolation)
            if let converted = value as? T { return converted }
        }
        return nil
    }

    /// Stops the program with `error` (a ``ResolutionError``: nothing else is thrown where it is
    /// called), reported where the task's async resolution began.
    static func trapAsync(_ error: any Error, calledAt site: SourceLocation) -> Never {
        trap(error as! ResolutionError, calledAt: binding?.asyncStep?.outermostSite ?? site)
    }
}
