// MARK: - Registering (instance API)

extension Resolver {
    /// Registers a factory for `T` (or for `type`, to bind a protocol).
    ///
    /// ```swift
    /// resolver.register { NetworkService() }
    /// resolver.register(NetworkServiceProtocol.self) { NetworkService() }
    /// resolver.register(qualifiedBy: Staging.self, lifetime: .singleton) { APIClient(url: stagingURL) }
    /// resolver.register(name: "🥐") { Croissant() as Bread }
    /// ```
    ///
    /// The factory may throw; ``tryResolve(_:scopedTo:qualifiedBy:name:isolation:file:line:)-method``
    /// callers receive its error wrapped in a ``ResolutionError``. Re-registering a key replaces it
    /// unless ``allowsOverrides-property`` is `false`.
    ///
    /// A factory written in main-actor code is isolated to the main actor (a closure takes the
    /// isolation of the code around it), so the registration is main-actor-bound: resolving it
    /// off the main actor gives Syringe's message instead of running main-actor code elsewhere.
    /// (The compiler fills in the trailing `isolation` argument; callers never write it.)
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> T
    ) -> Registration<T> {
        addProvider(
            Key(T.self, qualifier: qualifier, name: name), make: .simple(factory),
            lifetime: lifetime, site: SourceLocation(file: file, line: line), isMainActorBound: isMainActor(isolation))
    }

    /// Registers a factory that receives the resolving container, to resolve its own dependencies.
    ///
    /// ```swift
    /// resolver.register { AssetService(network: $0.resolve()) }
    /// ```
    ///
    /// A factory written in main-actor code makes the registration main-actor-bound.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        addProvider(
            Key(T.self, qualifier: qualifier, name: name), make: .resolver(factory),
            lifetime: lifetime, site: SourceLocation(file: file, line: line), isMainActorBound: isMainActor(isolation))
    }

    /// Registers a class in a ``Scope``: everyone resolving it in that scope shares one
    /// instance while any of them holds it.
    ///
    /// ```swift
    /// resolver.register(scopedTo: RegistrationFlow.self) { User() }
    /// resolver.register(User.self, scopedTo: RegistrationFlow.self, qualifiedBy: Admin.self) { User() }
    /// ```
    ///
    /// A factory written in main-actor code makes the registration main-actor-bound.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> T
    ) -> Registration<T> {
        addScoped(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), scope: scope,
            make: .simple(factory), site: SourceLocation(file: file, line: line),
            isMainActorBound: isMainActor(isolation))
    }

    /// Registers a class in a ``Scope`` with a factory that receives the resolving container.
    ///
    /// A factory written in main-actor code makes the registration main-actor-bound.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        addScoped(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), scope: scope,
            make: .resolver(factory), site: SourceLocation(file: file, line: line),
            isMainActorBound: isMainActor(isolation))
    }

    /// Registers an existing instance as a singleton. It is the registration itself, so
    /// every container that reaches it (test containers included) shares it.
    ///
    /// ```swift
    /// resolver.registerSingleton(Worker.self, MySingleton.shared)
    /// ```
    @discardableResult
    public func registerSingleton<T>(
        _ type: T.Type = T.self,
        _ instance: T,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        let provider = Provider<T>(
            key: Key(T.self, qualifier: qualifier, name: name), factory: .simple { instance },
            store: FixedInstanceStore(Kept(instance)), site: SourceLocation(file: file, line: line), registry: registry)
        store(provider)
        return Registration(provider: provider, resolver: self)
    }

    /// Registers an existing instance as a singleton of its own type.
    ///
    /// ```swift
    /// resolver.registerSingleton(Earth())
    /// ```
    @discardableResult
    public func registerSingleton<T>(
        _ instance: T,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        registerSingleton(T.self, instance, qualifiedBy: qualifier, name: name, file: file, line: line)
    }

    /// Registers a factory that takes typed runtime arguments, passed at each resolution.
    ///
    /// ```swift
    /// resolver.register(arguments: String.self, Int.self) { env, ts in ClassD(environment: env, timestamp: ts) }
    /// let d: ClassD = resolver.resolve(arguments: "stage", 1200)
    /// ```
    ///
    /// The argument types are part of the key. A registration whose only argument is
    /// Optional may also be resolved without arguments (it receives nil). Every resolution
    /// builds a new instance, so such registrations are always transient.
    ///
    /// A factory written in main-actor code makes the registration main-actor-bound.
    @discardableResult
    public func register<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        arguments first: First.Type,
        _ rest: repeat (each Rest).Type,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (First, repeat each Rest) throws -> T
    ) -> Registration<T> {
        let key = Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self)
        let arguments = PackArgumentFactory<T, First, repeat each Rest>(factory)
        return addProvider(
            key, make: .arguments(arguments), lifetime: lifetime, site: SourceLocation(file: file, line: line),
            isMainActorBound: isMainActor(isolation))
    }

    /// Registers every module's registrations in this container.
    ///
    /// ```swift
    /// resolver.install(NetworkModule(), StorageModule())
    /// ```
    public func install(_ modules: any ResolverModule...) {
        install(modules)
    }

    /// Registers every module's registrations in this container, then tells each module it
    /// was loaded (``ResolverModule/loaded(into:)``).
    public func install(_ modules: [any ResolverModule]) {
        for module in modules { module.register(in: self) }
        for module in modules { module.loaded(into: self) }
    }

    // MARK: Storing

    /// Inlined, with `Provider.init`, into each `register` form: the factory's kind is then known
    /// where it is made, and no `Provider<T>.Factory` value (whose generic metadata the runtime
    /// would look up on every registration) is built (callgrind: 6,854 → 5,479 instructions a
    /// registration).
    @inline(__always)
    func addProvider<T>(
        _ key: Key, make: Provider<T>.Factory, lifetime: Lifetime?, site: SourceLocation, isMainActorBound: Bool
    ) -> Registration<T> {
        let (isMarked, providerClass) = Resolution.registrationFacts(of: T.self)
        if let refusal = providerClass.refusal(of: lifetime, for: key, isMarked: isMarked) {
            fatalError(refusal, file: site.file, line: site.line)
        }
        // Without a lifetime, the store is given when the registration is bound: the container's
        // default is read under the lock the binding takes.
        let isAsync = if case .async = make { true } else { false }
        let provider = providerClass.make(
            key: key, factories: Provider<T>.factories(make),
            store: providerClass.initialStore(
                for: lifetime ?? .transient, key: key, isMarked: isMarked, isAsync: isAsync),
            site: site, registry: registry, isMainActorBound: isMainActorBound, isMarked: isMarked)
        store(provider, withDefaultLifetime: lifetime == nil && !isMarked && key.arguments == nil ? provider : nil)
        return Registration(provider: provider, resolver: self)
    }

    func addScoped<T>(
        _ key: Key, scope: any Scope.Type, make: Provider<T>.Factory, site: SourceLocation, isMainActorBound: Bool
    ) -> Registration<T> {
        let provider = Provider<T>(
            key: key, factory: make, store: InstanceStore.scoped(scope), site: site, registry: registry,
            isMainActorBound: isMainActorBound)
        store(provider)
        return Registration(provider: provider, resolver: self)
    }

    /// Binds `binding.key` to `binding`, replacing what was there (released after the lock).
    ///
    /// In a container whose bootstrap is pending (``main`` before its first resolution), a
    /// registration made outside the bootstrap runs it first, so that it replaces what
    /// `registerAllServices()` registers rather than being replaced by it; one made while another
    /// thread runs the bootstrap is bound when it ends (that thread may be waiting for this one,
    /// so this one cannot wait for it). The flag is read under the write lock the registration
    /// takes anyway: once the bootstrap is done, this costs nothing.
    ///
    /// `withDefaultLifetime`: `binding` itself, when it is a registration that names no lifetime: it
    /// gets the default the container has when it is bound (after the bootstrap, which may set it).
    func store(_ binding: AnyBinding, withDefaultLifetime defaulted: AnyProvider? = nil) {
        var outcome = bind(binding, unlessBootstrapPending: true, withDefaultLifetime: defaulted)
        if case .bootstrapPending = outcome {
            bootstrapBeforeRegistering(.current)
            outcome = bind(binding, unlessBootstrapPending: false, withDefaultLifetime: defaulted)
        }
        if case .duplicate(let duplicate) = outcome {
            fatalError(
                Messages.duplicate(binding.key, container: name, first: duplicate.site, second: binding.site),
                file: binding.site.file, line: binding.site.line)
        }
    }

    private enum StoreOutcome {
        case stored
        /// Not stored: the bootstrap is pending, and this registration is not made by it.
        case bootstrapPending
        /// Not stored: the key is registered and the container does not allow overrides.
        case duplicate(AnyBinding)
    }

    private func bind(
        _ binding: AnyBinding, unlessBootstrapPending: Bool, withDefaultLifetime defaulted: AnyProvider?
    ) -> StoreOutcome {
        registryLock.withWriteLock(excludingReadersOf: registry) { leftovers in
            defaulted?.takeLifetime(registry.defaultLifetime ?? Globals.defaultLifetime, leftovers: &leftovers)
            if unlessBootstrapPending && registry.bootstrapPending && !Resolution.current.isBootstrapping {
                // Another thread's bootstrap runs (and may wait for this one): bound when it ends.
                guard Self.isBootstrapRunning else { return .bootstrapPending }
                Self.deferredBindings.append(binding)
                return .stored
            }
            if !registry.allowsOverrides, let existing = registry.bindings[binding.key] { return .duplicate(existing) }
            registry.bind(binding, leftovers: &leftovers)
            return .stored
        }
    }
}
