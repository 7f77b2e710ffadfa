// MARK: - Main-actor-bound registrations

/// A registration is main-actor-bound when its factory is isolated to the main actor. Written
/// in main-actor code, a factory is (a closure takes the isolation of the code around it), and
/// the plain `register` forms see that through their `isolation` argument. The forms below take
/// factories whose type says so: a `@MainActor` function (`register(factory: Model.init)`) or a
/// `{ @MainActor in … }` closure, from code of any isolation.
///
/// Resolving a main-actor-bound registration off the main actor gives Syringe's message
/// (a thrown ``ResolutionError`` from `tryResolve`, a stop with the same text from `resolve`);
/// from main-actor code it runs, on Linux as on Apple platforms.
extension Resolver {
    /// Registers a factory isolated to the main actor, for `@MainActor` types such as view models.
    ///
    /// ```swift
    /// @MainActor final class AssetListViewModel { @Inject var service: AssetService }
    ///
    /// func registerScreens() {   // nonisolated
    ///     Resolver.register { @MainActor in AssetListViewModel() }
    /// }
    /// ```
    ///
    /// In main-actor code the plain form, `register { AssetListViewModel() }`, does the same.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () throws -> T
    ) -> Registration<T> {
        addProvider(
            Key(T.self, qualifier: qualifier, name: name), make: .simple { try callOnMainActor(factory) },
            lifetime: lifetime, site: SourceLocation(file: file, line: line), isMainActorBound: true)
    }

    /// Registers a factory isolated to the main actor that receives the resolving container.
    ///
    /// ```swift
    /// resolver.register { @MainActor in AssetListViewModel(service: $0.resolve()) }
    /// ```
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver) throws -> T
    ) -> Registration<T> {
        addProvider(
            Key(T.self, qualifier: qualifier, name: name),
            make: .resolver { resolver in try callOnMainActor { try factory(resolver) } },
            lifetime: lifetime, site: SourceLocation(file: file, line: line), isMainActorBound: true)
    }

    /// Registers a class in a ``Scope`` with a factory isolated to the main actor.
    ///
    /// ```swift
    /// resolver.register(scopedTo: CheckoutFlow.self) { @MainActor in CheckoutModel() }
    /// ```
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () throws -> T
    ) -> Registration<T> {
        addScoped(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), scope: scope,
            make: .simple { try callOnMainActor(factory) }, site: SourceLocation(file: file, line: line),
            isMainActorBound: true)
    }

    /// Registers a class in a ``Scope`` with a factory isolated to the main actor that receives
    /// the resolving container.
    @discardableResult
    public func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver) throws -> T
    ) -> Registration<T> {
        addScoped(
            Key(T.self, qualifier: qualifier, scope: scope, name: name), scope: scope,
            make: .resolver { resolver in try callOnMainActor { try factory(resolver) } },
            site: SourceLocation(file: file, line: line), isMainActorBound: true)
    }

    /// Registers a factory isolated to the main actor that takes typed runtime arguments.
    ///
    /// ```swift
    /// resolver.register(arguments: String.self) { @MainActor id in WalletViewModel(walletID: id) }
    /// let model: WalletViewModel = resolver.resolve(arguments: "main")   // from @MainActor code
    /// ```
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
        factory: @escaping @MainActor (First, repeat each Rest) throws -> T
    ) -> Registration<T> {
        let key = Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self)
        return addProvider(
            key, make: .arguments(MainActorArgumentFactory<T, First, repeat each Rest>(factory)), lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: true)
    }

    /// Registers a factory that must run on the main actor.
    ///
    /// ```swift
    /// resolver.register { @MainActor in AssetListViewModel() }
    /// ```
    @available(
        *, deprecated,
        message: """
            write register { … }: a factory written in @MainActor code, a @MainActor function or a \
            { @MainActor in … } closure makes its registration main-actor-bound
            """
    )
    @discardableResult
    public func registerMainActor<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () -> T
    ) -> Registration<T> {
        register(type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line) {
            @MainActor in factory()
        }
    }

    /// Registers, in ``current``, a factory that must run on the main actor.
    ///
    /// ```swift
    /// Resolver.register { @MainActor in AssetListViewModel() }
    /// ```
    @available(
        *, deprecated,
        message: """
            write Resolver.register { … }: a factory written in @MainActor code, a @MainActor function or a \
            { @MainActor in … } closure makes its registration main-actor-bound
            """
    )
    @discardableResult
    public static func registerMainActor<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () -> T
    ) -> Registration<T> {
        current.register(type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line) {
            @MainActor in factory()
        }
    }
}

// MARK: - The static facade

extension Resolver {
    /// Registers, in ``current``, a factory isolated to the main actor.
    ///
    /// ```swift
    /// Resolver.register { @MainActor in AssetListViewModel() }
    /// Resolver.register(factory: AssetListViewModel.init)   // a @MainActor initializer
    /// ```
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () throws -> T
    ) -> Registration<T> {
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }

    /// Registers, in ``current``, a factory isolated to the main actor that receives the container.
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver) throws -> T
    ) -> Registration<T> {
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }

    /// Registers, in ``current``, a class in a ``Scope`` with a factory isolated to the main actor.
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () throws -> T
    ) -> Registration<T> {
        current.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, factory: factory)
    }

    /// Registers, in ``current``, a class in a ``Scope`` with a factory isolated to the main actor
    /// that receives the container.
    @discardableResult
    public static func register<T>(
        _ type: T.Type = T.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver) throws -> T
    ) -> Registration<T> {
        current.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, factory: factory)
    }

    /// Registers, in ``current``, a factory isolated to the main actor that takes runtime arguments.
    ///
    /// ```swift
    /// Resolver.register(arguments: String.self) { @MainActor id in WalletViewModel(walletID: id) }
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
        factory: @escaping @MainActor (First, repeat each Rest) throws -> T
    ) -> Registration<T> {
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, arguments: first, repeat each rest,
            file: file, line: line, factory: factory)
    }
}

// MARK: - Chaining

extension Registration {
    /// Registers another factory, isolated to the main actor, in the same container.
    ///
    /// ```swift
    /// resolver
    ///     .register { AssetService() }
    ///     .register { @MainActor in AssetListViewModel() }
    /// ```
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () throws -> U
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }

    /// Registers another factory, isolated to the main actor and receiving the container, in the
    /// same container.
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver) throws -> U
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }

    /// Registers another class in a ``Scope``, with a factory isolated to the main actor, in the
    /// same container.
    @discardableResult
    public func register<U>(
        _ type: U.Type = U.self,
        scopedTo scope: any Scope.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver) throws -> U
    ) -> Registration<U> {
        resolver.register(
            type, scopedTo: scope, qualifiedBy: qualifier, name: name, file: file, line: line, factory: factory)
    }

    /// Registers another factory, isolated to the main actor and taking runtime arguments, in the
    /// same container.
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
        factory: @escaping @MainActor (First, repeat each Rest) throws -> U
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, arguments: first, repeat each rest,
            file: file, line: line, factory: factory)
    }
}
