// MARK: - The static facade: every call acts on `Resolver.current`

extension Resolver {
    /// Registers a factory in ``current``. See the instance method for details.
    ///
    /// ```swift
    /// Resolver.register { NetworkService() }
    /// Resolver.register(NetworkServiceProtocol.self) { NetworkService() }
    /// ```
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> T
    ) -> Registration<T> {
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers a factory that receives the resolving container, in ``current``.
    ///
    /// ```swift
    /// Resolver.register { AssetService(network: $0.resolve()) }
    /// ```
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers a class in a ``Scope``, in ``current``.
    ///
    /// ```swift
    /// Resolver.register(scopedTo: RegistrationFlow.self) { User() }
    /// ```
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> T
    ) -> Registration<T> {
        current.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers a class in a ``Scope`` with a factory receiving the container, in ``current``.
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        current.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers an existing instance as a singleton in ``current``.
    ///
    /// ```swift
    /// Resolver.registerSingleton(Worker.self, MySingleton.shared)
    /// ```
    @discardableResult
    public static func registerSingleton<T>(
        _ type: T.Type = T.self,
        _ instance: T,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        current.registerSingleton(type, instance, qualifiedBy: qualifier, name: name, file: file, line: line)
    }

    /// Registers an existing instance as a singleton of its own type, in ``current``.
    ///
    /// ```swift
    /// Resolver.registerSingleton(Earth())
    /// ```
    @discardableResult
    public static func registerSingleton<T>(
        _ instance: T,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<T> {
        current.registerSingleton(T.self, instance, qualifiedBy: qualifier, name: name, file: file, line: line)
    }

    /// Registers a factory taking typed runtime arguments, in ``current``.
    ///
    /// ```swift
    /// Resolver.register(arguments: String.self, Int.self) { env, ts in ClassD(environment: env, timestamp: ts) }
    /// ```
    @discardableResult
    public static func register<T, First, each Rest>(
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
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, arguments: first, repeat each rest,
            file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Installs modules in ``current``.
    ///
    /// ```swift
    /// Resolver.install(NetworkModule(), StorageModule())
    /// ```
    public static func install(_ modules: any ResolverModule...) {
        current.install(modules)
    }

    /// Resolves a `T` from ``current``. See ``resolve(_:scopedTo:qualifiedBy:name:isolation:file:line:)-4y3mr``.
    ///
    /// ```swift
    /// init(api: APIClient = Resolver.resolve(qualifiedBy: Staging.self)) { … }
    /// ```
    public static func resolve<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> sending T {
        return resolveOrTrap(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), from: nil,
            site: SourceLocation(file: file, line: line), isolation: isolation)
    }

    /// Resolves a `T` from ``current`` and casts it to the type the caller expects.
    ///
    /// ```swift
    /// let variant: VariantA = Resolver.resolve(ClassA.self)
    /// ```
    @_disfavoredOverload
    public static func resolve<T, U>(
        _ type: T.Type,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> sending U {
        return current.resolve(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, isolation: isolation, file: file, line: line)
    }

    /// Resolves a `T` built with runtime arguments from ``current``.
    ///
    /// ```swift
    /// let d: ClassD = Resolver.resolve(arguments: "stage", 1200)
    /// ```
    public static func resolve<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        return current.resolve(
            type, qualifiedBy: qualifier, name: name, arguments: first, repeat each rest, isolation: isolation,
            file: file, line: line)
    }

    /// Resolves a `T` from ``current``, or nil when nothing is registered for it.
    ///
    /// ```swift
    /// let analytics: Analytics? = Resolver.optional()
    /// ```
    public static func optional<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> sending T? {
        return current.optional(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, isolation: isolation, file: file, line: line)
    }

    /// Resolves a `T` built with runtime arguments from ``current``, or nil when nothing serves them.
    ///
    /// ```swift
    /// let d: ClassD? = Resolver.optional(arguments: "stage", 1200)
    /// ```
    public static func optional<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> T? {
        return current.optional(
            type, qualifiedBy: qualifier, name: name, arguments: first, repeat each rest, isolation: isolation,
            file: file, line: line)
    }

    /// Resolves a `T` from ``current``, throwing a ``ResolutionError`` on failure.
    ///
    /// ```swift
    /// let service: AssetService = try Resolver.tryResolve()
    /// ```
    public static func tryResolve<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws(ResolutionError) -> sending T {
        return try current.tryResolve(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, isolation: isolation, file: file, line: line)
    }

    /// Resolves a `T` built with runtime arguments from ``current``, throwing on failure.
    public static func tryResolve<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws(ResolutionError) -> T {
        return try current.tryResolve(
            type, qualifiedBy: qualifier, name: name, arguments: first, repeat each rest, isolation: isolation,
            file: file, line: line)
    }

    /// Resolves one instance from every registration serving `T` in ``current``.
    ///
    /// ```swift
    /// let plugins: [Plugin] = Resolver.resolveAll()
    /// ```
    public static func resolveAll<T>(
        _ type: T.Type = T.self, isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) -> sending [T] {
        current.resolveAll(type, isolation: isolation, file: file, line: line)
    }

    /// Whether ``current`` (or an ancestor) has a registration for the key.
    public static func isRegistered<T>(
        _ type: T.Type,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil
    ) -> Bool {
        current.isRegistered(type, scopedTo: scope, qualifiedBy: qualifier, name: name)
    }

    /// The default lifetime of ``current``.
    public static var defaultLifetime: Lifetime {
        get { current.defaultLifetime }
        set { current.defaultLifetime = newValue }
    }

    /// Whether registering a key that is already registered in ``current`` replaces it.
    public static var allowsOverrides: Bool {
        get { current.allowsOverrides }
        set { current.allowsOverrides = newValue }
    }

    /// Registers every module's registrations in ``current``, then tells each it was loaded.
    public static func install(_ modules: [any ResolverModule]) {
        current.install(modules)
    }
}
