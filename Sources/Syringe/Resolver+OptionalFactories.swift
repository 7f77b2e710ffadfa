// MARK: - Factories that may yield no value

/// A factory that returns `T?` registers `T`, as in Resolver, whether the type is written
/// (`register(String.self) { device.identifier }`) or inferred (`register { () -> Bucket? in … }`):
/// `optional()` and `@OptionalInject` give nil when it yields nil, `resolve()` stops with a message
/// saying the factory produced nil, and ``Resolver/verify(skipping:providing:isolation:)`` does not
/// count it as a failure. A real `Optional` service is registered by writing its type:
/// `register((Bucket?).self) { … }`.
///
/// The forms without a type take the factory's result as `some _OptionalFactoryResult`, a
/// protocol only `Optional` conforms to: with the same score as the plain `() throws -> T` form,
/// the constrained one is the more specific, so an Optional-returning closure picks it, and any
/// other closure the plain form. `async` factories and the `scopedTo:` and `arguments:` forms
/// register the type their closure returns.
extension Resolver {
    /// Registers a factory that may yield no value: `optional()` and `@OptionalInject` give nil
    /// when it does, `resolve()` stops with a message saying the factory produced nil, and
    /// ``verify(skipping:providing:isolation:)`` does not count it as a failure.
    ///
    /// ```swift
    /// resolver.register(name: "bucket") { () -> Bucket? in store.bucket }   // registers Bucket
    /// let bucket: Bucket? = resolver.optional(name: "bucket")
    /// ```
    ///
    /// As in Resolver, the closure's `T?` registers `T`. To register the Optional itself, write
    /// its type: `register((Bucket?).self) { store.bucket }`.
    @discardableResult
    public func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> Value
    ) -> Registration<Value.Wrapped> {
        addOptionalProvider(
            Key(Value.Wrapped.self, qualifier: qualifier, name: name), lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: isMainActor(isolation)
        ) { _ in try factory()._factoryValue }
    }

    /// Registers a factory that receives the resolving container and may yield no value; its
    /// `T?` registers `T`.
    ///
    /// ```swift
    /// resolver.register { $0.optional() as Analytics? }   // registers Analytics
    /// ```
    @discardableResult
    public func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> Value
    ) -> Registration<Value.Wrapped> {
        addOptionalProvider(
            Key(Value.Wrapped.self, qualifier: qualifier, name: name), lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: isMainActor(isolation)
        ) { resolver in try factory(resolver)._factoryValue }
    }

    /// Registers a factory for `type` that may yield no value.
    ///
    /// ```swift
    /// resolver.register(String.self, name: "idfv") { device.identifierForVendor }   // a String?
    /// let idfv: String? = resolver.optional(name: "idfv")
    /// ```
    @_disfavoredOverload
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> T?
    ) -> Registration<T> {
        addOptionalProvider(
            Key(T.self, qualifier: qualifier, name: name), lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: isMainActor(isolation), factory: factory)
    }

    /// Registers a factory for `type` that takes nothing and may yield no value.
    @_disfavoredOverload
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> T?
    ) -> Registration<T> {
        addOptionalProvider(
            Key(T.self, qualifier: qualifier, name: name), lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: isMainActor(isolation)
        ) { _ in try factory() }
    }

    /// Registers a factory isolated to the main actor that may yield no value; its `T?` registers `T`.
    ///
    /// ```swift
    /// resolver.register { @MainActor () -> ProfileModel? in session.user.map(ProfileModel.init) }
    /// ```
    @discardableResult
    public func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () throws -> Value
    ) -> Registration<Value.Wrapped> {
        addOptionalProvider(
            Key(Value.Wrapped.self, qualifier: qualifier, name: name), lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: true
        ) { _ in try callOnMainActor { try factory()._factoryValue } }
    }

    /// Registers a factory isolated to the main actor that receives the resolving container and
    /// may yield no value; its `T?` registers `T`.
    @discardableResult
    public func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver) throws -> Value
    ) -> Registration<Value.Wrapped> {
        addOptionalProvider(
            Key(Value.Wrapped.self, qualifier: qualifier, name: name), lifetime: lifetime,
            site: SourceLocation(file: file, line: line), isMainActorBound: true
        ) { resolver in try callOnMainActor { try factory(resolver)._factoryValue } }
    }

    /// The registration of `T` by a factory that may yield nil: nil becomes the `producedNil`
    /// error, which `optional()` and `@OptionalInject` turn back into nil.
    @inline(__always)
    func addOptionalProvider<T>(
        _ key: Key, lifetime: Lifetime?, site: SourceLocation, isMainActorBound: Bool,
        factory: @escaping (Resolver) throws -> T?
    ) -> Registration<T> {
        addProvider(
            key,
            make: .resolver { resolver in
                guard let value = try factory(resolver) else {
                    throw ResolutionError(
                        .producedNil, key: key, path: Resolution.current.path, container: resolver, site: nil)
                }
                return value
            },
            lifetime: lifetime, site: site, isMainActorBound: isMainActorBound)
    }
}

