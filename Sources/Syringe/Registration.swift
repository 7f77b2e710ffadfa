/// What every `register` call of ``Resolver`` returns: a
/// handle to configure the registration further, or to chain the next one.
///
/// ```swift
/// Resolver.register { NetworkService() }
///     .implements(NetworkServiceProtocol.self)
///     .lifetime(.singleton)
///     .register { URLComponentsService() }
/// ```
public struct Registration<T>: @unchecked Sendable {
    let provider: Provider<T>
    /// The container the registration was made in.
    public let resolver: Resolver

    /// Also serves requests for `P` (with the same qualifier, scope and name) from this
    /// registration; singleton and scoped instances are shared between `T` and every `P`.
    ///
    /// Writes `P`'s key: whichever of this and an explicit `register(P.self)` comes last wins.
    /// The key follows the registration: registering `T` again (with the same qualifier, scope
    /// and name) moves it to the new registration, and removing the registration removes it (a
    /// registration since replaced or removed is taken as it would have been: the key serves the
    /// new one, or is not written).
    ///
    /// ```swift
    /// Resolver.register { NetworkService() }.implements(NetworkServiceProtocol.self)
    /// ```
    ///
    /// Swift cannot check that a `T` is a `P` here; ``Resolver/verify(skipping:providing:isolation:)``
    /// reports a key whose instance is not.
    @discardableResult
    public func implements<P>(_ type: P.Type, file: StaticString = #fileID, line: UInt = #line) -> Registration<T> {
        implements(provider.key.with(type: P.self), P.self, site: SourceLocation(file: file, line: line))
    }

    /// Also serves requests for `P` registered under `name` (nil: no name), whatever the name of
    /// this registration, as Resolver's `implements(_:name:)`; otherwise as ``implements(_:file:line:)``.
    ///
    /// ```swift
    /// Resolver.register { MainScope() }.implements(ScopeProvider.self, name: "main")
    /// ```
    @discardableResult
    public func implements<P>(
        _ type: P.Type, name: String?, file: StaticString = #fileID, line: UInt = #line
    ) -> Registration<T> {
        let key = Key(
            P.self, qualifier: provider.key.qualifier, scope: provider.key.scope, name: name,
            arguments: provider.key.arguments)
        return implements(key, P.self, site: SourceLocation(file: file, line: line))
    }

    /// Also serves requests for `P` registered under `qualifier` (and `name`, if given), whatever
    /// the qualifier of this registration; otherwise as ``implements(_:file:line:)``.
    ///
    /// ```swift
    /// Resolver.register { StagingClient() }.implements(APIClient.self, qualifiedBy: Staging.self)
    /// ```
    @discardableResult
    public func implements<P>(
        _ type: P.Type, qualifiedBy qualifier: any Qualifier.Type, name: String? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Registration<T> {
        let key = Key(
            P.self, qualifier: qualifier, scope: provider.key.scope, name: name, arguments: provider.key.arguments)
        return implements(key, P.self, site: SourceLocation(file: file, line: line))
    }

    private func implements<P>(_ key: Key, _: P.Type, site: SourceLocation) -> Registration<T> {
        resolver.store(Alias(key: key, target: provider, site: site) { $0 is P })
        return self
    }

    /// Changes how long instances live. What the registration kept so far is dropped.
    ///
    /// ```swift
    /// Resolver.register { Database() }.lifetime(.singleton)
    /// ```
    ///
    /// A lifetime that cannot apply stops the program at this line with the reason: a
    /// registration with runtime arguments is always transient, one made with
    /// `register(scopedTo:)` lives in its scope, one made with `registerSingleton` keeps its
    /// instance, and a type that conforms to ``Singleton`` is always a singleton.
    @discardableResult
    public func lifetime(_ lifetime: Lifetime, file: StaticString = #fileID, line: UInt = #line) -> Registration<T> {
        let refusal = registryLock.withWriteLock { leftovers in
            provider.changeLifetime(to: lifetime, leftovers: &leftovers)
        }
        if let refusal { fatalError(refusal, file: file, line: line) }
        return self
    }

    /// Adds a step that runs after an instance is built, before the outermost `resolve()`
    /// returns: Swinject's `initCompleted`. Use it to close a cycle through a property, so that
    /// two instances can point at each other.
    ///
    /// ```swift
    /// Resolver.register { Parent(child: $0.resolve()) }.lifetime(.graph)
    /// Resolver.register { Child() }
    ///     .initCompleted { resolver, child in child.parent = resolver.resolve() }
    /// ```
    ///
    /// The steps of one resolution run once its whole graph is built, in the order the instances
    /// were built; until its step has run, an instance that is shared (a singleton, say) is seen
    /// only by the resolution building it. A step may resolve anything, the instance it completes
    /// included. Steps added later run after those added before.
    @discardableResult
    public func initCompleted(_ step: @escaping (Resolver, T) throws -> Void) -> Registration<T> {
        registryLock.withWriteLock { _ in provider.addCompletion(step) }
        return self
    }

    /// Adds a step that runs after an instance is built, receiving just the instance.
    ///
    /// ```swift
    /// Resolver.register { Coordinator() }.initCompleted { $0.start() }
    /// ```
    @discardableResult
    public func initCompleted(_ step: @escaping (T) throws -> Void) -> Registration<T> {
        initCompleted { _, instance in try step(instance) }
    }

    /// Registers another factory in the same container, for chaining.
    ///
    /// ```swift
    /// resolver
    ///     .register { ClassA() }
    ///     .register { ClassB(classA: $0.resolve()) }
    /// ```
    ///
    /// As for ``Resolver/register(_:qualifiedBy:name:lifetime:file:line:isolation:factory:)-3fuz9``,
    /// a factory written in main-actor code makes the registration main-actor-bound.
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> U
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers another factory, receiving the container, in the same container.
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> U
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers another class in a ``Scope`` with a factory that takes nothing, in the same container.
    ///
    /// ```swift
    /// resolver
    ///     .register { Session() }
    ///     .register(scopedTo: RegistrationFlow.self) { User() }
    /// ```
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping () throws -> U
    ) -> Registration<U> {
        resolver.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, factory: factory)
    }

    /// Registers another class in a ``Scope``, in the same container.
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> U
    ) -> Registration<U> {
        resolver.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers another factory taking runtime arguments, in the same container.
    ///
    /// ```swift
    /// resolver
    ///     .register(arguments: ClassA.self) { ClassB(classA: $0) }
    ///     .register(arguments: ClassA.self) { ClassC(classA: $0, classB: Resolver.resolve(arguments: $0)) }
    /// ```
    @discardableResult
    public func register<U, First, each Rest>(
        _ type: U.Type = U.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        arguments first: First.Type,
        _ rest: repeat (each Rest).Type,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (First, repeat each Rest) throws -> U
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, arguments: first, repeat each rest,
            file: file, line: line, isolation: isolation,
            factory: factory)
    }
}
