/// Resolves its value from the current ``Resolver`` when the enclosing object is created,
/// and holds it strongly.
///
/// ```swift
/// final class AssetListViewModel {
///     @Inject var assetService: AssetService
///     @Inject(Staging.self) var stagingAPI: APIClient
///     @Inject(RegistrationFlow.self) var user: User
///     @Inject(name: "🥐") var bread: Bread
/// }
/// ```
///
/// The container is the one current where the object is created: the one resolving it
/// inside a factory, one bound with ``Resolver/withContainer(_:_:)-(_,()->R)``, or ``Resolver/root``.
/// - SeeAlso: ``LazyInject``, ``WeakInject``, ``OptionalInject``
@propertyWrapper
public struct Inject<T> {
    /// The resolved value.
    public var wrappedValue: T

    /// Resolves `T` with no qualifier, from `container` if given.
    public init(
        container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        wrappedValue = InjectionRequest(T.self, container: container, isolation: isolation, file: file, line: line)
            .resolveNow()
    }

    /// Resolves `T` registered under `qualifier`.
    public init(
        _ qualifier: any Qualifier.Type, container: Resolver? = nil, isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        wrappedValue = InjectionRequest(
            T.self, qualifier: qualifier, container: container, isolation: isolation, file: file, line: line
        )
        .resolveNow()
    }

    /// Resolves `T` in `scope`, optionally under `qualifier`.
    public init(
        _ scope: any Scope.Type, _ qualifier: (any Qualifier.Type)? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        wrappedValue = InjectionRequest(
            T.self, scope: scope, qualifier: qualifier, container: container, isolation: isolation, file: file,
            line: line
        ).resolveNow()
    }

    /// Resolves `T` registered under `name`.
    public init(
        name: String, container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        wrappedValue = InjectionRequest(
            T.self, name: name, container: container, isolation: isolation, file: file, line: line
        ).resolveNow()
    }

    /// Resolves `T` registered under `qualifier`, optionally with `name` too.
    ///
    /// ```swift
    /// @Inject(qualifiedBy: Staging.self) var api: APIClient
    /// ```
    public init(
        qualifiedBy qualifier: any Qualifier.Type, name: String? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        wrappedValue = InjectionRequest(
            T.self, qualifier: qualifier, name: name, container: container, isolation: isolation, file: file,
            line: line
        ).resolveNow()
    }

    /// Resolves `T` in `scope`, optionally under `qualifier` and with `name`.
    ///
    /// ```swift
    /// @Inject(scopedTo: RegistrationFlow.self) var user: User
    /// ```
    public init(
        scopedTo scope: any Scope.Type, qualifiedBy qualifier: (any Qualifier.Type)? = nil, name: String? = nil,
        container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        wrappedValue = InjectionRequest(
            T.self, scope: scope, qualifier: qualifier, name: name, container: container, isolation: isolation,
            file: file, line: line
        ).resolveNow()
    }

    /// Uses `provider` instead of the container.
    ///
    /// ```swift
    /// @Inject({ MyInjectedType() }) var value: MyInjectedType
    /// ```
    public init(_ provider: () -> T) {
        wrappedValue = provider()
    }

    /// Uses the given value instead of the container.
    ///
    /// ```swift
    /// @Inject(MyInjectedType()) var value: MyInjectedType
    /// ```
    public init(_ value: @autoclosure () -> T) {
        wrappedValue = value()
    }
}

extension Inject: Sendable where T: Sendable {}

extension InjectionRequest {
    /// Resolves from the explicit container, or from the current one.
    func resolveNow<T>() -> T {
        Resolver.resolveOrTrap(key, from: container, site: site, isolation: isolation)
    }
}