/// What a factory returns when it may yield no value: `Optional`, and nothing else. It lets
/// `register { () -> T? in … }` register `T`; code never names it.
public protocol _OptionalFactoryResult {
    /// The type the factory registers.
    associatedtype Wrapped
    /// The value, or nil when the factory yielded none.
    var _factoryValue: Wrapped? { get }
}

extension Optional: _OptionalFactoryResult {
    public var _factoryValue: Wrapped? { self }
}

// MARK: - The static facade

extension Resolver {
    /// Registers, in ``current``, a factory that may yield no value; its `T?` registers `T`.
    ///
    /// ```swift
    /// Resolver.register(name: "bucket") { () -> Bucket? in store.bucket }
    /// ```
    @discardableResult
    public static func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> Value
    ) -> Registration<Value.Wrapped> {
        current.register(
            qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers, in ``current``, a factory that receives the container and may yield no value.
    @discardableResult
    public static func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> Value
    ) -> Registration<Value.Wrapped> {
        current.register(
            qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers, in ``current``, a factory for `type` that may yield no value.
    ///
    /// ```swift
    /// Resolver.register(String.self, name: "idfv") { device.identifier }
    /// ```
    @_disfavoredOverload
    @discardableResult
    public static func register<T>(
        _ type: T.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> T?
    ) -> Registration<T> {
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers, in ``current``, a factory for `type` that takes nothing and may yield no value.
    @_disfavoredOverload
    @discardableResult
    public static func register<T>(
        _ type: T.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> T?
    ) -> Registration<T> {
        current.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers, in ``current``, a factory isolated to the main actor that may yield no value.
    @discardableResult
    public static func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () throws -> Value
    ) -> Registration<Value.Wrapped> {
        current.register(
            qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }

    /// Registers, in ``current``, a factory isolated to the main actor that receives the container
    /// and may yield no value.
    @discardableResult
    public static func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver) throws -> Value
    ) -> Registration<Value.Wrapped> {
        current.register(
            qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }
}

// MARK: - Chaining

extension Registration {
    /// Registers another factory that may yield no value, in the same container; its `U?`
    /// registers `U`.
    ///
    /// ```swift
    /// resolver
    ///     .register { Store() }
    ///     .register(name: "bucket") { () -> Bucket? in Resolver.resolve(Store.self).bucket }
    /// ```
    @discardableResult
    public func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> Value
    ) -> Registration<Value.Wrapped> {
        resolver.register(
            qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers another factory, receiving the container and possibly yielding no value, in the
    /// same container.
    @discardableResult
    public func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> Value
    ) -> Registration<Value.Wrapped> {
        resolver.register(
            qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers another factory for `type` that may yield no value, in the same container.
    @_disfavoredOverload
    @discardableResult
    public func register<U>(
        _ type: U.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (Resolver) throws -> U?
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers another factory for `type` that takes nothing and may yield no value, in the
    /// same container.
    @_disfavoredOverload
    @discardableResult
    public func register<U>(
        _ type: U.Type,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping () throws -> U?
    ) -> Registration<U> {
        resolver.register(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, isolation: isolation,
            factory: factory)
    }

    /// Registers another factory, isolated to the main actor and possibly yielding no value, in
    /// the same container.
    @discardableResult
    public func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () throws -> Value
    ) -> Registration<Value.Wrapped> {
        resolver.register(
            qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }

    /// Registers another factory, isolated to the main actor, receiving the container and possibly
    /// yielding no value, in the same container.
    @discardableResult
    public func register<Value: _OptionalFactoryResult>(
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor (Resolver) throws -> Value
    ) -> Registration<Value.Wrapped> {
        resolver.register(
            qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }
}
